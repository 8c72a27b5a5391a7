/**
 * A commit's files and what the prompt needs of them, at the cost of what changed: the last snapshot (kept in
 * the process, else read from the cache file) is moved to the new commit by the diff of the two trees (loose
 * objects first, else one `git diff-tree`), and only blobs never summarised are read. With no usable
 * snapshot it lists the commit (`ls-tree`, or loose trees) and reads every markdown blob, as before the cache.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { summarizeMarkdown, type MarkdownSummary } from '../blocks/file-summary.js';
import { catFileBatchRawOp, revParseOp } from '../git/commands/plumbing.js';
import { diffTreeMapOp, lsTreeMapOp } from '../git/commands/tree-map.js';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { diffLoose, listLoose, type KeepFile } from '../git/loose-tree.js';
import { readLooseObject } from '../git/objects.js';
import { readHeadQuick } from '../git/read-ref.js';
import type { GitRunner } from '../git/runner.js';
import { loadReadCache, saveReadCache, type ReadSnapshot } from './read-cache-file.js';

export type { ReadSnapshot } from './read-cache-file.js';

// Files, symlinks (their text is the target) — not submodules, as `ls-tree`'s blobs.
const keepBlob: KeepFile = (_path, mode) => mode === '100644' || mode === '100755' || mode === '120000';
const wantsSummary = (path: string): boolean => path.endsWith('.md');
const wantsText = (path: string): boolean => path.startsWith('system/') && path.endsWith('.md');

// The last snapshot per repository (common git dir): the next read at a new commit starts from it.
const lastSnapshot = new Map<string, ReadSnapshot>();
// Blobs read since the cache file was last written, per repository. The file is rewritten only once this
// passes SAVE_AFTER: an older file still serves a new process (it moves by the diff), and rewriting every
// path at every commit would make each read cost the repository's size again.
const readSinceSave = new Map<string, number>();
const SAVE_AFTER = 64;
// Past this many blobs to read, the loose ones are found by listing the fan-out directories (256 readdirs)
// instead of trying to open each id.
const PROBE_EACH_UP_TO = 256;

/** HEAD's commit: from the ref files when plain, else git; null for a repository without commits. */
export async function headCommit(git: GitRunner, memoryDir: string): Promise<string | null> {
  const gitDir = gitDirAt(memoryDir);
  const quick = gitDir === null ? undefined : readHeadQuick(gitDir);
  return quick ?? git.exec(revParseOp('HEAD'), { cwd: memoryDir });
}

/** A commit's files, and which of them may need reading (`changed`: every file, or only what the diff set). */
interface Listing {
  files: Map<string, string>;
  changed: ReadonlyMap<string, string>;
}

async function listFiles(git: GitRunner, memoryDir: string, objectsDir: string, commit: string): Promise<Listing> {
  const loose = listLoose(objectsDir, commit, keepBlob);
  const files = loose ?? new Map((await git.exec(lsTreeMapOp(commit, keepBlob), { cwd: memoryDir })).map((e) => [e.path, e.id]));
  return { files, changed: files };
}

async function movedFiles(git: GitRunner, memoryDir: string, objectsDir: string, from: ReadSnapshot, to: string): Promise<Listing | undefined> {
  let delta = diffLoose(objectsDir, from.commit, to, keepBlob);
  if (delta === undefined) {
    try {
      delta = await git.exec(diffTreeMapOp(from.commit, to, keepBlob), { cwd: memoryDir });
    } catch {
      return undefined; // the old commit is gone (reset, gc): list the new one
    }
  }
  const files = new Map(from.files);
  for (const path of delta.removed) files.delete(path);
  for (const [path, id] of delta.set) files.set(path, id);
  return { files, changed: delta.set };
}

/** The ids stored loose among `ids` (every id when few: trying to open each then costs less). */
function looseAmong(objectsDir: string, ids: readonly string[]): Set<string> | undefined {
  if (ids.length <= PROBE_EACH_UP_TO) return undefined;
  const loose = new Set<string>();
  for (const fan of new Set(ids.map((id) => id.slice(0, 2)))) {
    let names: string[];
    try {
      names = readdirSync(join(objectsDir, fan));
    } catch {
      continue;
    }
    for (const name of names) loose.add(fan + name);
  }
  return loose;
}

/** Reads blobs: loose ones in-process, the rest in one `cat-file --batch`; text decoded as UTF-8. */
async function readTexts(git: GitRunner, memoryDir: string, objectsDir: string, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const rest: string[] = [];
  const loose = looseAmong(objectsDir, ids);
  for (const id of ids) {
    const obj = loose === undefined || loose.has(id) ? readLooseObject(objectsDir, id) : undefined;
    if (obj?.type === 'blob') out.set(id, obj.data.toString('utf8'));
    else rest.push(id);
  }
  if (rest.length === 0) return out;
  const objects = await git.exec(catFileBatchRawOp(rest), { cwd: memoryDir });
  rest.forEach((id, i) => {
    const obj = objects[i];
    if (obj?.type === 'blob') out.set(id, obj.data.toString('utf8'));
  });
  return out;
}

/** Keeps only the entries `files` names (the maps are shared between snapshots and only grow otherwise). */
function pruned<T>(byId: Map<string, T>, files: ReadonlyMap<string, string>): Map<string, T> {
  if (byId.size <= 2 * files.size + 1024) return byId;
  const out = new Map<string, T>();
  for (const id of files.values()) {
    const v = byId.get(id);
    if (v !== undefined) out.set(id, v);
  }
  return out;
}

/**
 * Adds summaries and texts for the changed files, reusing what `from` knows per blob id (its maps are shared:
 * content-addressed entries are never wrong, only unused) and reading only the others (how many: `read`).
 */
async function describe(git: GitRunner, memoryDir: string, objectsDir: string, commit: string, listing: Listing, from: ReadSnapshot | undefined): Promise<{ snap: ReadSnapshot; read: number }> {
  const { files, changed } = listing;
  const summaries = pruned(from?.summaries ?? new Map<string, MarkdownSummary>(), files);
  const texts = pruned(from?.texts ?? new Map<string, string>(), files);
  const missing = new Set<string>();
  for (const [path, id] of changed) {
    if ((wantsSummary(path) && !summaries.has(id)) || (wantsText(path) && !texts.has(id))) missing.add(id);
  }
  const read = await readTexts(git, memoryDir, objectsDir, [...missing]);
  for (const [path, id] of changed) {
    const text = read.get(id);
    if (text === undefined) continue;
    if (wantsSummary(path) && !summaries.has(id)) summaries.set(id, summarizeMarkdown(text));
    if (wantsText(path)) texts.set(id, text);
  }
  return { snap: { commit, files, summaries, texts }, read: missing.size };
}

/**
 * The snapshot of `commit`: from the process, the cache file, or built from the last one by the diff.
 * @example const snap = await readSnapshotAt(git, memoryDir, head); snap.summaries.get(snap.files.get('notes/a.md')!)
 */
export async function readSnapshotAt(git: GitRunner, memoryDir: string, commit: string): Promise<ReadSnapshot> {
  const commonDir = resolveGitCommonDir(memoryDir);
  const objectsDir = join(commonDir, 'objects');
  // The process's own snapshot first: moving it costs less than parsing the file.
  const from = lastSnapshot.get(commonDir) ?? loadReadCache(commonDir);
  if (from?.commit === commit) {
    lastSnapshot.set(commonDir, from);
    return from;
  }
  const listing = (from && (await movedFiles(git, memoryDir, objectsDir, from, commit))) ?? (await listFiles(git, memoryDir, objectsDir, commit));
  const { snap, read } = await describe(git, memoryDir, objectsDir, commit, listing, from);
  lastSnapshot.set(commonDir, snap);
  const unsaved = (readSinceSave.get(commonDir) ?? 0) + read;
  if (from === undefined || unsaved >= SAVE_AFTER) {
    saveReadCache(commonDir, snap);
    readSinceSave.set(commonDir, 0);
  } else readSinceSave.set(commonDir, unsaved);
  return snap;
}
