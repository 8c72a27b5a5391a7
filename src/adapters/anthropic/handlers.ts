/**
 * `createAnthropicMemoryHandlers(memory)`: Anthropic's memory tool backed by a gitmem repository. `/memories`
 * is the repository root; the commands keep the SDK's semantics and strings (semantics.ts); every change is
 * one commit through the memory tool (validated, secrets scanned, rolled back on failure), and every read is
 * of the committed HEAD.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import { splitFrontmatter } from '../../blocks/frontmatter.js';
import { isMemoryError } from '../../errors.js';
import type { Memory } from '../../memory.js';
import type { WriteResult } from '../../memfs/tool.js';
import { renderDirectoryView } from '../../read/view-format.js';
import { AnthropicToolError, describeText, fileView, planInsert, planStrReplace, repoPathOf, type TextEdit } from './semantics.js';

type Command = Parameters<MemoryToolHandlers[keyof MemoryToolHandlers]>[0];

export interface AnthropicMemoryOptions {
  /** The commit message of a change; default `<command> <repo path>` (e.g. `create notes/a.md`). */
  reason?: (command: Command) => string | undefined;
  /** Told of each commit a command made. */
  onCommit?: (commit: { command: Command['command']; commit: string; paths: string[] }) => void;
}

/** The part of the Memory handle the handlers use. */
export type AnthropicMemory = Pick<Memory, 'tool' | 'applyPatch' | 'files' | 'read' | 'memoryDir'>;

type Entry = { kind: 'file'; file: string } | { kind: 'dir'; dir: string; files: Array<{ rel: string; size: number }> } | { kind: 'none' };

/** gitmem's rule for a name without an extension: the markdown file `<name>.md`. */
const fileOf = (rel: string): string => (/\.[^/]*$/.test(rel.split('/').at(-1) ?? '') ? rel : `${rel}.md`);
const fail = (message: string): never => {
  throw new AnthropicToolError(message);
};

/**
 * The repository path a tool path names, refused as the SDK refuses it — a path through a symbolic link in the
 * checkout included (gitmem never follows one; the SDK refuses those that leave the root).
 */
function resolve(memory: AnthropicMemory, shown: unknown): string {
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

/** What a repository path is in the committed HEAD. */
async function lookup(memory: AnthropicMemory, rel: string): Promise<Entry> {
  const { files } = await memory.files();
  const prefix = rel === '' ? '' : `${rel}/`;
  const below = files.filter((f) => f.path.startsWith(prefix)).map((f) => ({ rel: f.path.slice(prefix.length), size: f.size }));
  if (rel === '' || below.length > 0) return { kind: 'dir', dir: rel, files: below };
  const file = fileOf(rel);
  return files.some((f) => f.path === rel || f.path === file) ? { kind: 'file', file: files.some((f) => f.path === rel) ? rel : file } : { kind: 'none' };
}

/** The text before a memory file's body (its frontmatter block), '' for none. */
function prefixOf(file: string, text: string): string {
  if (!file.endsWith('.md')) return '';
  const split = splitFrontmatter(text);
  return split.kind === 'ok' && !text.includes('\r') && !text.startsWith('\ufeff') ? text.slice(0, text.length - split.body.length) : '';
}

/** A patch replacing every line of `file` (the edits the memory tool cannot express: frontmatter lines). */
function wholeFilePatch(file: string, before: string, after: string): string {
  const lines = (t: string): string[] => (t.endsWith('\n') ? t.slice(0, -1) : t).split('\n');
  if (before.includes('\r') || after.includes('\r') || before.endsWith('\n') !== after.endsWith('\n') || after === '') {
    fail(`gitmem: this edit of ${file} cannot be committed as one change (line endings); edit the file's body instead`);
  }
  const hunk = [...lines(before).map((l) => `-${l}`), ...lines(after).map((l) => `+${l}`)];
  return ['*** Begin Patch', `*** Update File: ${file}`, '@@', ...hunk, '*** End Patch'].join('\n');
}

/** A gitmem refusal in the tool's words where the SDK has some, else gitmem's own one line. */
async function translated<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isMemoryError(err, 'PATH_ESCAPE')) fail('Path would escape /memories directory via symlink');
    throw err;
  }
}

interface Writer {
  commit(command: Command, path: string, call: Record<string, unknown>): Promise<WriteResult>;
  editable(shown: string): Promise<{ file: string; text: string }>;
  write(command: Command, file: string, before: string, edit: TextEdit): Promise<string>;
  moveDir(command: Command, from: string, to: string, files: ReadonlyArray<{ rel: string }>): Promise<void>;
}

/** How the handlers change memory: each command one memory-tool call (or one patch), so one commit. */
function writer(memory: AnthropicMemory, options: AnthropicMemoryOptions): Writer {
  const reasonFor = (command: Command, path: string): string => options.reason?.(command)?.trim() || `${command.command} ${path}`;
  const committed = (command: Command, r: WriteResult): WriteResult => {
    options.onCommit?.({ command: command.command, commit: r.commit, paths: r.paths });
    return r;
  };
  const commit = async (command: Command, path: string, call: Record<string, unknown>): Promise<WriteResult> =>
    committed(command, await translated(() => memory.tool({ ...call, reason: reasonFor(command, path) })));

  /** The file a str_replace / insert edits: it must exist and be a file. */
  const editable = async (shown: string): Promise<{ file: string; text: string }> => {
    const entry = await lookup(memory, resolve(memory, shown));
    if (entry.kind === 'none') fail(`The path ${shown} does not exist. Please provide a valid path.`);
    if (entry.kind === 'dir') fail(`The path ${shown} is not a file.`);
    const file = (entry as { file: string }).file;
    return { file, text: (await memory.read(file)).text };
  };

  /** Writes `edit.after` over `before` as one commit: the body through str_replace, else as a whole-file patch. */
  const write = async (command: Command, file: string, before: string, edit: TextEdit): Promise<string> => {
    if (edit.after === before) return edit.result;
    const prefix = prefixOf(file, before);
    const body = before.slice(prefix.length);
    if (edit.after.startsWith(prefix) && body !== '') {
      await commit(command, file, { command: 'str_replace', file_path: file, old_string: body, new_string: edit.after.slice(prefix.length) });
    } else if (body === '' && prefix === '' && edit.after.endsWith('\n')) {
      await commit(command, file, { command: 'insert', file_path: file, insert_line: 0, insert_text: edit.after });
    } else {
      const input = wholeFilePatch(file, before, edit.after);
      committed(command, await translated(() => memory.applyPatch({ input, reason: reasonFor(command, file) })));
    }
    return edit.result;
  };

  /** A directory's files moved as one patch (each an Update with a Move and its first line as context). */
  const moveDir = async (command: Command, from: string, to: string, files: ReadonlyArray<{ rel: string }>): Promise<void> => {
    const ops: string[] = [];
    for (const f of files) {
      const first = (await memory.read(`${from}/${f.rel}`)).text.split(/\r?\n/)[0] ?? '';
      ops.push(`*** Update File: ${from}/${f.rel}`, `*** Move to: ${to}/${f.rel}`, '@@', ` ${first}`);
    }
    const input = ['*** Begin Patch', ...ops, '*** End Patch'].join('\n');
    committed(command, await translated(() => memory.applyPatch({ input, reason: reasonFor(command, `${from} -> ${to}`) })));
  };

  return { commit, editable, write, moveDir };
}

/**
 * Anthropic memory-tool handlers for one agent's memory, for `betaMemoryTool(handlers)` of `@anthropic-ai/sdk`.
 * @example
 *   const memory = await createMemory({ agentId: 'ada' });
 *   const tool = betaMemoryTool(createAnthropicMemoryHandlers(memory));
 *   await client.beta.messages.toolRunner({ model, max_tokens: 1024, tools: [tool], messages });
 */
export function createAnthropicMemoryHandlers(memory: AnthropicMemory, options: AnthropicMemoryOptions = {}): MemoryToolHandlers {
  const { commit, editable, write, moveDir } = writer(memory, options);
  return {
    async view(c) {
      const entry = await lookup(memory, resolve(memory, c.path));
      if (entry.kind === 'none') return fail(`The path ${c.path} does not exist. Please provide a valid path.`);
      if (entry.kind === 'dir') return renderDirectoryView(c.path, entry.files).text;
      return fileView(c.path, (await memory.read(entry.file)).text, c.view_range);
    },

    async create(c) {
      const rel = resolve(memory, c.path);
      const entry = await lookup(memory, rel);
      if (rel === '' || entry.kind !== 'none') fail(`File ${c.path} already exists`);
      const file = fileOf(rel);
      const own = file.endsWith('.md') ? splitFrontmatter(c.file_text) : null;
      const needsDescription = own !== null && (own.kind !== 'ok' || !/^description\s*:/m.test(own.yamlText));
      const body = own?.kind === 'ok' ? own.body : c.file_text;
      await commit(c, file, { command: 'create', file_path: file, file_text: c.file_text, ...(needsDescription ? { description: describeText(body, file) } : {}) });
      return `File created successfully at: ${c.path}`;
    },

    async str_replace(c) {
      const { file, text } = await editable(c.path);
      return write(c, file, text, planStrReplace(c.path, text, c.old_str, c.new_str));
    },

    async insert(c) {
      const { file, text } = await editable(c.path);
      return write(c, file, text, planInsert(c.path, text, c.insert_line, c.insert_text));
    },

    async delete(c) {
      const rel = resolve(memory, c.path);
      if (rel === '') fail('Cannot delete the /memories directory itself');
      const entry = await lookup(memory, rel);
      if (entry.kind === 'none') fail(`The path ${c.path} does not exist`);
      const target = entry.kind === 'file' ? entry.file : rel;
      await commit(c, target, { command: 'delete', file_path: target });
      return `Successfully deleted ${c.path}`;
    },

    async rename(c) {
      const from = resolve(memory, c.old_path);
      const to = resolve(memory, c.new_path);
      if (from === '') fail('Cannot rename the /memories directory itself');
      if (to === '' || (await lookup(memory, to)).kind !== 'none') fail(`The destination ${c.new_path} already exists`);
      const entry = await lookup(memory, from);
      if (entry.kind === 'none') fail(`The path ${c.old_path} does not exist`);
      if (entry.kind === 'dir') {
        if (to.startsWith(`${from}/`)) fail(`gitmem: cannot move ${c.old_path} into itself (${c.new_path})`);
        await moveDir(c, from, to, entry.files);
        return `Successfully renamed ${c.old_path} to ${c.new_path}`;
      }
      const source = (entry as { file: string }).file;
      await commit(c, `${source} -> ${fileOf(to)}`, { command: 'rename', old_path: source, new_path: fileOf(to) });
      return `Successfully renamed ${c.old_path} to ${c.new_path}`;
    },
  };
}
