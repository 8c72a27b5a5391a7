/**
 * Narrows what a confined background writer sees to what it needs: its own worktree and private git dir
 * (writable) and the common `.git` (read-only: config, hooks, refs and the shared object store its
 * alternates point to). The primary checkout's files and the other worktrees are not visible at all. The
 * writer commits on a detached HEAD into its private object directory, and the harness imports its work
 * afterwards (import.ts), so it cannot move `main`, change what an existing object reads as, or touch
 * another writer's branch or files.
 */
import { realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isWithin, type SandboxPolicy } from '../sandbox/policy.js';
import { PRIVATE_GITDIRS, worktreeGitDirs } from './git-env.js';

/** What {@link pinCommonGitDir} needs to know about the worker. */
export interface PinTarget {
  memoryDir: string;
  /** The worker's worktree: it and its private git dir stay writable. Absent: nothing of the repository is writable. */
  worktreeDir?: string;
  /** The worktrees directory (default `<memoryDir>/../memory-worktrees`): read-only but for the worker's own. */
  worktreesDir?: string;
  /** Ignored: the worker needs no writable ref (kept so older callers still type-check). */
  branchName?: string;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The worker's private git dir, when its `.git` link names one of ours (checked before the worker runs). */
function ownPrivateGitDir(memoryDir: string, worktreeDir: string | undefined): string | null {
  if (worktreeDir === undefined) return null;
  const common = real(join(memoryDir, '.git'));
  try {
    const { gitDir } = worktreeGitDirs({ parentMemoryDir: memoryDir, worktreeDir, gitCommonDir: common });
    const root = join(common, PRIVATE_GITDIRS);
    return isWithin(root, gitDir) && gitDir !== root ? gitDir : null;
  } catch {
    return null;
  }
}

/**
 * Returns `policy` with the common git dir re-opened read-only, the primary checkout and the worktrees
 * directory no longer visible, and only the worker's own worktree and private git dir (HEAD, index,
 * objects) writable.
 * @example pinCommonGitDir(policy, { memoryDir, worktreeDir })
 */
export function pinCommonGitDir(policy: SandboxPolicy, t: PinTarget): SandboxPolicy {
  const memoryDir = resolve(t.memoryDir);
  const worktreesDir = resolve(t.worktreesDir ?? join(dirname(memoryDir), 'memory-worktrees'));
  const own = ownPrivateGitDir(memoryDir, t.worktreeDir);
  const unseen = new Set([memoryDir, worktreesDir]);
  // Later entries for the same path win (normalizePolicy): these turn the writer policy's writable .git read-only.
  const extra = [
    { path: join(memoryDir, '.git'), writable: false },
    ...(t.worktreeDir !== undefined ? [{ path: resolve(t.worktreeDir), writable: true }] : []),
    ...(own !== null ? [{ path: own, writable: true }] : []),
  ];
  return { ...policy, reopenedRoots: [...policy.reopenedRoots.filter((r) => !unseen.has(resolve(r.path))), ...extra] };
}
