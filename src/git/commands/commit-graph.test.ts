import { describe, expect, it } from 'vitest';
import type { GitResult } from '../runner.js';
import { countCommitsOp, mergeBaseOp, refMovesOp } from './commit-graph.js';

const result = (stdout: string, exitCode = 0): GitResult => ({
  stdout,
  stderr: '',
  exitCode,
  stdoutBuffer: Buffer.from(stdout),
});

describe('commit-graph ops', () => {
  it('counts a range with rev-list --count, the range never read as an option', () => {
    const op = countCommitsOp('--all');
    expect(op.args).toEqual(['rev-list', '--count', '--end-of-options', '--all']);
    expect(op.parse(result('42\n'))).toBe(42);
  });

  it('answers a merge base, or null when the two share no history (exit 1)', () => {
    const op = mergeBaseOp('main', 'gitmem/conflict/x');
    expect(op.args).toEqual(['merge-base', '--end-of-options', 'main', 'gitmem/conflict/x']);
    expect(op.okExitCodes).toEqual([1]);
    expect(op.parse(result('a'.repeat(40) + '\n'))).toBe('a'.repeat(40));
    expect(op.parse(result('', 1))).toBeNull();
  });

  it("reads a ref's reflog as date and git's words, none when it has no reflog (exit 128)", () => {
    const op = refMovesOp('refs/remotes/origin/main', 10);
    expect(op.args).toEqual([
      'log',
      '-g',
      '-n10',
      '--format=%gd%x1f%ci%x1f%gs',
      '--end-of-options',
      'refs/remotes/origin/main',
    ]);
    const out =
      'origin/main@{0}\x1f2026-12-01 12:00:00 +0100\x1fupdate by push\norigin/main@{1}\x1f2026-11-30 09:00:00 +0100\x1ffetch: fast-forward\n';
    expect(op.parse(result(out))).toEqual([
      { date: '2026-12-01 12:00:00 +0100', what: 'update by push' },
      { date: '2026-11-30 09:00:00 +0100', what: 'fetch: fast-forward' },
    ]);
    expect(op.parse(result('', 128))).toEqual([]);
  });
});
