/**
 * Brings a finished update worker's work home, inside the operation lease: import its
 * commits from the private object directory (re-hashed, ancestry checked, branch created), remove the
 * worktree, merge as `merge(memory): <branch>`, and on conflict keep the branch and report it instead of
 * guessing; a merge result that breaks the memory rules is `rejected` and its branch kept too. Work that
 * cannot be imported is discarded with the reason.
 */
import { withMemoryOperation } from '../git/lease.js';
import { toMemoryError } from '../errors.js';
import type { MemoryWorktree } from './create.js';
import { deleteBranch, discardWorktree, removeWorktreeDir } from './cleanup.js';
import { importWorktreeCommits } from './import.js';
import { countWorktreeCommits, worktreeDirtyPaths } from './inspect.js';
import { mergeIntoCheckout } from './merge.js';
import type { MemoryWorkerDeps, MemoryWorkerOutcome, ParentRefresh } from './worker-types.js';

/**
 * Merge message of a worker branch; the task description, when given, goes in the body.
 * @example workerMergeMessage('gitmem/worker/x', 'tidy prefs') === 'merge(memory): gitmem/worker/x\n\nTask: tidy prefs'
 */
export function workerMergeMessage(branch: string, description?: string): string {
  const task = description?.trim();
  return task ? `merge(memory): ${branch}\n\nTask: ${task}` : `merge(memory): ${branch}`;
}

/**
 * Integrates (or, when `signal` fired meanwhile, discards) a finished worker's worktree. Holds the lease
 * for the whole step, so nothing else writes between the import and the merge.
 * @example await integrateWorkerWorktree(wt, { description, signal }, deps)
 */
export async function integrateWorkerWorktree(
  wt: MemoryWorktree,
  o: { description?: string; signal?: AbortSignal; refresh?: ParentRefresh },
  deps: MemoryWorkerDeps,
): Promise<MemoryWorkerOutcome> {
  const { git } = deps;
  const base = { type: 'update' as const, branchName: wt.branchName, ...(o.refresh?.skipped ? { refreshError: o.refresh.skipped } : {}) };
  return withMemoryOperation(
    wt.parentMemoryDir,
    async (): Promise<MemoryWorkerOutcome> => {
      const uncommittedPaths = await worktreeDirtyPaths(git, wt).catch(() => []);
      if (o.signal?.aborted) {
        const commitCount = await countWorktreeCommits(git, wt);
        await discardWorktree(wt, git);
        return { ...base, status: 'discarded', reason: 'cancelled', commitCount, uncommittedPaths };
      }
      let imported;
      try {
        imported = await importWorktreeCommits(wt, git);
      } catch (err) {
        await discardWorktree(wt, git);
        return { ...base, status: 'discarded', reason: 'import_failed', commitCount: 0, uncommittedPaths, error: toMemoryError(err).message };
      }
      const { tip, commitCount } = imported;
      await removeWorktreeDir(wt, git);
      if (commitCount === 0) {
        if (imported.branchCreated) await deleteBranch(git, wt.parentMemoryDir, wt.branchName);
        return { ...base, status: 'no_changes', commitCount, uncommittedPaths };
      }
      const stale = await o.refresh?.apply().then(() => undefined, (err: unknown) => toMemoryError(err));
      if (stale) {
        const conflictingPaths = Array.isArray(stale.data['paths']) ? stale.data['paths'].map(String) : [];
        return { ...base, status: 'merge_conflict', commitCount, uncommittedPaths, conflictingPaths, conflictReason: 'remote', branchTip: tip, refreshError: stale.message };
      }
      const message = workerMergeMessage(wt.branchName, o.description);
      const r = await mergeIntoCheckout({ memoryDir: wt.parentMemoryDir, branch: tip, message, git, ...(deps.identity ? { identity: deps.identity } : {}) });
      if (r.status === 'conflict') {
        return { ...base, status: 'merge_conflict', commitCount, uncommittedPaths, conflictingPaths: r.conflictingPaths, conflictReason: r.reason, branchTip: tip };
      }
      if (r.status === 'rejected') {
        return { ...base, status: 'rejected', commitCount, uncommittedPaths, problems: r.problems, rejectedPaths: r.rejectedPaths, branchTip: tip };
      }
      await deleteBranch(git, wt.parentMemoryDir, wt.branchName, tip);
      return { ...base, status: 'merged', commitCount, uncommittedPaths, head: r.head };
    },
    { purpose: `merge ${wt.branchName}`, ...deps.lease },
  );
}
