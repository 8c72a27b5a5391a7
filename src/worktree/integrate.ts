/**
 * Brings a finished update worker's branch home (seed 003, W4–W5), inside the operation lease: remove the
 * worktree, keep the branch until the merge succeeds, merge as `merge(memory): <branch>`, and on conflict
 * keep the branch and report it instead of guessing.
 */
import { withMemoryOperation } from '../git/lease.js';
import type { MemoryWorktree } from './create.js';
import { deleteBranch, discardWorktree, removeWorktreeDir } from './cleanup.js';
import { countCommits, dirtyPaths, resolveCommit } from './inspect.js';
import { mergeIntoCheckout } from './merge.js';
import type { MemoryWorkerDeps, MemoryWorkerOutcome } from './worker-types.js';

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
 * for the whole step, so nothing else writes between the commit count and the merge.
 * @example await integrateWorkerWorktree(wt, { description, signal }, deps)
 */
export async function integrateWorkerWorktree(
  wt: MemoryWorktree,
  o: { description?: string; signal?: AbortSignal },
  deps: MemoryWorkerDeps,
): Promise<MemoryWorkerOutcome> {
  const { git } = deps;
  const base = { type: 'update' as const, branchName: wt.branchName };
  return withMemoryOperation(
    wt.parentMemoryDir,
    async (): Promise<MemoryWorkerOutcome> => {
      const uncommittedPaths = await dirtyPaths(git, wt.worktreeDir).catch(() => []);
      const tip = (await resolveCommit(git, wt.parentMemoryDir, `refs/heads/${wt.branchName}`)) ?? wt.baseHead;
      const commitCount = await countCommits(git, wt.parentMemoryDir, wt.baseHead, tip);
      if (o.signal?.aborted) {
        await discardWorktree(wt, git);
        return { ...base, status: 'discarded', reason: 'cancelled', commitCount, uncommittedPaths };
      }
      await removeWorktreeDir(wt, git);
      if (commitCount === 0) {
        await deleteBranch(git, wt.parentMemoryDir, wt.branchName);
        return { ...base, status: 'no_changes', commitCount, uncommittedPaths };
      }
      const message = workerMergeMessage(wt.branchName, o.description);
      const r = await mergeIntoCheckout({ memoryDir: wt.parentMemoryDir, branch: tip, message, git, ...(deps.identity ? { identity: deps.identity } : {}) });
      if (r.status === 'conflict') {
        return { ...base, status: 'merge_conflict', commitCount, uncommittedPaths, conflictingPaths: r.conflictingPaths, conflictReason: r.reason, branchTip: tip };
      }
      await deleteBranch(git, wt.parentMemoryDir, wt.branchName, tip);
      return { ...base, status: 'merged', commitCount, uncommittedPaths, head: r.head };
    },
    { purpose: `merge ${wt.branchName}`, ...deps.lease },
  );
}
