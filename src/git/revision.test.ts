import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner } from './runner.js';
import { gitDate, parseRevision, resolveRevision, revisionOp } from './revision.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../test/helpers/tmp.js';

afterAll(cleanupTmp);

describe('parseRevision', () => {
  it('passes revisions through and reads ISO dates as instants', () => {
    expect(parseRevision('HEAD~3')).toEqual({ kind: 'rev', rev: 'HEAD~3' });
    expect(parseRevision('main@{2 days ago}')).toEqual({ kind: 'rev', rev: 'main@{2 days ago}' });
    expect(parseRevision('2024-01-02T12:00:00Z')).toEqual({ kind: 'date', epochMs: Date.UTC(2024, 0, 2, 12) });
    expect(parseRevision('2024-01-02T14:00+02:00')).toEqual({ kind: 'date', epochMs: Date.UTC(2024, 0, 2, 12) });
    expect(parseRevision('2024-01-02T12:00:00.5-0130')).toEqual({ kind: 'date', epochMs: Date.UTC(2024, 0, 2, 13, 30, 0, 500) });
    expect(parseRevision('2024-01-02')).toEqual({ kind: 'date', epochMs: new Date(2024, 0, 2, 23, 59, 59, 999).getTime() });
  });

  it('refuses malformed arguments with INVALID_ARGUMENT', () => {
    for (const bad of ['', '  ', '-all', '--output=/tmp/x', 'a\0b', 'a\nb', 'x'.repeat(257), '2024-02-30', '2024-01-01T25:00', 42, null]) {
      expect(() => parseRevision(bad), String(bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });

  it('builds argv that git can never read as an option', () => {
    expect(revisionOp({ kind: 'rev', rev: 'main' }).args).toEqual(['rev-parse', '--verify', '-q', '--end-of-options', 'main^{commit}']);
    expect(revisionOp({ kind: 'date', epochMs: Date.UTC(2024, 0, 2, 12) }).args).toContain('--before=2024-01-02 12:00:00 +0000');
    expect(gitDate(Date.UTC(1970, 0, 1, 0, 0, 1))).toBe('1970-01-01 00:00:01 +0000');
  });
});

describe('resolveRevision', () => {
  const dir = makeTmpDir();
  git(dir, ['init', '-q', '-b', 'main']);
  const ids: string[] = [];
  for (const day of [1, 2, 3]) {
    writeFileSync(join(dir, 'f.md'), `${day}\n`);
    git(dir, ['add', 'f.md']);
    const env = { ...hermeticGitEnv(dir), GIT_COMMITTER_DATE: `2024-01-0${day}T12:00:00Z`, GIT_AUTHOR_DATE: `2024-01-0${day}T12:00:00Z` };
    git(dir, ['commit', '-q', '-m', `c${day}`], env);
    ids.push(git(dir, ['rev-parse', 'HEAD']));
  }
  const runner = createGitRunner({ env: hermeticGitEnv(dir) });

  it('resolves shas, branches, ancestry and dates (at or before)', async () => {
    expect(await resolveRevision(runner, dir)).toBe(ids[2]);
    expect(await resolveRevision(runner, dir, 'main~2')).toBe(ids[0]);
    expect(await resolveRevision(runner, dir, ids[1]?.slice(0, 10))).toBe(ids[1]);
    expect(await resolveRevision(runner, dir, '2024-01-02T12:00:00Z')).toBe(ids[1]);
    expect(await resolveRevision(runner, dir, '2024-01-02T11:59:59Z')).toBe(ids[0]);
    expect(await resolveRevision(runner, dir, '2030-01-01')).toBe(ids[2]);
  });

  it('answers UNKNOWN_REVISION for what names no commit', async () => {
    for (const bad of ['nope', 'HEAD~9', '2023-12-31T00:00:00Z', 'HEAD:f.md', `${ids[0]}x`]) {
      await expect(resolveRevision(runner, dir, bad), bad).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    }
  });

  it('answers UNKNOWN_REVISION in a repository without commits', async () => {
    const empty = makeTmpDir();
    git(empty, ['init', '-q', '-b', 'main']);
    await expect(resolveRevision(runner, empty)).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    await expect(resolveRevision(runner, empty, '2024-01-01')).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
  });
});
