/**
 * Removing a private worktree: the directory and its private git dir (with the objects of work that was not
 * imported) always go, and the branch is deleted only when the caller says so (a conflicting worker branch is
 * kept for `gitmem conflicts`).
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { isWithin } from '../sandbox/policy.js';
import { PRIVATE_GITDIRS, privateGitDirFor, worktreeGitDirs, type WorktreeHandleDirs } from './git-env.js';

/** The parts of a MemoryWorktree removal needs (built on git-env.ts's, so this file stays below create.ts). */
type WorktreeRef = WorktreeHandleDirs & { branchName: string };

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
  const trash = trashDirOf(wt);
  await dropTree(wt.worktreeDir, trash);
  if (gitDir !== null) await dropTree(gitDir, trash);
  else await git.run(['worktree', 'prune'], { cwd: wt.parentMemoryDir });
}

/** Folder of the common git dir where removed trees wait for their deletion (see {@link dropTree}). */
export const TRASH_DIR = 'gitmem-trash';

function trashDirOf(wt: WorktreeRef): string | null {
  try {
    return join(wt.gitCommonDir || resolveGitCommonDir(wt.parentMemoryDir), TRASH_DIR);
  } catch {
    return null;
  }
}

/**
 * Takes a tree away from its path at once (a rename into the trash folder: the name is free and no other step
 * sees it any more) and deletes it in the background, off the caller's critical path. A deletion cut short
 * (the process died) leaves an entry that prune deletes. Where a rename is impossible, deletes in place.
 */
async function dropTree(path: string, trashDir: string | null): Promise<void> {
  if (trashDir !== null) {
    const trash = join(trashDir, `${basename(path)}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(trashDir, { recursive: true });
      renameSync(path, trash);
      void rm(trash, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT' && !existsSync(path)) return;
    }
  }
  await rm(path, { recursive: true, force: true, maxRetries: 3 });
}

/**
 * Deletes `refs/heads/<branch>`; with `expectedTip`, only if it still points there (never someone's new work).
 * @example await deleteBranch(git, memoryDir, 'gitmem/worker/20250102030405-abcdef12')
 */
export async function deleteBranch(
  git: GitRunner,
  memoryDir: string,
  branch: string,
  expectedTip?: string,
): Promise<void> {
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
