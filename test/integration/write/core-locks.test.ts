/**
 * Another git process holding a lock (an editor's `git status`, a shell commit, gc) never costs a memory
 * write: the write waits briefly for the lock, and a lock that stays is a typed GIT_LOCKED error that
 * leaves the repo exactly as it was. gitmem's own reads outside the write lease never take index.lock.
 */
import { readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { readRepoState } from '../../../src/sync/repo-state.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
beforeAll(async () => {
  fx = await memoryFixture();
});
afterAll(cleanupTmp);

const lockPath = (): string => join(fx.dir, '.git', 'index.lock');
const create = (name: string) => ({
  command: 'create',
  reason: `add ${name}`,
  file_path: `notes/${name}`,
  description: name,
  file_text: 'x',
});

function snapshot(): { head: string; index: string; status: string } {
  return {
    head: git(fx.dir, ['rev-parse', 'HEAD']),
    index: git(fx.dir, ['ls-files', '-s']),
    status: git(fx.dir, ['status', '--porcelain', '--untracked-files=all']),
  };
}

describe('lock contention', () => {
  it('a write waits for an index.lock another process lets go of, and lands', async () => {
    writeFileSync(lockPath(), '');
    const release = setTimeout(() => rmSync(lockPath(), { force: true }), 200);
    try {
      const r = await fx.memory.tool(create('waited'));
      expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(r.commit);
      expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
      expect(git(fx.dir, ['ls-files', 'notes'])).toContain('notes/waited.md');
    } finally {
      clearTimeout(release);
      rmSync(lockPath(), { force: true });
    }
  });

  it('a lock that stays is GIT_LOCKED, and the repo is exactly as before', async () => {
    const before = snapshot();
    writeFileSync(lockPath(), '');
    try {
      const err = await fx.memory.tool(create('blocked')).catch((e: unknown) => e);
      expect(isMemoryError(err, 'GIT_LOCKED')).toBe(true);
      expect(String((err as Error).message)).toMatch(/index\.lock': File exists/);
    } finally {
      rmSync(lockPath(), { force: true });
    }
    expect(snapshot()).toEqual(before);
  });

  it('status reads outside the write lease never write the index (so never hold index.lock)', async () => {
    const file = join(fx.dir, 'system', 'human.md');
    const future = new Date(Date.now() + 60_000);
    const indexBytes = (): Buffer => readFileSync(join(fx.dir, '.git', 'index'));
    utimesSync(file, future, future);
    const before = indexBytes();
    await fx.memory.status();
    await readRepoState(createGitRunner({ env: fx.env }), fx.dir);
    expect(indexBytes().equals(before)).toBe(true);
    // The control: a plain `git status` does refresh (rewrite) the index here, so the check above can fail.
    git(fx.dir, ['status', '--porcelain']);
    expect(indexBytes().equals(before)).toBe(false);
  });

  it('writes racing status reads and post-turn checks all land', async () => {
    const head = git(fx.dir, ['rev-parse', 'HEAD']);
    let reading = true;
    const reader = (async () => {
      while (reading) await Promise.all([fx.memory.status(), readRepoState(createGitRunner({ env: fx.env }), fx.dir)]);
    })();
    try {
      for (let i = 0; i < 10; i++) await fx.memory.tool(create(`raced-${i}`));
    } finally {
      reading = false;
      await reader;
    }
    expect(git(fx.dir, ['rev-list', '--count', `${head}..HEAD`])).toBe('10');
  });
});
