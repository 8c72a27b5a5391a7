/**
 * One look at a memory repository's state for sync decisions, from a single `git status --porcelain=v2
 * --branch -z` plus a glance at the git dir for merge/rebase markers. Parsing is pure.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
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
 * Parses NUL-separated `git status --porcelain=v2 --branch -z` output.
 * @example parseStatusV2('# branch.oid (initial)\0# branch.head main\0').oid === null
 */
export function parseStatusV2(out: string): StatusSnapshot {
  const snap: StatusSnapshot = { oid: null, branch: null, upstream: null, ahead: null, behind: null, changed: [], unmerged: [] };
  const tokens = out.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] ?? '';
    if (t === '') continue;
    if (t.startsWith('# ')) {
      readHeader(snap, t.slice(2));
    } else if (t.startsWith('u ')) {
      snap.unmerged.push(fieldsAfter(t, 10));
    } else if (t.startsWith('1 ')) {
      snap.changed.push(fieldsAfter(t, 8));
    } else if (t.startsWith('2 ')) {
      snap.changed.push(fieldsAfter(t, 9));
      i++; // the original path of a rename follows as its own token
    } else if (t.startsWith('? ')) {
      snap.changed.push(t.slice(2));
    }
  }
  return snap;
}

function readHeader(snap: StatusSnapshot, header: string): void {
  const [key, ...rest] = header.split(' ');
  const value = rest.join(' ');
  if (key === 'branch.oid') snap.oid = value === '(initial)' ? null : value;
  else if (key === 'branch.head') snap.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') snap.upstream = value;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) [snap.ahead, snap.behind] = [Number(m[1]), Number(m[2])];
  }
}

/** The text after the first `n` space-separated fields (paths may contain spaces). */
function fieldsAfter(line: string, n: number): string {
  let idx = 0;
  for (let k = 0; k < n; k++) idx = line.indexOf(' ', idx) + 1;
  return line.slice(idx);
}

/**
 * The git directory of a work tree (`.git` itself, or the target of a `.git` file), or undefined.
 * @example gitDirOf('/mem') === '/mem/.git'
 */
export function gitDirOf(workTree: string): string | undefined {
  const dotGit = join(workTree, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    if (!m?.[1]) return undefined;
    const target = m[1].trim();
    return isAbsolute(target) ? target : resolve(workTree, target);
  } catch {
    return undefined;
  }
}

/**
 * Reads the repository state, or undefined when `memoryDir` is not a git work tree.
 * @example const s = await readRepoState(git, dir); if (s?.unmerged.length) ...
 */
export async function readRepoState(git: GitRunner, memoryDir: string, signal?: AbortSignal): Promise<RepoState | undefined> {
  const gitDir = gitDirOf(memoryDir);
  if (!gitDir) return undefined;
  const { stdout } = await git.run(['status', '--porcelain=v2', '--branch', '-z'], { cwd: memoryDir, ...(signal ? { signal } : {}) });
  return {
    ...parseStatusV2(stdout),
    gitDir,
    mergeInProgress: existsSync(join(gitDir, 'MERGE_HEAD')),
    rebaseInProgress: existsSync(join(gitDir, 'rebase-merge')) || existsSync(join(gitDir, 'rebase-apply')),
  };
}

/**
 * The conflict summary of SPEC §6.10 row 2, or undefined when the repo is not in a conflict state.
 * @example conflictSummary(state) === 'rebase in progress; conflicted file(s): a.md'
 */
export function conflictSummary(s: Pick<RepoState, 'mergeInProgress' | 'rebaseInProgress' | 'unmerged'>): string | undefined {
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
