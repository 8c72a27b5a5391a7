/**
 * Finds a repository's common git dir (the one every linked worktree shares) by reading `.git` files, without
 * spawning git: the operation lease sits on every write and must cost about a millisecond.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';

const cache = new Map<string, string>();

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The common dir of a git dir: itself, or what its `commondir` file names (linked worktrees). */
function commonOf(gitDir: string): string {
  const pointer = join(gitDir, 'commondir');
  if (!isFile(pointer)) return gitDir;
  return resolve(gitDir, readFileSync(pointer, 'utf8').trim());
}

/**
 * The git dir a worktree root points at (`.git` itself, the target of a `.git` file, or a bare repo), or null.
 * @example gitDirAt('/mem') === '/mem/.git'
 */
export function gitDirAt(dir: string): string | null {
  const dotGit = join(dir, '.git');
  if (isDir(dotGit)) return dotGit;
  if (isFile(dotGit)) {
    const match = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (match?.[1]) return resolve(dir, match[1].trim());
  }
  if (isFile(join(dir, 'HEAD')) && isDir(join(dir, 'objects'))) return dir; // a bare repository
  return null;
}

/**
 * Real path of the common git dir for `repoDir` (a worktree root, a subdirectory of one, or a bare repo).
 * Cached per input path (a repository replaced at the same path keeps its answer: the process restarts first).
 * @example resolveGitCommonDir('/home/me/.gitmem/agents/a1/memory-worktrees/worker-x') // → …/a1/memory/.git
 */
export function resolveGitCommonDir(repoDir: string): string {
  const key = resolve(repoDir);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  for (let dir = key; ; dir = dirname(dir)) {
    const gitDir = gitDirAt(dir);
    if (gitDir !== null) {
      const common = realpathSync(commonOf(gitDir));
      cache.set(key, common);
      return common;
    }
    if (dirname(dir) === dir) break;
  }
  throw new MemoryError('NOT_A_GIT_REPO', `${key} is not inside a git repository`, { data: { repoDir: key } });
}

/** A repository's own git dir (its index, HEAD, the journal) and the common dir (objects, refs, the lease). */
export interface GitDirs {
  gitDir: string;
  commonDir: string;
}

/**
 * Both git dirs of the worktree at `repoDir`, found once (a handle does it when it opens, then passes them down
 * every write) instead of by each step. `gitDir` falls back to `<repoDir>/.git`, as the write path always did.
 * @example gitDirsOf('/mem') // { gitDir: '/mem/.git', commonDir: '/mem/.git' }
 */
export function gitDirsOf(repoDir: string): GitDirs {
  return { gitDir: gitDirAt(repoDir) ?? join(repoDir, '.git'), commonDir: resolveGitCommonDir(repoDir) };
}
