/**
 * The memory tool: one tool call → one commit whose message is the agent's `reason`.
 */
import { MemoryError } from '../errors.js';
import { gitDirsOf, resolveGitCommonDir, type GitDirs } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { assertCleanForWrite } from './clean-check.js';
import type { WatchedCleanCheck } from './fsmonitor/watched-check.js';
import type { CommandContext } from './commands/context.js';
import { planCreate } from './commands/create.js';
import { planDelete } from './commands/delete.js';
import { planInsert } from './commands/insert.js';
import { planRename } from './commands/rename.js';
import { planStrReplace } from './commands/str-replace.js';
import { planUpdateDescription } from './commands/update-description.js';
import { applyDraft, draftEdits, type CommitEditsRequest, type Draft, type FileEdit, type WriteStep } from './edits.js';
import { recoverInterruptedWrite } from './journal.js';
import { fastPathOpen } from '../fast-paths.js';
import { prepareEarly, type PreparedWrite } from './prepare-write.js';
import type { Identity } from '../identity.js';
import { checkText, TOOL_LIMITS } from './limits.js';
import { errnoOf, fsError } from './fs-errors.js';
import { RepoFs } from './repo-fs.js';
import { readBaseTrees, type BaseTrees } from '../git/tree-edit.js';
import { systemBudgetFor } from './write-budget.js';
import { readLayoutAt } from '../hooks/layout-config.js';
import type { SystemBudget } from '../blocks/validate-content.js';
import type { WriteCommand } from '../blocks/memory-commands.js';
import { validateToolCall } from './tool-call.js';
import { withSyncNote } from './sync-note.js';
import { refuseOutsideScope } from './scope-guard.js';

/** Result of a committed write (or of a `view`, which commits nothing). */
export interface WriteResult {
  /** The new commit (view: the commit that was read). */
  commit: string;
  /** Paths the write changed (view: none). */
  paths: string[];
  message: string;
  /** view only: what the model should see (also in `message`). */
  view?: string;
}

/** Everything a write needs, supplied by the composition root. */
export interface WriteDeps {
  git: GitRunner;
  memoryDir: string;
  author: Identity;
  /** Serialises git-mutating operations on this repo (the operation lease). */
  lease: <T>(fn: () => Promise<T>) => Promise<T>;
  clock?: () => Date;
  /**
   * Called after a successful commit (e.g. to fire the post-commit hook), with the commit it was composed on
   * when the validator judged it against exactly that parent (undefined: the caller makes no such claim).
   */
  afterCommit?: (commit: string, parent?: string | null) => void;
  /** Test seam: see CommitEditsRequest.onStep. */
  onStep?: (step: WriteStep) => void;
  /** Runs a `view` call (a read of the committed memory, supplied by the read layer). */
  view?: (args: Record<string, unknown>) => Promise<WriteResult>;
  /** The system/ budget in estimated tokens, read at each write that grows system/ (default 8,000). */
  systemBudget?: () => number;
  /** Benchmarks only: skip the secret scan. */
  skipSecretScan?: boolean;
  /** The clean check in O(changed) (a work-tree watcher, long-lived processes); absent: the full walk each time. */
  cleanCheck?: WatchedCleanCheck;
  /** Writes survive a power loss once acknowledged (default true; see git/durable.ts for the switch). */
  durable?: boolean;
  /**
   * Only an operator's write (`gitmem protect write`, memfs/operator-write.ts) sets this: these paths' read_only
   * protection is lifted for the write; every other rule holds.
   */
  liftProtection?: ReadonlySet<string>;
  /** The repository's git dirs, found once when the handle opened (absent: found once per write). */
  gitDirs?: GitDirs;
  /**
   * True while the memory has a remote (asked at each tool write): the tool's result then says the memory is
   * synced after the turn, as the prompt's memfs wording does. Absent: never said.
   */
  hasRemote?: () => boolean;
}

/** Plans a write from the call's race-safe view of the repository (no writes). */
export type Planner = (fs: RepoFs) => FileEdit[];

const PLANNERS: Record<WriteCommand, (ctx: CommandContext, call: Record<string, unknown>) => FileEdit[]> = {
  create: planCreate,
  str_replace: planStrReplace,
  insert: planInsert,
  delete: planDelete,
  rename: planRename,
  update_description: planUpdateDescription,
};

/** Runs `fn`, returning what it throws instead of throwing. */
function attempt<T>(fn: () => T): T | Error {
  try {
    return fn();
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** How this write's commit request is made, from the base trees and budget it is composed on (the date read once). */
function requestFor(deps: WriteDeps & { gitDirs: GitDirs }, operation: string, reason: string) {
  const { memoryDir, gitDirs } = deps;
  const date = deps.clock?.();
  return (base: BaseTrees, e: FileEdit[], budget: SystemBudget | undefined): CommitEditsRequest => ({
    memoryDir,
    gitDirs,
    edits: e,
    message: reason,
    author: deps.author,
    base,
    operation,
    date,
    onStep: deps.onStep,
    systemBudget: budget,
    ...(deps.skipSecretScan ? { skipSecretScan: true } : {}),
    ...(deps.durable === false ? { durable: false } : {}),
    liftProtection: deps.liftProtection,
  });
}

/**
 * Plans edits under the lease and commits them as one commit. The clean check (a git process) starts
 * first; while it runs, the edits are planned (pure reads of the work tree), HEAD's trees along their paths
 * are read and the commit is composed in memory. Nothing is stored until the repo proves clean, and a dirty
 * repo wins over any planning error (the agent must hear about the repo first). Shared by the memory tool,
 * apply-patch and personalities.
 */
export async function writeUnderLease(
  deps: WriteDeps,
  operation: string,
  reason: string,
  plan: Planner,
): Promise<WriteResult> {
  checkText(operation, 'reason', reason, TOOL_LIMITS.reasonChars);
  return deps.lease(async () => {
    // Found once per write when the handle did not find them when it opened (every step below takes them).
    const gitDirs = deps.gitDirs ?? gitDirsOf(deps.memoryDir);
    // Holding the lease, any journal entry left behind belongs to a writer that died mid-write: finish it first.
    await recoverInterruptedWrite(deps.git, deps.memoryDir, deps.durable !== false, gitDirs.gitDir);
    const fs = new RepoFs(deps.memoryDir);
    try {
      return await planAndCommit({ ...deps, gitDirs }, operation, reason, () => plan(fs), fs);
    } finally {
      fs.close();
    }
  });
}

async function planAndCommit(
  deps: WriteDeps & { gitDirs: GitDirs },
  operation: string,
  reason: string,
  plan: () => FileEdit[],
  fs: RepoFs,
): Promise<WriteResult> {
  const { git, memoryDir, gitDirs } = deps;
  // The watched check is a fast path (fast-paths.ts): switched off, every check is the full `git status`.
  const watched = deps.cleanCheck && fastPathOpen('watcher') ? deps.cleanCheck : undefined;
  const statusP = assertCleanForWrite(git, memoryDir, watched);
  statusP.catch(() => undefined); // awaited below; this only keeps an early rejection from counting as unhandled
  const edits = attempt(plan);
  const request = requestFor(deps, operation, reason);
  const files = edits instanceof Error ? [] : edits.map((e) => e.file);
  const budgetP =
    edits instanceof Error
      ? Promise.resolve(undefined)
      : systemBudgetFor(git, memoryDir, edits, deps.systemBudget, readLayoutAt(gitDirs.commonDir));
  budgetP.catch(() => undefined); // awaited below
  let draft: Draft | Error | undefined;
  if (!(edits instanceof Error)) {
    const base = await readBaseTrees(git, memoryDir, files).catch((err: unknown) =>
      err instanceof Error ? err : new Error(String(err)),
    );
    const budget = await budgetP.catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
    draft =
      base instanceof Error
        ? base
        : budget instanceof Error
          ? budget
          : attempt(() => draftEdits(request(base, edits, budget)));
  }
  // A durable write's first flush (temp files only) overlaps the clean check; a refused write discards it.
  const early = prepareEarly(draft, fs);
  return finishWrite(deps, fs, {
    operation,
    statusP,
    watched,
    edits,
    draft,
    early,
    recompose: async (e) => draftEdits(request(await readBaseTrees(git, memoryDir, files), e, await budgetP)),
  });
}

interface Pending {
  operation: string;
  statusP: ReturnType<typeof assertCleanForWrite>;
  /** The watched check that answered, told of the commit (none with the fast paths off). */
  watched: WatchedCleanCheck | undefined;
  edits: FileEdit[] | Error;
  draft: Draft | Error | undefined;
  early: PreparedWrite | undefined;
  /** The draft of these edits composed again, on the HEAD the clean check found. */
  recompose: (edits: FileEdit[]) => Promise<Draft>;
}

/** The second half of a write: the clean check's answer, then the draft applied (or composed again first). */
async function finishWrite(deps: WriteDeps, fs: RepoFs, p: Pending): Promise<WriteResult> {
  const { git } = deps;
  const { operation, edits, early } = p;
  let { draft } = p;
  const status = await p.statusP.catch(async (err: unknown) => {
    await early?.discard();
    throw err;
  });
  if (edits instanceof Error) throw errnoOf(edits) === undefined ? edits : fsError(edits, '');
  // A typed error (no change, format rules) stands; a draft on another HEAD (moved by a writer outside
  // gitmem's lease) or a failed tree read is composed again.
  const usable =
    draft instanceof MemoryError ||
    (draft !== undefined && !(draft instanceof Error) && draft.req.base.head === status.head);
  if (!usable)
    draft = await p.recompose(edits).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  if (draft instanceof Error || draft === undefined) {
    await early?.discard();
    throw draft;
  }
  const commit = await applyDraft(git, draft, fs, early);
  p.watched?.noteCommit(draft.req.base.head, commit, draft.paths);
  deps.afterCommit?.(commit, draft.req.base.head);
  return { commit, paths: draft.paths, message: `${operation} committed (${commit.slice(0, 7)}).` };
}

/**
 * Runs one memory-tool call.
 * @example await runMemoryTool(deps, { command: 'create', reason: 'met Ana', file_path: 'people/ana.md', description: 'Ana' })
 */
export async function runMemoryTool(deps: WriteDeps, call: unknown): Promise<WriteResult> {
  const { command, reason, args } = validateToolCall(call);
  if (command === 'view') {
    if (!deps.view) throw new MemoryError('UNKNOWN_COMMAND', 'memory: view is not available here');
    return deps.view(args);
  }
  refuseOutsideScope(deps.memoryDir, args);
  const result = await writeUnderLease(deps, `Memory ${command}`, reason, (fs) =>
    PLANNERS[command](
      {
        memoryDir: deps.memoryDir,
        tool: 'memory',
        fs,
        layout: readLayoutAt(deps.gitDirs?.commonDir ?? resolveGitCommonDir(deps.memoryDir)),
      },
      args,
    ),
  );
  return withSyncNote(deps.hasRemote, result);
}
