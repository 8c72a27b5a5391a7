/**
 * `createAnthropicMemoryHandlers(memory)`: Anthropic's memory tool backed by a gitmem repository. `/memories`
 * is the repository root; the commands keep the SDK's semantics and strings (semantics.ts), over the text the
 * model wrote (stored-text.ts: a markdown file it wrote without valid frontmatter is stored under a block of
 * gitmem's that it never sees); every change is one commit of one patch (patch.ts: validated, secrets scanned,
 * rolled back on failure, and never over a file changed since it was read), and every read is of the committed
 * HEAD. A refusal reaches the model in the tool's own terms (refusals.ts).
 */
import type { MemoryToolHandlers } from '@anthropic-ai/sdk/helpers/beta/memory';
import type { AnthropicCommand } from '../../blocks/memory-commands.js';
import { frontmatterKeysFor } from '../../blocks/validate.js';
import { isMemoryError } from '../../errors.js';
import { renderDirectoryView } from '../../read/view-format.js';
import { renderPatch, type FileOp } from './patch.js';
import { checkChangeSize, checkToolText, shownPath, toolError } from './refusals.js';
import { AnthropicToolError, fileView, planInsert, planStrReplace, type TextEdit } from './semantics.js';
import { hiddenLength, storedText, visibleText } from './stored-text.js';
import { lookup, readTexts, refuseBelowFile, resolve, storedName, type AnthropicMemory, type Entry } from './tree.js';

export type { AnthropicMemory } from './tree.js';

type Command = Parameters<MemoryToolHandlers[keyof MemoryToolHandlers]>[0];

/**
 * The SDK's handlers, checked against the one list of commands (blocks/memory-commands.ts): a command the SDK
 * has that the list does not give Anthropic's tool turns this into a type naming it (the handlers below then fail
 * to compile), and a command the list gives it that the SDK lacks fails the `Record` beside it.
 */
type CheckedHandlers = [Exclude<keyof MemoryToolHandlers, AnthropicCommand>] extends [never]
  ? MemoryToolHandlers
  : { notInTheOneList: Exclude<keyof MemoryToolHandlers, AnthropicCommand> };

export interface AnthropicMemoryOptions {
  /** The commit message of a change; default `<command> <repo path>` (e.g. `create notes/a.md`). */
  reason?: (command: Command) => string | undefined;
  /** Told of each commit a command made. */
  onCommit?: (commit: { command: Command['command']; commit: string; paths: string[] }) => void;
}

const fail = (message: string): never => {
  throw new AnthropicToolError(message);
};

/** Errors that mean another writer got there between this command's read and its write: read and plan again. */
const RACES = new Set(['PATCH_MISMATCH', 'FILE_EXISTS', 'FILE_NOT_FOUND']);
const ATTEMPTS = 3;

/** How the handlers change memory: each command one patch, so one commit, planned again if it raced a writer. */
function runner(memory: AnthropicMemory, options: AnthropicMemoryOptions) {
  /** Runs `plan` (reads, then at most one `commit`); a race plans again, a refusal is put in the tool's terms. */
  const run = async <T>(
    plan: (commit: (label: string, ops: FileOp[]) => Promise<void>) => Promise<T>,
    command: Command,
  ): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const files: string[] = [];
      const hidden = new Map<string, number>();
      const commit = async (label: string, ops: FileOp[]): Promise<void> => {
        for (const op of ops) {
          const file = op.kind === 'move' ? op.to : op.file;
          files.push(...(op.kind === 'move' ? [op.from, op.to] : [op.file]));
          if (op.kind === 'delete') continue;
          hidden.set(file, hiddenLines(op.text));
          // An edit can split a character (old_str half of an emoji): git would store U+FFFD, not the text.
          if (!op.text.isWellFormed())
            fail(
              `gitmem: this edit would leave half of a character (a lone surrogate) in ${shownPath(file)}, which memory files cannot hold`,
            );
        }
        const input = renderPatch(ops);
        checkChangeSize(input, shownPath(files[0] ?? label));
        const reason = options.reason?.(command)?.trim() || `${command.command} ${label}`;
        const r = await memory.applyPatch({ input, reason });
        options.onCommit?.({ command: command.command, commit: r.commit, paths: r.paths });
      };
      try {
        return await plan(commit);
      } catch (err) {
        if (attempt < ATTEMPTS && isMemoryError(err) && RACES.has(err.code)) continue;
        if (isMemoryError(err, 'PATCH_MISMATCH'))
          fail(
            `gitmem: ${files.map(shownPath).join(', ')} changed while this command ran (another writer); nothing was written: view it and try again`,
          );
        throw toolError(err, { files, hiddenLines: (f) => hidden.get(f) ?? 0 });
      }
    }
  };
  return run;
}

/** The lines of a stored text's hidden block (what a validator line number counts above the model's line 1). */
function hiddenLines(stored: string): number {
  return stored.slice(0, hiddenLength(stored)).split('\n').length - 1;
}

/** A directory's files with the sizes of the texts the model wrote (the two levels a view shows; deeper ones as stored). */
async function visibleSizes(
  memory: AnthropicMemory,
  entry: Extract<Entry, { kind: 'dir' }>,
): Promise<Array<{ rel: string; size: number }>> {
  const prefix = entry.dir === '' ? '' : `${entry.dir}/`;
  const shown = entry.files
    .filter((f) => f.rel.split('/').length <= 2 && frontmatterKeysFor(prefix + f.rel) !== null)
    .map((f) => prefix + f.rel);
  const texts =
    entry.commit === null || shown.length === 0
      ? new Map<string, string>()
      : await readTexts(memory, entry.commit, shown);
  return entry.files.map((f) => {
    const text = texts.get(prefix + f.rel);
    return text === undefined ? f : { rel: f.rel, size: Buffer.byteLength(visibleText(text)) };
  });
}

type Run = ReturnType<typeof runner>;

/** A str_replace / insert: the file must exist and be a file; the edit is planned on what the model sees. */
function editFile(
  memory: AnthropicMemory,
  run: Run,
  c: Command & { path: string },
  plan: (visible: string) => TextEdit,
): Promise<string> {
  return run(async (commit) => {
    const entry = await lookup(memory, resolve(memory, c.path));
    if (entry.kind === 'none') fail(`The path ${c.path} does not exist. Please provide a valid path.`);
    if (entry.kind === 'dir') fail(`The path ${c.path} is not a file.`);
    const { file, text: before } = entry as Extract<Entry, { kind: 'file' }>;
    const planned = plan(visibleText(before));
    const after = storedText(file, planned.after, before);
    if (after !== before) await commit(file, [{ kind: 'rewrite', file, before, text: after }]);
    return planned.result;
  }, c);
}

/** A rename's moves: each file keeps the text the model sees, stored as its new name needs it (e.g. `.txt` → `.md`). */
async function moveOps(
  memory: AnthropicMemory,
  entry: Exclude<Entry, { kind: 'none' }>,
  to: string,
): Promise<FileOp[]> {
  const dest = storedName(memory, to, 'new_path'); // a directory's name is held to the path rule too
  const move = (source: string, target: string, before: string): FileOp => ({
    kind: 'move',
    from: source,
    to: target,
    before,
    text: storedText(target, visibleText(before), before),
  });
  if (entry.kind === 'file') return [move(entry.file, dest, entry.text)];
  const sources = entry.files.map((f) => `${entry.dir}/${f.rel}`);
  const texts = await readTexts(memory, entry.commit ?? 'HEAD', sources);
  return entry.files.map((f, i) => {
    const text = texts.get(sources[i] as string);
    return text === undefined
      ? fail(`gitmem: ${shownPath(sources[i] as string)} is not UTF-8 text, so it cannot be moved by this tool`)
      : move(sources[i] as string, `${to}/${f.rel}`, text);
  });
}

/** `rename`: a file or a directory, never onto an existing path or into itself. */
async function renameEntry(memory: AnthropicMemory, run: Run, c: Parameters<MemoryToolHandlers['rename']>[0]) {
  const from = resolve(memory, c.old_path);
  const to = resolve(memory, c.new_path);
  if (from === '') fail('Cannot rename the /memories directory itself');
  return run(async (commit) => {
    const target = await lookup(memory, to, true);
    if (to === '' || target.kind !== 'none') fail(`The destination ${c.new_path} already exists`);
    const entry = await lookup(memory, from);
    if (entry.kind === 'none') fail(`The path ${c.old_path} does not exist`);
    refuseBelowFile(target as Extract<Entry, { kind: 'none' }>, to);
    if (entry.kind === 'dir' && to.startsWith(`${from}/`))
      fail(`gitmem: cannot move ${c.old_path} into itself (${c.new_path})`);
    await commit(`${from} -> ${to}`, await moveOps(memory, entry as Exclude<Entry, { kind: 'none' }>, to));
    return `Successfully renamed ${c.old_path} to ${c.new_path}`;
  }, c);
}

/**
 * Anthropic memory-tool handlers for one agent's memory, for `betaMemoryTool(handlers)` of `@anthropic-ai/sdk`.
 * @example
 *   const memory = await createMemory({ agentId: 'ada' });
 *   const tool = betaMemoryTool(createAnthropicMemoryHandlers(memory));
 *   await client.beta.messages.toolRunner({ model, max_tokens: 1024, tools: [tool], messages });
 */
export function createAnthropicMemoryHandlers(
  memory: AnthropicMemory,
  options: AnthropicMemoryOptions = {},
): MemoryToolHandlers {
  const run = runner(memory, options);
  return {
    async view(c) {
      const entry = await lookup(memory, resolve(memory, c.path));
      if (entry.kind === 'none') return fail(`The path ${c.path} does not exist. Please provide a valid path.`);
      if (entry.kind === 'dir') return renderDirectoryView(c.path, await visibleSizes(memory, entry)).text;
      return fileView(c.path, visibleText(entry.text), c.view_range);
    },

    async create(c) {
      const rel = resolve(memory, c.path);
      const text = checkToolText('file_text', c.file_text);
      return run(async (commit) => {
        const entry = await lookup(memory, rel, true);
        if (rel === '' || entry.kind !== 'none') fail(`File ${c.path} already exists`);
        refuseBelowFile(entry as Extract<Entry, { kind: 'none' }>, rel);
        const file = storedName(memory, rel, 'path');
        await commit(file, [{ kind: 'add', file, text: storedText(file, text, null) }]);
        return `File created successfully at: ${c.path}`;
      }, c);
    },

    async str_replace(c) {
      const newStr = checkToolText('new_str', c.new_str);
      return editFile(memory, run, c, (visible) => planStrReplace(c.path, visible, c.old_str, newStr));
    },

    async insert(c) {
      const text = checkToolText('insert_text', c.insert_text);
      return editFile(memory, run, c, (visible) => planInsert(c.path, visible, c.insert_line, text));
    },

    async delete(c) {
      const rel = resolve(memory, c.path);
      if (rel === '') fail('Cannot delete the /memories directory itself');
      return run(async (commit) => {
        const entry = await lookup(memory, rel);
        if (entry.kind === 'none') fail(`The path ${c.path} does not exist`);
        if (entry.kind === 'file') await commit(entry.file, [{ kind: 'delete', file: entry.file }]);
        if (entry.kind === 'dir')
          await commit(
            rel,
            entry.files.map((f) => ({ kind: 'delete', file: `${rel}/${f.rel}` })),
          );
        return `Successfully deleted ${c.path}`;
      }, c);
    },

    rename: (c) => renameEntry(memory, run, c),
  } satisfies CheckedHandlers & Record<AnthropicCommand, unknown>;
}
