/**
 * Where a private worktree's git state lives, and the environments git runs with there. The worktree's git
 * dir (HEAD, index, sparse patterns and a PRIVATE object directory) sits in `<common>/gitmem-worktrees/<name>`,
 * outside `git worktree`'s registry, so the primary's fetch and gc never walk commits that were not imported
 * yet. The writer only gets the object variables; the harness names every location itself and never follows
 * a file the writer could have rewritten (its `commondir`, `gitdir`, config pointers).
 */
import { closeSync, fstatSync, lstatSync, openSync, readSync, constants as fsConstants } from 'node:fs';
import { basename, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { withGitConfig } from '../git/config-env.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { isWithin } from '../sandbox/policy.js';

/** Folder of the common git dir that holds the private git dirs of background writers. */
export const PRIVATE_GITDIRS = 'gitmem-worktrees';

/** The three directories that define a private worktree for git. */
export interface WorktreeGitDirs {
  worktreeDir: string;
  /** `<common>/gitmem-worktrees/<name>`: HEAD, index, `info/sparse-checkout`, `objects/`. */
  gitDir: string;
  /** The shared (real-path) common git dir of the memory repository. */
  gitCommonDir: string;
}

/** What a handle may carry; the missing parts are derived from trusted places only. */
export interface WorktreeHandleDirs {
  parentMemoryDir: string;
  worktreeDir: string;
  gitDir?: string;
  gitCommonDir?: string;
}

/**
 * One entry of GIT_ALTERNATE_OBJECT_DIRECTORIES, C-quoted when it contains the list separator or a quote.
 * @example alternateEntry('/a:b') === '"/a:b"'
 */
export function alternateEntry(path: string): string {
  return /[:"\\]/.test(path) ? `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"` : path;
}

/**
 * The variables a body's (or a confined command's) git needs: new objects go to the private directory, reads
 * fall back to the shared store (which the sandbox keeps read-only).
 * @example workerObjectEnv({ gitDir, gitCommonDir }).GIT_OBJECT_DIRECTORY === `${gitDir}/objects`
 */
export function workerObjectEnv(d: Pick<WorktreeGitDirs, 'gitDir' | 'gitCommonDir'>): Record<string, string> {
  return {
    GIT_OBJECT_DIRECTORY: join(d.gitDir, 'objects'),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: alternateEntry(join(d.gitCommonDir, 'objects')),
  };
}

/**
 * What a body's git runs with: the object directories, and no `git maintenance run --auto` after each
 * commit (a process per commit, packing a private store that is imported and dropped anyway). Config by
 * environment, so nothing is written to the shared config; a body may still set its own.
 * @example bodyGitEnv({ gitDir, gitCommonDir }).GIT_CONFIG_KEY_0 === 'maintenance.auto'
 */
export function bodyGitEnv(
  d: Pick<WorktreeGitDirs, 'gitDir' | 'gitCommonDir'>,
  config: ReadonlyArray<readonly [string, string]> = [],
): Record<string, string> {
  return withGitConfig(workerObjectEnv(d), [['maintenance.auto', 'false'], ['core.preloadIndex', 'false'], ...config]);
}

/**
 * The harness's own view of the worktree: git dir, common dir and work tree stated explicitly, so a rewritten
 * `commondir` (pointing at a repository whose config runs a command) is never followed.
 * @example await git.run(['status', '--porcelain'], { cwd: d.worktreeDir, env: harnessWorktreeEnv(d) })
 */
export function harnessWorktreeEnv(d: WorktreeGitDirs): Record<string, string> {
  return { GIT_DIR: d.gitDir, GIT_COMMON_DIR: d.gitCommonDir, GIT_WORK_TREE: d.worktreeDir, ...workerObjectEnv(d) };
}

/**
 * The git dir a worktree's `.git` link names (the sandbox pins that file read-only), accepted only inside
 * `<common>/gitmem-worktrees/` or git's own `<common>/worktrees/` (worktrees of older versions); without a
 * link, the private git dir named after the worktree.
 */
function linkedGitDir(worktreeDir: string, common: string): string {
  const text = readSmallFile(join(worktreeDir, '.git'), 4096);
  if (text === null) return privateGitDirFor(common, worktreeDir); // the directory is gone: its git dir is named after it
  const target = /^gitdir:\s*(.+)$/m.exec(text ?? '')?.[1]?.trim() ?? '';
  const ok = [PRIVATE_GITDIRS, 'worktrees'].some(
    (f) => isWithin(join(common, f), target) && target !== join(common, f),
  );
  if (!ok) {
    throw new MemoryError('WORKTREE_ERROR', `${worktreeDir}/.git does not name a private git dir of this memory`, {
      data: { worktreeDir },
    });
  }
  return target;
}

/**
 * Fills in a handle's git dirs: the common dir from the primary checkout, the private git dir from the handle
 * or from the worktree's pinned `.git` link.
 * @example worktreeGitDirs({ parentMemoryDir, worktreeDir }).gitDir // …/.git/gitmem-worktrees/worker-…
 */
export function worktreeGitDirs(wt: WorktreeHandleDirs): WorktreeGitDirs {
  const gitCommonDir = wt.gitCommonDir || resolveGitCommonDir(wt.parentMemoryDir);
  const gitDir = wt.gitDir || linkedGitDir(wt.worktreeDir, gitCommonDir);
  return { worktreeDir: wt.worktreeDir, gitDir, gitCommonDir };
}

/**
 * The private git dir a new worktree directory gets.
 * @example privateGitDirFor('/m/.git', '/m-wt/worker-x') === '/m/.git/gitmem-worktrees/worker-x'
 */
export function privateGitDirFor(gitCommonDir: string, worktreeDir: string): string {
  return join(gitCommonDir, PRIVATE_GITDIRS, basename(worktreeDir));
}

/**
 * Contents of a regular file of at most `max` bytes, or null (missing, a symlink, a FIFO, too big). Never
 * blocks: files a confined writer could have planted are opened non-blocking and checked before reading.
 * @example readSmallFile(join(gitDir, 'HEAD'), 256)
 */
export function readSmallFile(path: string, max: number): string | null {
  try {
    if (!lstatSync(path).isFile()) return null;
    const fd = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK | (fsConstants.O_NOFOLLOW ?? 0));
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > max) return null;
      const buf = Buffer.alloc(st.size);
      const n = readSync(fd, buf, 0, st.size, 0);
      return buf.subarray(0, n).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The commit a worktree's detached HEAD names: a 40- (or 64-) hex id and nothing else, else WORKTREE_ERROR.
 * @example readDetachedHead(wt.gitDir) // 'e6a8099…'
 */
export function readDetachedHead(gitDir: string): string {
  const text = readSmallFile(join(gitDir, 'HEAD'), 256);
  const id = text?.trim() ?? '';
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(id)) {
    const why = text === null ? 'is missing or not a regular file' : 'is not a detached commit id';
    throw new MemoryError('WORKTREE_ERROR', `the worktree's HEAD (${join(gitDir, 'HEAD')}) ${why}`, {
      data: { gitDir },
    });
  }
  return id;
}
