/**
 * Narrows a background writer's writable common `.git` to what a commit on its own branch needs, so a
 * confined worker cannot move `main` (or make `main` read differently) behind the harness's back.
 */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { isWithin, type SandboxPolicy } from '../sandbox/policy.js';
import { privateGitDir } from './create.js';

/** Entries of the common git dir that become read-only for a worker (when they exist). */
export const PINNED_COMMON_ENTRIES: readonly string[] = ['refs', 'logs', 'info', 'worktrees', 'HEAD', 'index', 'packed-refs', 'shallow', 'ORIG_HEAD', 'FETCH_HEAD'];

/** What {@link pinCommonGitDir} needs to know about the worker. */
export interface PinTarget {
  memoryDir: string;
  /** `gitmem/<kind>/<id>`: its ref folder and reflog folder stay writable. */
  branchName: string;
  /** The worker's worktree: its private git dir (`.git/worktrees/<name>`, index and HEAD) stays writable. */
  worktreeDir?: string;
}

/**
 * Makes the entries an attacker could use pinnable. An absent `packed-refs` could otherwise be CREATED by the
 * worker (for example with a `refs/replace/<main>` entry, which changes what `main` reads as without moving
 * it); an empty file means the same to git. An absent `info/` would let it add `info/grafts`.
 */
function ensurePinnable(gitDir: string): void {
  try {
    closeSync(openSync(join(gitDir, 'packed-refs'), 'wx'));
  } catch {
    // it exists already (or the repository is gone, which the sandbox preflight reports)
  }
  if (existsSync(gitDir)) mkdirSync(join(gitDir, 'info'), { recursive: true });
}

function ownPrivateGitDir(gitDir: string, worktreeDir: string | undefined): string | null {
  if (worktreeDir === undefined || !existsSync(join(worktreeDir, '.git'))) return null;
  const dir = privateGitDir(worktreeDir);
  return isWithin(join(gitDir, 'worktrees'), dir) && dir !== join(gitDir, 'worktrees') ? dir : null;
}

/**
 * Returns `policy` with the refs, reflogs, `info/`, other worktrees' git dirs and the parent's HEAD, index
 * and packed refs re-opened read-only; only the worker's own branch folder, its reflog folder and its
 * private git dir stay writable. Objects stay writable (commits need them).
 * @example pinCommonGitDir(policy, { memoryDir, branchName: 'gitmem/worker/20250102030405-abcdef12', worktreeDir })
 */
export function pinCommonGitDir(policy: SandboxPolicy, t: PinTarget): SandboxPolicy {
  const gitDir = join(t.memoryDir, '.git');
  ensurePinnable(gitDir);
  const folder = t.branchName.split('/').slice(0, -1);
  const own = ownPrivateGitDir(gitDir, t.worktreeDir);
  const writable = [join(gitDir, 'refs', 'heads', ...folder), join(gitDir, 'logs', 'refs', 'heads', ...folder), ...(own ? [own] : [])];
  const pinned = PINNED_COMMON_ENTRIES.map((n) => join(gitDir, n)).filter((p) => existsSync(p));
  const extra = [
    ...pinned.map((path) => ({ path, writable: false })),
    ...writable.filter((p) => existsSync(p)).map((path) => ({ path, writable: true })),
  ];
  return { ...policy, reopenedRoots: [...policy.reopenedRoots, ...extra] };
}
