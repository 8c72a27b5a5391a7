/**
 * Removing a private worktree: the directory and its private git dir (with the objects of work that was not
 * imported) always go, and the branch is deleted only when the caller says so (a conflicting worker branch is
 * kept for `gitmem conflicts`).
 */
import { rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { isWithin } from '../sandbox/policy.js';
import type { MemoryWorktree } from './create.js';
import { PRIVATE_GITDIRS, privateGitDirFor, worktreeGitDirs } from './git-env.js';

type WorktreeRef = Pick<MemoryWorktree, 'parentMemoryDir' | 'worktreeDir' | 'branchName'> & Partial<Pick<MemoryWorktree, 'gitDir' | 'gitCommonDir'>>;

/** The worktree's private git dir when it is one of ours (`<common>/gitmem-worktrees/<name>`), else null. */
function ownPrivateGitDir(wt: WorktreeRef): string | null {
  try {
    const common = wt.gitCommonDir || resolveGitCommonDir(wt.parentMemoryDir);
    let dir = wt.gitDir || null;
    if (dir === null && existsSync(wt.worktreeDir)) dir = worktreeGitDirs({ ...wt, gitCommonDir: common }).gitDir;
    dir ??= privateGitDirFor(common, wt.worktreeDir);
    const root = join(common, PRIVATE_GITDIRS);
    return isWithin(root, dir) && dir !== root ? dir : null;
  } catch {
    return null; // a link that names no git dir of ours: `git worktree prune` below settles git's own records
  }
}

/**
 * Deletes the worktree directory and its private git dir (for a worktree made by an older version, git's
 * record of it is pruned instead). The branch is left alone.
 * @example await removeWorktreeDir(wt, git)
 */
export async function removeWorktreeDir(wt: WorktreeRef, git: GitRunner): Promise<void> {
  const gitDir = ownPrivateGitDir(wt);
  await rm(wt.worktreeDir, { recursive: true, force: true, maxRetries: 3 });
  if (gitDir !== null) await rm(gitDir, { recursive: true, force: true, maxRetries: 3 });
  else await git.run(['worktree', 'prune'], { cwd: wt.parentMemoryDir });
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
 * Throws the worktree away entirely: directory, private git dir and branch (cancellation, failure, nothing to keep).
 * @example await discardWorktree(wt, git)
 */
export async function discardWorktree(wt: WorktreeRef, git: GitRunner): Promise<void> {
  await removeWorktreeDir(wt, git);
  await deleteBranch(git, wt.parentMemoryDir, wt.branchName);
}
