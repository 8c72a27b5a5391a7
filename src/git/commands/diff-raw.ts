/**
 * `git diff --raw -z` output as values: every changed path with both modes and both blob ids, in one git
 * call. The pre-commit hook (staged snapshot against HEAD) and merge validation (merge result against the
 * checkout's HEAD) read their change sets through this, so modes (links, gitlinks) are never lost on the way.
 */
import type { GitOp } from '../runner.js';

/** One changed path. `status` is git's letter (A, M, D, R, C, T, U, X); ids are full object ids. */
export interface RawDiffEntry {
  status: string;
  oldMode: string;
  newMode: string;
  oldId: string;
  newId: string;
  path: string;
  /** Renames and copies: where it came from. */
  oldPath?: string;
}

/**
 * Parses `--raw -z` output (`:<old mode> <new mode> <old id> <new id> <status>\0<path>\0[<new path>\0]`).
 * @example parseRawDiff(':000000 120000 0000 945c A\0lnk\0')[0] // { status: 'A', newMode: '120000', path: 'lnk', … }
 */
export function parseRawDiff(stdout: string): RawDiffEntry[] {
  const parts = stdout.split('\0');
  const out: RawDiffEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const header = parts[i];
    if (!header?.startsWith(':')) continue;
    const [oldMode = '', newMode = '', oldId = '', newId = '', score = ''] = header.slice(1).split(' ');
    const status = score.slice(0, 1);
    if (status === 'R' || status === 'C') {
      out.push({ status, oldMode, newMode, oldId, newId, oldPath: parts[i + 1] ?? '', path: parts[i + 2] ?? '' });
      i += 2;
    } else {
      out.push({ status, oldMode, newMode, oldId, newId, path: parts[i + 1] ?? '' });
      i += 1;
    }
  }
  return out;
}

/**
 * A raw diff op: `git diff --cached …` (staged against HEAD) or `git diff-tree -r …` (two trees). Renames are
 * detected (-M), ids are never abbreviated, external diff drivers never run.
 * @example git.exec(rawDiffOp('diff-tree', ['-r', head, tree]), { cwd })
 */
export function rawDiffOp(command: 'diff' | 'diff-tree', rest: readonly string[]): GitOp<RawDiffEntry[]> {
  return {
    args: [command, '--raw', '-z', '-M', '--no-abbrev', '--no-ext-diff', '--no-textconv', ...rest],
    parse: (r) => parseRawDiff(r.stdout),
  };
}

/**
 * What every commit of a range wrote: `git log --raw` with each commit (a root against the empty tree, a
 * merge against each parent) diffed on its own, no rename pairing, ids in full. `revs` names the range.
 * @example git.exec(logRawOp([head, '--not', scanned]), { cwd })
 */
export function logRawOp(revs: readonly string[]): GitOp<RawDiffEntry[]> {
  return {
    args: [
      'log',
      '--format=',
      '--raw',
      '-z',
      '-m',
      '--root',
      '--no-renames',
      '--no-abbrev',
      '--no-ext-diff',
      '--no-textconv',
      ...revs,
    ],
    parse: (r) => parseRawDiff(r.stdout),
  };
}
