/**
 * Brings a finished update worker's work home, inside the operation lease: import its
 * commits from the private object directory (re-hashed, ancestry checked), merge as `merge(memory): <branch>`,
 * then remove the worktree. A merged tip needs no branch; on conflict the branch is created and kept and
 * reported instead of guessing; a merge result that breaks the memory rules is `rejected` and its branch kept
 * too. Until the merge landed or the branch exists, the private git dir still holds the work, so a crash at
 * any step leaves it for prune to import. Work that cannot be imported is discarded with the reason.
 */
import type { GitRunner } from '../git/runner.js';
import { withMemoryOperation } from '../git/lease.js';
import { MemoryError, toMemoryError } from '../errors.js';
import { mergeSubject } from '../writers.js';
import type { MemoryWorktree } from './create.js';
import { discardWorktree, removeWorktreeDir } from './cleanup.js';
import { importWorktreeCommits, keepWorkBranch } from './import.js';
import { countWorktreeCommits, worktreeDirtyPaths } from './inspect.js';
import { mergeIntoCheckout, type CheckoutMergeResult } from './merge.js';
import type { MemoryWorkerDeps, MemoryWorkerOutcome, ParentRefresh } from './worker-types.js';

/**
 * Merge message of a worker branch; the task description, when given, goes in the body.
 * @example workerMergeMessage('gitmem/worker/x', 'tidy prefs') === 'merge(memory): gitmem/worker/x\n\nTask: tidy prefs'
 */
export function workerMergeMessage(branch: string, description?: string): string {
  const task = description?.trim();
  return task ? `${mergeSubject('worker', branch)}\n\nTask: ${task}` : mergeSubject('worker', branch);
}

/**
 * Integrates (or, when `signal` fired meanwhile, discards) a finished worker's worktree. Holds the lease
 * for the whole step, so nothing else writes between the import and the merge.
 * @example await integrateWorkerWorktree(wt, { description, signal }, deps)
 */
export async function integrateWorkerWorktree(
  wt: MemoryWorktree,
  o: { description?: string; signal?: AbortSignal; refresh?: ParentRefresh; uncommitted?: Promise<string[]> },
  deps: MemoryWorkerDeps,
): Promise<MemoryWorkerOutcome> {
  const { git } = deps;
  // The writer is gone, so what it left uncommitted can be asked before the lease (the caller may have started it).
  const uncommitted = o.uncommitted ?? worktreeDirtyPaths(git, wt).catch(() => []);
  const base = {
    type: 'update' as const,
    branchName: wt.branchName,
    ...(o.refresh?.skipped ? { refreshError: o.refresh.skipped } : {}),
  };
  return withMemoryOperation(
    wt.parentMemoryDir,
    async (): Promise<MemoryWorkerOutcome> => {
      if (o.signal?.aborted) {
        const uncommittedPaths = await uncommitted;
        const commitCount = await countWorktreeCommits(git, wt);
        await discardWorktree(wt, git);
        return { ...base, status: 'discarded', reason: 'cancelled', commitCount, uncommittedPaths };
      }
      // Its commits brought home (objects only: until the merge lands or the branch is kept, the private git dir
      // still holds the work) while what it left uncommitted is still being asked; that answer is awaited last,
      // before the worktree goes.
      const imported = await importWorktreeCommits(wt, git, { branch: false }).catch((err: unknown) =>
        toMemoryError(err),
      );
      if (imported instanceof MemoryError) {
        const uncommittedPaths = await uncommitted;
        await discardWorktree(wt, git);
        return {
          ...base,
          status: 'discarded',
          reason: 'import_failed',
          commitCount: 0,
          uncommittedPaths,
          error: imported.message,
        };
      }
      const { tip, commitCount } = imported;
      if (commitCount === 0) {
        const uncommittedPaths = await uncommitted;
        await removeWorktreeDir(wt, git);
        return { ...base, status: 'no_changes', commitCount, uncommittedPaths };
      }
      const outcome = await mergeImported(wt, imported, o, deps).catch(async (err: unknown) => {
        // An infrastructure failure: the work stays on its branch (or, failing that, in the worktree for prune).
        await uncommitted;
        await keepBranch(wt, tip, git).catch(() => undefined);
        throw err;
      });
      return settled(wt, git, outcome, { ...base, commitCount, uncommittedPaths: await uncommitted, branchTip: tip });
    },
    { purpose: `merge ${wt.branchName}`, ...deps.lease },
  );
}

interface Kept {
  type: 'update';
  branchName: string;
  refreshError?: string;
  commitCount: number;
  uncommittedPaths: string[];
  branchTip: string;
}

/** The merge's answer as the worker's outcome: merged (the worktree removed), else its branch kept and why. */
async function settled(
  wt: MemoryWorktree,
  git: GitRunner,
  outcome: MergeStep,
  kept: Kept,
): Promise<MemoryWorkerOutcome> {
  const landed = outcome.status === 'merged' || outcome.status === 'already_merged';
  if (landed) await removeWorktreeDir(wt, git);
  else await keepBranch(wt, kept.branchTip, git);
  if (landed) {
    const { branchTip: _tip, commitCount, uncommittedPaths, ...base } = kept;
    return { ...base, status: 'merged', commitCount, uncommittedPaths, head: outcome.head };
  }
  if (outcome.status === 'stale') {
    const { error } = outcome;
    const conflictingPaths = Array.isArray(error.data['paths']) ? error.data['paths'].map(String) : [];
    return {
      ...kept,
      status: 'merge_conflict',
      conflictingPaths,
      conflictReason: 'remote',
      refreshError: error.message,
    };
  }
  if (outcome.status === 'conflict')
    return {
      ...kept,
      status: 'merge_conflict',
      conflictingPaths: outcome.conflictingPaths,
      conflictReason: outcome.reason,
    };
  return { ...kept, status: 'rejected', problems: outcome.problems, rejectedPaths: outcome.rejectedPaths };
}

type MergeStep = CheckoutMergeResult | { status: 'stale'; error: MemoryError };

/** The parent's refresh, then the merge of the imported tip (which descends from the worktree's base). */
async function mergeImported(
  wt: MemoryWorktree,
  imported: { tip: string; tipTree?: string; blobs?: ReadonlyMap<string, Buffer> },
  o: { description?: string; refresh?: ParentRefresh },
  deps: MemoryWorkerDeps,
): Promise<MergeStep> {
  const stale = await o.refresh?.apply().then(
    () => undefined,
    (err: unknown) => toMemoryError(err),
  );
  if (stale) return { status: 'stale', error: stale };
  const message = workerMergeMessage(wt.branchName, o.description);
  return mergeIntoCheckout({
    memoryDir: wt.parentMemoryDir,
    branch: imported.tip,
    message,
    git: deps.git,
    home: deps.home,
    tipDescendsFrom: wt.baseHead,
    tipTree: imported.tipTree,
    knownBlobs: imported.blobs,
    identity: deps.identity,
  });
}

/** Names the work with its branch, then drops the worktree; if the branch cannot be written, the worktree stays for prune. */
async function keepBranch(wt: MemoryWorktree, tip: string, git: MemoryWorkerDeps['git']): Promise<void> {
  await keepWorkBranch(git, wt.parentMemoryDir, wt.branchName, tip);
  await removeWorktreeDir(wt, git);
}
