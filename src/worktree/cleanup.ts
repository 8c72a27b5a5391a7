/**
 * Removing a private worktree: the directory always goes, the worktree record is pruned, and the branch is
 * deleted only when the caller says so (a conflicting worker branch is kept for `gitmem conflicts`).
 */
import { rm } from 'node:fs/promises';
import type { GitRunner } from '../git/runner.js';
import type { MemoryWorktree } from './create.js';

type WorktreeRef = Pick<MemoryWorktree, 'parentMemoryDir' | 'worktreeDir' | 'branchName'>;

/**
 * Deletes the worktree directory and prunes git's record of it. The branch is left alone.
 * @example await removeWorktreeDir(wt, git)
 */
export async function removeWorktreeDir(wt: WorktreeRef, git: GitRunner): Promise<void> {
  await rm(wt.worktreeDir, { recursive: true, force: true, maxRetries: 3 });
  await git.run(['worktree', 'prune'], { cwd: wt.parentMemoryDir });
}

/**
 * Deletes `refs/heads/<branch>`; with `expectedTip`, only if it still points there (never someone's new work).
 * @example await deleteBranch(git, memoryDir, 'gitmem/worker/20250102030405-abcdef12')
 */
export async function deleteBranch(git: GitRunner, memoryDir: string, branch: string, expectedTip?: string): Promise<void> {
  const args = ['update-ref', '-d', `refs/heads/${branch}`];
  if (expectedTip !== undefined) args.push(expectedTip);
  await git.run(args, { cwd: memoryDir }); // deleting a branch that does not exist (no expected tip) is a no-op
}

/**
 * Throws the worktree away entirely: directory, record and branch (cancellation, failure, nothing to keep).
 * @example await discardWorktree(wt, git)
 */
export async function discardWorktree(wt: WorktreeRef, git: GitRunner): Promise<void> {
  await removeWorktreeDir(wt, git);
  await deleteBranch(git, wt.parentMemoryDir, wt.branchName);
}
