/**
 * Other git processes on the same repository never cost a gitmem operation: a `git config` writer holding
 * `config.lock` is waited out like `index.lock`, and worker merges land while `git status` pollers (an
 * editor, a prompt) keep taking `index.lock` in a loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { mergeIntoCheckout } from '../../../src/worktree/merge.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { cleanupTmp, git, gitTry } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

afterAll(cleanupTmp);

/** A shell loop running `command` until killed (a poller or a config writer, as another program would). */
function loop(cwd: string, env: Record<string, string>, command: string): ChildProcess {
  return spawn('/bin/sh', ['-c', `i=0; while :; do ${command}; i=$((i+1)); done`], {
    cwd,
    env,
    stdio: 'ignore',
    detached: true,
  });
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          c.once('exit', () => resolve());
          process.kill(-(c.pid as number), 'SIGKILL');
        }),
    ),
  );
}

describe('contention with other git processes', () => {
  it('12 concurrent memory writes and 12 config writes land while git config writers hammer the repo', async () => {
    const fx = await memoryFixture();
    const git2 = createGitRunner({ env: fx.env });
    const hammers = [1, 2, 3].map((n) => loop(fx.dir, fx.env, `git config gitmem.hammer${n} "$i" 2>/dev/null`));
    try {
      await new Promise((r) => setTimeout(r, 100));
      const writes = Array.from({ length: 12 }, (_, i) =>
        fx.memory.tool({
          command: 'create',
          reason: `note ${i}`,
          file_path: `notes/n${i}.md`,
          description: `n${i}`,
          file_text: `n${i}`,
        }),
      );
      const configs = Array.from({ length: 12 }, (_, i) =>
        git2.run(['config', `gitmem.test.k${i}`, `v${i}`], { cwd: fx.dir }),
      );
      const settled = await Promise.allSettled([...writes, ...configs]);
      const failures = settled.flatMap((s) => (s.status === 'rejected' ? [String((s.reason as Error).message)] : []));
      expect(failures).toEqual([]);
    } finally {
      await stopAll(hammers);
    }
    for (let i = 0; i < 12; i++) expect(git(fx.dir, ['config', `gitmem.test.k${i}`], fx.env)).toBe(`v${i}`);
    expect(git(fx.dir, ['ls-files', 'notes'], fx.env).split('\n')).toHaveLength(12);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  }, 60_000);

  it('a config lock that stays is GIT_LOCKED, and the config is as before', async () => {
    const fx = await memoryFixture();
    const git2 = createGitRunner({ env: fx.env });
    writeFileSync(join(fx.dir, '.git', 'config.lock'), '');
    const err = await git2.run(['config', 'gitmem.test.stuck', 'x'], { cwd: fx.dir }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'GIT_LOCKED')).toBe(true);
    expect((err as { kind: string }).kind).toBe('locked');
    expect(String((err as Error).message)).toMatch(/could not lock config file/);
    expect(gitTry(fx.dir, ['config', '--get-regexp', 'gitmem\\.test'], fx.env)).toMatchObject({
      status: 1,
      stdout: '',
    });
  });

  it('a merge whose index needs a refresh waits for an index.lock another process lets go of', async () => {
    const fx = await memoryFixture();
    const base = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    git(fx.dir, ['checkout', '-q', '-b', 'side'], fx.env);
    writeFileSync(join(fx.dir, 'system', 'side.md'), '---\ndescription: side\n---\nside\n');
    git(fx.dir, ['add', '-A'], fx.env);
    git(fx.dir, ['commit', '-q', '--no-verify', '-m', 'side'], fx.env);
    git(fx.dir, ['checkout', '-q', 'main'], fx.env);
    // Same bytes, new mtime: the index's stat data is stale, so the refresh must write the index.
    const future = new Date(Date.now() + 5_000);
    utimesSync(join(fx.dir, 'system', 'persona.md'), future, future);
    const lock = join(fx.dir, '.git', 'index.lock');
    writeFileSync(lock, '');
    const release = setTimeout(() => rmSync(lock, { force: true }), 400);
    try {
      const r = await mergeIntoCheckout({
        memoryDir: fx.dir,
        branch: 'side',
        message: 'merge side',
        git: createGitRunner({ env: fx.env }),
      });
      expect(r.status).toBe('merged');
    } finally {
      clearTimeout(release);
      rmSync(lock, { force: true });
    }
    expect(git(fx.dir, ['rev-parse', 'HEAD^1'], fx.env)).toBe(base);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  });

  it('worker merges all land while git status pollers run in a loop', async () => {
    const fx = await memoryFixture();
    mkdirSync(join(fx.dir, 'bulk'));
    // Enough files that each poller's status holds index.lock a while, as in a real memory.
    for (let i = 0; i < 2_000; i++)
      writeFileSync(join(fx.dir, 'bulk', `f${i}.md`), `---\ndescription: f${i}\n---\nf${i}\n`);
    git(fx.dir, ['add', '-A'], fx.env);
    git(fx.dir, ['commit', '-q', '--no-verify', '-m', 'bulk'], fx.env);
    const runner = createGitRunner({ env: fx.env });
    const pollers = [1, 2, 3, 4].map(() => loop(fx.dir, fx.env, 'git status --porcelain >/dev/null 2>&1'));
    const outcomes: string[] = [];
    try {
      await new Promise((r) => setTimeout(r, 200));
      for (let i = 0; i < 8; i++) {
        const o = await runMemoryWorker(
          { memoryDir: fx.dir, description: `worker ${i}` },
          async (ctx) => {
            writeFileSync(join(ctx.worktreeDir, 'system', `w${i}.md`), `---\ndescription: w${i}\n---\nw${i}\n`);
            writeFileSync(join(ctx.worktreeDir, 'system', 'shared.md'), `---\ndescription: shared\n---\nround ${i}\n`);
            git(ctx.worktreeDir, ['add', '-A'], fx.env);
            git(ctx.worktreeDir, ['commit', '-q', '-m', `worker ${i}`], fx.env);
          },
          { git: runner, lease: { timeoutMs: 60_000 } },
        );
        outcomes.push(o.status === 'merged' ? o.status : JSON.stringify(o));
      }
    } finally {
      await stopAll(pollers);
    }
    expect(outcomes).toEqual(Array(8).fill('merged'));
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(git(fx.dir, ['fsck', '--strict', '--no-progress'], fx.env)).toBe('');
  }, 120_000);
});
