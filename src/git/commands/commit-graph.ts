/**
 * Questions about the commit graph as git answers them: how many commits a range holds, where two commits
 * met, how a remote-tracking ref moved. Each an op (argv + parser), so the handle asks them without handing
 * out its runner.
 */
import type { GitOp } from '../runner.js';

/**
 * The number of commits `git rev-list --count` finds in `range` (a revision, `a..b`, `a...b`).
 * @example await git.exec(countCommitsOp('main..HEAD'), { cwd }) // 3
 */
export function countCommitsOp(range: string): GitOp<number> {
  return { args: ['rev-list', '--count', '--end-of-options', range], parse: (r) => Number(r.stdout.trim()) || 0 };
}

/**
 * The best common ancestor of `a` and `b`, or null when they share no history (git's exit 1).
 * @example await git.exec(mergeBaseOp('main', 'gitmem/conflict/x'), { cwd }) // 'a1b2…' or null
 */
export function mergeBaseOp(a: string, b: string): GitOp<string | null> {
  return {
    args: ['merge-base', '--end-of-options', a, b],
    okExitCodes: [1],
    parse: (r) => (r.exitCode === 0 ? r.stdout.trim() : null),
  };
}

/** One move of a ref as its reflog recorded it: when, and git's own words for what moved it. */
export interface RefMove {
  date: string;
  what: string;
}

/**
 * The last `limit` moves of `ref` from its reflog, newest first; none when it has no reflog (git's exit 128).
 * @example await git.exec(refMovesOp('refs/remotes/origin/main', 10), { cwd }) // [{ date: '2026-…', what: 'fetch: fast-forward' }]
 */
export function refMovesOp(ref: string, limit: number): GitOp<RefMove[]> {
  return {
    args: ['log', '-g', `-n${limit}`, '--format=%gd%x1f%ci%x1f%gs', '--end-of-options', ref],
    okExitCodes: [128],
    parse: (r) => {
      if (r.exitCode !== 0) return [];
      return r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => {
          const [, date = '', what = ''] = l.split('\x1f');
          return { date, what };
        });
    },
  };
}
