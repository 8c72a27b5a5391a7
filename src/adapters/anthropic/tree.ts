/**
 * What a `/memories` path names in the committed HEAD — a file, a directory or nothing — and the texts of its
 * files, read through the Memory handle (a directory's texts in one object-store read with its git runner). A
 * path through a symbolic link in the checkout is refused as the SDK refuses one that leaves the root (gitmem
 * never follows one).
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { isMemoryError } from '../../errors.js';
import { normalizeMemoryPath } from '../../memfs/paths.js';
import { readObjects } from '../../read/at.js';
import { handleGit, type Memory } from '../../memory.js';
import { AnthropicToolError, repoPathOf } from './semantics.js';
import { shownPath } from './refusals.js';

/**
 * The part of the Memory handle the handlers use: a handle createMemory opened, or a copy of one (its runner
 * rides along, unlisted: a directory's texts are one object-store read).
 */
export type AnthropicMemory = Pick<Memory, 'applyPatch' | 'files' | 'read' | 'memoryDir'>;

export type Entry =
  | { kind: 'file'; file: string; text: string; commit: string | null }
  | { kind: 'dir'; dir: string; files: Array<{ rel: string; size: number }>; commit: string | null }
  | { kind: 'none'; files: ReadonlySet<string>; commit: string | null };

const fail = (message: string): never => {
  throw new AnthropicToolError(message);
};

/** The repository path a tool path names ('' = the root), refused as the SDK refuses it. */
export function resolve(memory: AnthropicMemory, shown: unknown): string {
  const rel = repoPathOf(shown);
  let dir = memory.memoryDir;
  for (const part of rel === '' ? [] : rel.split('/')) {
    dir = join(dir, part);
    let link: boolean;
    try {
      link = lstatSync(dir).isSymbolicLink();
    } catch {
      break; // nothing there: no link further down either
    }
    if (link) fail('Path would escape /memories directory via symlink');
  }
  return rel;
}

/**
 * The file gitmem stores for a path the model names: that path, held to gitmem's path rule, except that a name
 * without an extension is the markdown file `<name>.md`. `memory/` goes first: the rule drops one such prefix.
 */
export function storedName(memory: AnthropicMemory, rel: string, param: 'path' | 'new_path'): string {
  if (/\s$/.test(rel)) fail(`gitmem: '${param}' is refused: a name may not end in white space`);
  try {
    return normalizeMemoryPath(`memory/${rel}`, { memoryDir: memory.memoryDir, field: param, tool: 'gitmem' }).file;
  } catch (err) {
    return fail((err as Error).message); // `gitmem: '<param>' is refused: …`
  }
}

/** The `.md` file a name without an extension means (the name itself otherwise), null for one gitmem cannot hold. */
function markdownName(memory: AnthropicMemory, rel: string): string | null {
  try {
    return normalizeMemoryPath(`memory/${rel}`, { memoryDir: memory.memoryDir, field: 'path' }).file;
  } catch {
    return null;
  }
}

/**
 * What a repository path is in the committed HEAD (a name without an extension may be its `.md` file); a file
 * comes with its text. One read when it is a file, the listing of every file otherwise (`listing`: the listing
 * only, for a path that is usually new).
 */
export async function lookup(memory: AnthropicMemory, rel: string, listing = false): Promise<Entry> {
  let md: Extract<Entry, { kind: 'file' }> | undefined;
  if (rel !== '' && !listing) {
    try {
      const r = await memory.read(`memory/${rel}`);
      md = { kind: 'file', file: r.path, text: r.text, commit: r.commit };
      if (r.path === rel) return md; // else `<rel>.md`, unless `<rel>` is a directory
    } catch (err) {
      // not a file there (or a name gitmem could not hold): a directory, or nothing
      const code = isMemoryError(err) ? err.code : undefined;
      if (code !== 'FILE_NOT_FOUND' && code !== 'INVALID_PATH' && code !== 'UNKNOWN_REVISION') throw err;
    }
  }
  const { commit, files } = await memory.files();
  const prefix = rel === '' ? '' : `${rel}/`;
  const below = files
    .filter((f) => f.path.startsWith(prefix))
    .map((f) => ({ rel: f.path.slice(prefix.length), size: f.size }));
  if (rel === '' || below.length > 0) return { kind: 'dir', dir: rel, files: below, commit };
  if (md !== undefined) return md;
  if (listing && files.some((f) => f.path === rel || f.path === markdownName(memory, rel))) return lookup(memory, rel);
  return { kind: 'none', files: new Set(files.map((f) => f.path)), commit };
}

/**
 * The texts of many files of a commit, in one read of the object store (a directory of a thousand files is one
 * git process, not a thousand); a file that is not UTF-8 text is left out.
 */
export async function readTexts(
  memory: AnthropicMemory,
  commit: string,
  files: readonly string[],
): Promise<Map<string, string>> {
  const objects = await readObjects(
    { git: handleGit(memory), memoryDir: memory.memoryDir },
    files.map((f) => `${commit}:${f}`),
  );
  const texts = new Map<string, string>();
  objects.forEach((o, i) => {
    if (o?.type !== 'blob') return;
    try {
      texts.set(files[i] as string, UTF8.decode(o.data));
    } catch {
      // not text: the caller uses what it has
    }
  });
  return texts;
}
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Refuses a new path below a file (the SDK fails there too, with the file system's own error). */
export function refuseBelowFile(entry: Extract<Entry, { kind: 'none' }>, rel: string): void {
  const parts = rel.split('/');
  for (let i = 1; i < parts.length; i++) {
    const up = parts.slice(0, i).join('/');
    if (entry.files.has(up)) fail(`gitmem: ${shownPath(up)} is a file, so ${shownPath(rel)} cannot be created`);
  }
}
