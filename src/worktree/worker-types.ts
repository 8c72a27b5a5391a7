/**
 * The memory worker's contract as types: what a task names, what a body receives,
 * and the exact outcomes a worker can end with.
 */
import type { MemoryOperationOptions } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import type { Identity } from '../identity.js';

/**
 * `update`: edits a private worktree, merged back later. `repair`: works on the checkout itself, under the
 * lease; its commits are validated when it ends.
 */
export type MemoryWorkerType = 'update' | 'repair';

export interface MemoryWorkerTask {
  /** The primary memory repository (the checkout). */
  memoryDir: string;
  type?: MemoryWorkerType;
  /** Branch namespace / directory prefix (default `worker`): branch `gitmem/<kind>/<id>`. */
  kind?: string;
  /** Free text; recorded in the merge commit's body. */
  description?: string;
  /** Files or directories the body needs besides `system/` and top-level files (materialised up front). */
  paths?: readonly string[];
  /** Cancels the worker: its worktree and branch are discarded. */
  signal?: AbortSignal;
}

/** What a trusted in-process worker body gets: its task, the directory it edits, the branch and base commit. */
export interface MemoryWorkerContext {
  type: MemoryWorkerType;
  task: MemoryWorkerTask;
  /** Where the body edits: the private worktree (update) or the checkout (repair). */
  worktreeDir: string;
  /**
   * Update: `gitmem/<kind>/<id>`, the branch the harness creates when it imports the work (the body commits on
   * a detached HEAD; the branch does not exist while it runs). Repair: the checkout's current branch.
   */
  branch: string;
  baseHead: string;
  signal: AbortSignal;
  /**
   * Variables for the body's own git commands in the worktree (update): GIT_OBJECT_DIRECTORY (its private
   * object directory) and GIT_ALTERNATE_OBJECT_DIRECTORIES (the shared store, read-only). Git run without
   * them writes to the shared store instead, which works for a trusted in-process body. Empty for repair.
   */
  gitEnv: Record<string, string>;
  /** Checks more paths out into a sparse worktree (no-op for repair). */
  materialize: (paths: readonly string[]) => Promise<string[]>;
  /**
   * Settles once the worktree's index and files are in place. Already settled for every body but one that
   * says it starts early ({@link startsBeforeCheckout}), which must not let its writer touch them before.
   */
  checkedOut: Promise<void>;
}

/** A body that may start (a sandbox, say) while the worktree is still being checked out; it awaits `checkedOut`. */
export interface EarlyStartingBody {
  startsBeforeCheckout?: boolean;
}

/**
 * A worker body: does its work and COMMITS it in `ctx.worktreeDir` (update workers commit on a detached HEAD;
 * the harness imports those commits afterwards). Uncommitted leftovers are reported in the outcome and
 * discarded with the worktree (update workers); they are never committed on the body's behalf.
 */
export type MemoryWorkerBody = (ctx: MemoryWorkerContext) => Promise<void>;

interface OutcomeBase {
  type: MemoryWorkerType;
  branchName: string;
  commitCount: number;
  /** Paths the body left uncommitted (discarded for update workers, left in place for repair). */
  uncommittedPaths: string[];
  /** Why the checkout was not refreshed from its remote before the merge (see `refreshParent`); the merge was local. */
  refreshError?: string;
}

/** How a background writer ended: merged, no_changes, merge_conflict, rejected or discarded. */
export type MemoryWorkerOutcome =
  /** Nothing committed; worktree and branch cleaned up. */
  | (OutcomeBase & { status: 'no_changes' })
  /** Commits merged into the checkout with `merge(memory): <branch>`; branch deleted. */
  | (OutcomeBase & { status: 'merged'; head: string })
  /**
   * Merge refused; checkout untouched; the branch is KEPT (see `gitmem conflicts`). `remote`: the checkout's
   * own unpushed commits conflict with its remote, so it could not be brought up to date before the merge.
   */
  | (OutcomeBase & {
      status: 'merge_conflict';
      conflictingPaths: string[];
      conflictReason: 'content' | 'uncommitted' | 'remote';
      branchTip: string;
    })
  /**
   * The merge result breaks the memory rules (a link, a read_only file changed, a file without frontmatter, a
   * name memory may not hold…): nothing merged, checkout untouched, the branch is KEPT (see `gitmem conflicts`).
   * A repair worker's commits are moved to the kept branch `branchName` and the checkout goes back to the old
   * head (uncommitted leftovers on the rejected files go too). `problems` are `<path>: <problem>` lines;
   * `rejectedPaths` the files they name.
   */
  | (OutcomeBase & { status: 'rejected'; problems: string[]; rejectedPaths: string[]; branchTip: string })
  /**
   * Cancelled, the body failed, or its commits could not be imported (`import_failed`: HEAD not a detached
   * commit, objects missing or malformed, history not descending from the base): worktree and branch removed,
   * nothing merged.
   */
  | (OutcomeBase & { status: 'discarded'; reason: 'cancelled' | 'body_failed' | 'import_failed'; error?: string });

export type MemoryWorkerStatus = MemoryWorkerOutcome['status'];

export interface MemoryWorkerDeps {
  git: GitRunner;
  /** The configured home: its `config` holds the system/ budget the merge is held to (default: the repository's). */
  home?: string | undefined;
  now?: () => Date;
  randomHex?: () => string;
  /** Author of the merge commit (default `gitmem <gitmem@gitmem.local>`). */
  identity?: Identity;
  /** Lease options (timeouts) for the worker's git-mutating steps. */
  lease?: MemoryOperationOptions;
  /** How long a cancelled body may take to stop before its worktree is removed anyway (default 5 s). */
  cancelGraceMs?: number;
  /** Remove worktrees left by killed workers before starting (default true; see pruneOrphanWorktrees). */
  pruneOrphans?: boolean;
  /**
   * Brings the checkout up to date with its remote before the merge (e.g. the sync layer's
   * `prepareParentRefresh`). Called outside the lease once the body is done (the network part); `apply` runs
   * under the lease right before the merge, and a throw from it keeps the branch (`merge_conflict`, `remote`).
   */
  refreshParent?: () => Promise<ParentRefresh>;
}

/** A refresh of the checkout whose network part is done; `skipped` says why it will not happen. */
export interface ParentRefresh {
  skipped?: string;
  apply(): Promise<void>;
}
