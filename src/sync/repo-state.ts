/**
 * One look at a memory repository's state for sync decisions, from a single `git status --porcelain=v2
 * --branch -z` plus a glance at the git dir for merge/rebase markers. Parsing is pure.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { gitDirAt } from '../git/common-dir.js';
import { parseStatusV2 as parseStatus, READ_ONLY_STATUS_ENV } from '../git/commands/status.js';
import type { GitRunner } from '../git/runner.js';

/** What `git status --porcelain=v2 --branch` tells us. */
export interface StatusSnapshot {
  /** HEAD commit, or null on an unborn branch. */
  oid: string | null;
  /** Current branch, or null when HEAD is detached. */
  branch: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  /** Porcelain entries other than unmerged ones (tracked changes and untracked files). */
  changed: string[];
  /** Unmerged paths (any `u` entry: UU, AA, DD, AU, UA, DU, UD). */
  unmerged: string[];
}

export interface RepoState extends StatusSnapshot {
  gitDir: string;
  mergeInProgress: boolean;
  rebaseInProgress: boolean;
}

/**
 * The sync view of `git status --porcelain=v2 --branch -z` output (parsed by the git layer's one parser).
 * @example parseStatusV2('# branch.oid (initial)\0# branch.head main\0').oid === null
 */
export function parseStatusV2(out: string): StatusSnapshot {
  const s = parseStatus(out);
  return {
    oid: s.head,
    branch: s.branch,
    upstream: s.upstream,
    ahead: s.tracking ? s.ahead : null,
    behind: s.tracking ? s.behind : null,
    changed: s.entries.filter((e) => e.kind !== 'unmerged').map((e) => e.path),
    unmerged: s.entries.filter((e) => e.kind === 'unmerged').map((e) => e.path),
  };
}

/**
 * The git directory of a work tree (`.git` itself, or the target of a `.git` file), or undefined.
 * @example gitDirOf('/mem') === '/mem/.git'
 */
export function gitDirOf(workTree: string): string | undefined {
  return gitDirAt(workTree) ?? undefined;
}

/**
 * Reads the repository state, or undefined when `memoryDir` is not a git work tree.
 * @example const s = await readRepoState(git, dir); if (s?.unmerged.length) ...
 */
export async function readRepoState(
  git: GitRunner,
  memoryDir: string,
  signal?: AbortSignal,
): Promise<RepoState | undefined> {
  const gitDir = gitDirOf(memoryDir);
  if (!gitDir) return undefined;
  const env = { ...READ_ONLY_STATUS_ENV }; // outside the write lease
  const { stdout } = await git.run(['status', '--porcelain=v2', '--branch', '-z'], {
    cwd: memoryDir,
    env,
    signal,
  });
  return {
    ...parseStatusV2(stdout),
    gitDir,
    mergeInProgress: existsSync(join(gitDir, 'MERGE_HEAD')),
    rebaseInProgress: existsSync(join(gitDir, 'rebase-merge')) || existsSync(join(gitDir, 'rebase-apply')),
  };
}

/**
 * The one-line summary of a merge or rebase left in progress (what sync reports before anything else), or
 * undefined when the repo is not in a conflict state.
 * @example conflictSummary(state) === 'rebase in progress; conflicted file(s): a.md'
 */
export function conflictSummary(
  s: Pick<RepoState, 'mergeInProgress' | 'rebaseInProgress' | 'unmerged'>,
): string | undefined {
  const parts: string[] = [];
  if (s.mergeInProgress) parts.push('merge in progress');
  if (s.rebaseInProgress) parts.push('rebase in progress');
  if (s.unmerged.length > 0) parts.push(`conflicted file(s): ${listPaths(s.unmerged)}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** First ten paths, then ", and N more". */
export function listPaths(paths: readonly string[]): string {
  const head = paths.slice(0, 10).join(', ');
  return paths.length > 10 ? `${head}, and ${paths.length - 10} more` : head;
}
