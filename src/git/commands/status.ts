/**
 * `git status --porcelain=v2 --branch -z` as a value: the clean-for-write check and HEAD in one spawn.
 */
import type { GitOp } from '../runner.js';

export interface StatusEntry {
  /** Two-letter XY code ('??' for untracked, 'UU' etc. for unmerged). */
  code: string;
  kind: 'changed' | 'renamed' | 'unmerged' | 'untracked';
  path: string;
  origPath?: string;
}

export interface RepoStatus {
  /** HEAD commit, or null before the first commit. */
  head: string | null;
  /** Current branch, or null when detached. */
  branch: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
  /** True when git reported ahead/behind (an upstream exists and was resolvable). */
  tracking: boolean;
  entries: StatusEntry[];
}

/** Parses porcelain v2 (-z) output. Pure. */
export function parseStatusV2(stdout: string): RepoStatus {
  const status: RepoStatus = {
    head: null,
    branch: null,
    upstream: null,
    ahead: 0,
    behind: 0,
    tracking: false,
    entries: [],
  };
  const records = stdout.split('\0');
  for (let i = 0; i < records.length; i++) {
    const rec = records[i] as string;
    if (rec === '') continue;
    if (rec.startsWith('# ')) {
      parseHeader(rec, status);
    } else if (rec.startsWith('1 ')) {
      status.entries.push({ code: rec.slice(2, 4), kind: 'changed', path: fieldsFrom(rec, 8) });
    } else if (rec.startsWith('2 ')) {
      status.entries.push({
        code: rec.slice(2, 4),
        kind: 'renamed',
        path: fieldsFrom(rec, 9),
        origPath: records[++i] ?? '',
      });
    } else if (rec.startsWith('u ')) {
      status.entries.push({ code: rec.slice(2, 4), kind: 'unmerged', path: fieldsFrom(rec, 10) });
    } else if (rec.startsWith('? ')) {
      status.entries.push({ code: '??', kind: 'untracked', path: rec.slice(2) });
    }
  }
  return status;
}

function fieldsFrom(rec: string, skip: number): string {
  let idx = 0;
  for (let n = 0; n < skip; n++) idx = rec.indexOf(' ', idx) + 1;
  return rec.slice(idx);
}

function parseHeader(rec: string, s: RepoStatus): void {
  const [, key, ...rest] = rec.split(' ');
  const value = rest.join(' ');
  if (key === 'branch.oid') s.head = value === '(initial)' ? null : value;
  else if (key === 'branch.head') s.branch = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') s.upstream = value;
  else if (key === 'branch.ab') {
    const m = /^\+(\d+) -(\d+)$/.exec(value);
    if (m) [s.ahead, s.behind, s.tracking] = [Number(m[1]), Number(m[2]), true];
  }
}

/**
 * The environment for a status read outside the write lease: git then never refreshes the index, so it never
 * holds index.lock while a writer needs it. (The clean check inside the lease keeps the refresh: it settles
 * racily-clean entries, which keeps the next status cheap.)
 */
export const READ_ONLY_STATUS_ENV: Readonly<Record<string, string>> = { GIT_OPTIONAL_LOCKS: '0' };

/**
 * The status op. `untracked: 'normal'` (the fast default, which git's untracked cache serves) reports an
 * untracked directory as `dir/`; `'all'` lists every file inside (used to explain a dirty repo).
 */
export function statusOp(untracked: 'normal' | 'all' = 'normal', aheadBehind = true): GitOp<RepoStatus> {
  const args = ['status', '--porcelain=v2', '--branch', '-z', `--untracked-files=${untracked}`, '--ignore-submodules'];
  // Counting ahead/behind walks history; the clean check before a write does not need it.
  if (!aheadBehind) args.push('--no-ahead-behind', '--no-renames');
  return {
    args,
    parse: (r) => parseStatusV2(r.stdout),
  };
}
