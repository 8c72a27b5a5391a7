/**
 * Small read-only git questions the worktree layer asks (commit counts, dirty paths, branch tips,
 * ancestry). Each is one git call through the runner.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { statusOp, type RepoStatus } from '../git/commands/status.js';
import type { GitRunner } from '../git/runner.js';
import {
  harnessWorktreeEnv,
  readDetachedHead,
  workerObjectEnv,
  worktreeGitDirs,
  type WorktreeHandleDirs,
} from './git-env.js';

/**
 * Splits NUL-separated git output into non-empty fields.
 * @example splitNul('a\0b\0') // ['a', 'b']
 */
export function splitNul(text: string): string[] {
  return text.split('\0').filter((s) => s !== '');
}

/**
 * Every path a status names (renames contribute both names), de-duplicated. Pure.
 * @example dirtyPathsOf(parseStatusV2('? b.md\0')) // ['b.md']
 */
export function dirtyPathsOf(status: RepoStatus): string[] {
  return [...new Set(status.entries.flatMap((e) => (e.origPath ? [e.path, e.origPath] : [e.path])))];
}

/**
 * Uncommitted paths of the checkout at `cwd` (optionally limited to `paths`), untracked files included.
 * `env` states the git dirs explicitly (a private worktree: see {@link worktreeDirtyPaths}).
 * @example await dirtyPaths(git, memoryDir) // [] when clean
 */
export async function dirtyPaths(
  git: GitRunner,
  cwd: string,
  paths?: readonly string[],
  env?: Record<string, string>,
): Promise<string[]> {
  if (paths !== undefined && paths.length === 0) return [];
  // Paths only: renames name the same paths either way, and ahead/behind is not asked.
  const status = statusOp('all', false);
  const args = ['--literal-pathspecs', ...status.args];
  const narrow = paths !== undefined && paths.length <= 500; // keep argv small; filter afterwards instead
  if (narrow) args.push('--', ...paths);
  const all = dirtyPathsOf(await git.exec({ ...status, args }, { cwd, env }));
  if (paths === undefined || narrow) return all;
  const wanted = new Set(paths);
  return all.filter((p) => wanted.has(p));
}

/**
 * Commit id `rev` points at in `cwd`, or null when it does not exist.
 * @example await resolveCommit(git, dir, 'refs/heads/gitmem/worker/x')
 */
export async function resolveCommit(git: GitRunner, cwd: string, rev: string): Promise<string | null> {
  const r = await git.run(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd, okExitCodes: [1, 128] });
  const sha = r.stdout.trim();
  return r.exitCode === 0 && sha !== '' ? sha : null;
}

/**
 * Number of commits reachable from `tip` but not from `base`.
 * @example await countCommits(git, dir, baseHead, 'HEAD') // 2
 */
export async function countCommits(git: GitRunner, cwd: string, base: string, tip: string): Promise<number> {
  const r = await git.run(['rev-list', '--count', `${base}..${tip}`], { cwd });
  return Number.parseInt(r.stdout.trim(), 10) || 0;
}

/**
 * True when `ancestor` is reachable from `descendant` (a branch already merged into HEAD, for example).
 * @example await isAncestor(git, memoryDir, branchTip, 'HEAD')
 */
export async function isAncestor(git: GitRunner, cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const r = await git.run(['merge-base', '--is-ancestor', ancestor, descendant], { cwd, okExitCodes: [1] });
  return r.exitCode === 0;
}

/**
 * Subject line of a commit.
 * @example await commitSubject(git, dir, 'HEAD') // 'feat: remember the office days'
 */
export async function commitSubject(git: GitRunner, cwd: string, rev: string): Promise<string> {
  const r = await git.run(['log', '-1', '--format=%s', rev], { cwd });
  return r.stdout.trim();
}

/**
 * Uncommitted paths of a private worktree, asked with the harness's explicit git dirs (never through the
 * worktree's own, writer-writable pointers), after dropping any per-worktree config the writer planted.
 * @example await worktreeDirtyPaths(git, wt) // ['system/draft.md']
 */
export async function worktreeDirtyPaths(git: GitRunner, wt: WorktreeHandleDirs): Promise<string[]> {
  const dirs = worktreeGitDirs(wt);
  // The one config file git reads from a worktree's own git dir (when the repository enables worktreeConfig).
  rmSync(join(dirs.gitDir, 'config.worktree'), { force: true, recursive: true });
  // GIT_OPTIONAL_LOCKS=0: the status does not store its refresh in an index that is about to go with the worktree.
  return dirtyPaths(git, wt.worktreeDir, undefined, { ...harnessWorktreeEnv(dirs), GIT_OPTIONAL_LOCKS: '0' });
}

/**
 * Commits a private worktree made on top of `baseHead` (read from its detached HEAD and its private objects,
 * nothing imported); 0 when that cannot be told. For reports on work that is being thrown away.
 * @example await countWorktreeCommits(git, wt) // 1
 */
export async function countWorktreeCommits(
  git: GitRunner,
  wt: WorktreeHandleDirs & { baseHead: string },
): Promise<number> {
  try {
    const dirs = worktreeGitDirs(wt);
    const tip = readDetachedHead(dirs.gitDir);
    if (tip === wt.baseHead) return 0;
    const env = { GIT_DIR: dirs.gitCommonDir, ...workerObjectEnv(dirs) };
    const r = await git.run(['rev-list', '--count', `${wt.baseHead}..${tip}`], { cwd: wt.parentMemoryDir, env });
    return Number.parseInt(r.stdout.trim(), 10) || 0;
  } catch {
    return 0;
  }
}
