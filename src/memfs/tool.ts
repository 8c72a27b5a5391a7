/**
 * The memory tool: one tool call → one commit whose message is the agent's `reason` (SPEC §4.2 flow:
 * validate the call → clean check → plan → validate format → write → commit; no residue on failure).
 */
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { assertCleanForWrite } from './clean-check.js';
import type { CommandContext } from './commands/context.js';
import { planCreate } from './commands/create.js';
import { planDelete } from './commands/delete.js';
import { planInsert } from './commands/insert.js';
import { planRename } from './commands/rename.js';
import { planStrReplace } from './commands/str-replace.js';
import { planUpdateDescription } from './commands/update-description.js';
import { commitEdits, type FileEdit, type WriteStep } from './edits.js';
import { recoverInterruptedWrite } from './journal.js';
import type { Identity } from './commit.js';
import { readBaseTrees, type BaseTrees } from './tree-edit.js';
import { warmObjectWriter } from '../git/objects.js';
import { MEMORY_COMMANDS, memoryToolSchema, type MemoryCommand } from './tool-schema.js';

/** Result of a committed write. */
export interface WriteResult {
  commit: string;
  paths: string[];
  message: string;
}

/** Everything a write needs, supplied by the composition root. */
export interface WriteDeps {
  git: GitRunner;
  memoryDir: string;
  author: Identity;
  /** Serialises git-mutating operations on this repo (the operation lease). */
  lease: <T>(fn: () => Promise<T>) => Promise<T>;
  clock?: () => Date;
  /** Called after a successful commit (e.g. to fire the post-commit hook). */
  afterCommit?: (commit: string) => void;
  /** Test seam: see CommitEditsRequest.onStep. */
  onStep?: (step: WriteStep) => void;
}

const PLANNERS: Record<MemoryCommand, (ctx: CommandContext, call: Record<string, unknown>) => FileEdit[]> = {
  create: planCreate,
  str_replace: planStrReplace,
  insert: planInsert,
  delete: planDelete,
  rename: planRename,
  update_description: planUpdateDescription,
};

const KNOWN_KEYS = new Set(Object.keys(memoryToolSchema.properties));

/** Checks the call's shape; returns the command and trimmed reason. */
export function validateToolCall(call: unknown): { command: MemoryCommand; reason: string; args: Record<string, unknown> } {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    throw new MemoryError('INVALID_ARGUMENT', 'memory: the tool call must be a JSON object');
  }
  const args = call as Record<string, unknown>;
  const missing = ['command', 'reason'].filter((k) => !(k in args));
  if (missing.length > 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `memory tool missing required parameter(s): ${missing.join(', ')}. Received parameters: ${Object.keys(args).join(', ') || '(none)'}`,
      { data: { missing } },
    );
  }
  const unknown = Object.keys(args).filter((k) => !KNOWN_KEYS.has(k));
  if (unknown.length > 0) {
    throw new MemoryError('INVALID_ARGUMENT', `memory: unknown parameter(s): ${unknown.join(', ')}`, { data: { unknown } });
  }
  const command = args['command'];
  if (typeof command !== 'string' || !(MEMORY_COMMANDS as readonly string[]).includes(command)) {
    throw new MemoryError('UNKNOWN_COMMAND', `Unsupported memory command: ${String(command)} (expected one of ${MEMORY_COMMANDS.join(', ')})`);
  }
  const reason = args['reason'];
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', "memory: 'reason' must be a non-empty string", { data: { field: 'reason' } });
  }
  return { command: command as MemoryCommand, reason: reason.trim(), args };
}

/**
 * Plans edits under the lease and commits them as one commit. The plan (pure reads of the work tree), the
 * clean check and the read of HEAD's trees along the planned paths run side by side; a dirty repo wins
 * over any planning error, as in SPEC §4.2. Shared by the memory tool, apply-patch and personalities.
 */
export async function writeUnderLease(
  deps: WriteDeps,
  operation: string,
  reason: string,
  plan: () => FileEdit[],
): Promise<WriteResult> {
  return deps.lease(async () => {
    const { git, memoryDir } = deps;
    // Holding the lease, any journal entry left behind belongs to a writer that died mid-write: finish it first.
    await recoverInterruptedWrite(git, memoryDir);
    let edits: FileEdit[] | undefined;
    let planError: unknown;
    try {
      edits = plan();
    } catch (err) {
      planError = err;
    }
    const files = (edits ?? []).map((e) => e.file);
    const baseP = edits ? readBaseTrees(git, memoryDir, files).catch((err: unknown) => err) : undefined;
    const statusP = assertCleanForWrite(git, memoryDir);
    if (edits !== undefined) warmObjectWriter(); // overlaps with the two git processes just started
    const status = await statusP;
    if (edits === undefined) throw planError;
    let base = await baseP;
    if (base instanceof Error) throw base;
    if (!base || (base as BaseTrees).head !== status.head) base = await readBaseTrees(git, memoryDir, files);
    const date = deps.clock?.();
    const commit = await commitEdits(git, {
      memoryDir,
      edits,
      message: reason,
      author: deps.author,
      base: base as BaseTrees,
      operation,
      ...(date ? { date } : {}),
      ...(deps.onStep ? { onStep: deps.onStep } : {}),
    });
    deps.afterCommit?.(commit);
    const paths = [...new Set(edits.filter((e) => e.before !== e.after).map((e) => e.file))];
    return { commit, paths, message: `${operation} committed (${commit.slice(0, 7)}).` };
  });
}

/**
 * Runs one memory-tool call.
 * @example await runMemoryTool(deps, { command: 'create', reason: 'met Ana', file_path: 'people/ana.md', description: 'Ana' })
 */
export async function runMemoryTool(deps: WriteDeps, call: unknown): Promise<WriteResult> {
  const { command, reason, args } = validateToolCall(call);
  const ctx: CommandContext = { memoryDir: deps.memoryDir, tool: 'memory' };
  return writeUnderLease(deps, `Memory ${command}`, reason, () => PLANNERS[command](ctx, args));
}
