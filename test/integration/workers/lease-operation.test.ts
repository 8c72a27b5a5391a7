// The memory operation lease across async callers and real processes: FIFO, timeouts naming the holder,
// recovery after kill -9 (including git's own index.lock), heartbeat staleness, and its uncontended cost.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError, MemoryError } from '../../../src/errors.js';
import { resolveGitCommonDir } from '../../../src/git/common-dir.js';
import { LEASE_FILE, readMemoryOperationHolder, withMemoryOperation } from '../../../src/git/lease.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemoryWorktree } from '../../../src/worktree/create.js';
import { discardWorktree } from '../../../src/worktree/cleanup.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const CHILD = join(import.meta.dirname, '..', '..', 'helpers', 'lease-child.ts');
let root: string;
let repo: string;
let env: Record<string, string>;

function startChild(args: string[]): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => d.toString().includes('READY') && resolve());
    child.on('exit', (code) => reject(new Error(`child exited ${code}: ${err}`)));
  });
  return { child, ready };
}

beforeAll(() => {
  root = makeTmpDir();
  env = { ...hermeticGitEnv(root), NODE_OPTIONS: '' };
  repo = join(root, 'memory');
  mkdirSync(repo);
  git(repo, ['init', '-q', '-b', 'main'], env);
  writeFileSync(join(repo, 'a.md'), 'a\n');
  git(repo, ['add', '-A'], env);
  git(repo, ['commit', '-q', '-m', 'init'], env);
});

afterAll(() => cleanupTmp());

describe('withMemoryOperation', () => {
  it('runs async callers one at a time in arrival order', async () => {
    const order: number[] = [];
    let inside = 0;
    let maxInside = 0;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        withMemoryOperation(repo, async () => {
          inside++;
          maxInside = Math.max(maxInside, inside);
          await new Promise((r) => setTimeout(r, 1));
          order.push(i);
          inside--;
        }),
      ),
    );
    expect(maxInside).toBe(1);
    expect(order).toEqual([...Array(20).keys()]);
    expect(existsSync(join(repo, '.git', LEASE_FILE))).toBe(false);
  });

  it('releases after a failing operation and passes its error through', async () => {
    await expect(
      withMemoryOperation(repo, () => Promise.reject(new MemoryError('NO_MATCH', 'x'))),
    ).rejects.toMatchObject({ code: 'NO_MATCH' });
    expect(await withMemoryOperation(repo, () => 42)).toBe(42);
  });

  it('is re-entrant inside its own operation instead of deadlocking', async () => {
    const v = await withMemoryOperation(repo, () => withMemoryOperation(repo, () => 'inner', { timeoutMs: 200 }));
    expect(v).toBe('inner');
  });

  it('is shared by a linked worktree and its main checkout (one key: the common git dir)', async () => {
    const wt = await createMemoryWorktree({ memoryDir: repo, kind: 'worker', git: createGitRunner({ env }) });
    expect(resolveGitCommonDir(wt.worktreeDir)).toBe(resolveGitCommonDir(repo));
    let release!: () => void;
    const holding = withMemoryOperation(repo, () => new Promise<void>((r) => (release = r)));
    const err = await withMemoryOperation(wt.worktreeDir, () => 1, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'LOCK_TIMEOUT')).toBe(true);
    release();
    await holding;
    await discardWorktree(wt, createGitRunner({ env }));
  });

  it('times out with LOCK_TIMEOUT naming the holder in another process, then recovers after kill -9', async () => {
    const { child, ready } = startChild(['hold', repo]);
    await ready;
    expect(readMemoryOperationHolder(repo)).toMatchObject({
      pid: child.pid,
      purpose: 'child hold',
      hostname: hostname(),
    });
    const err = (await withMemoryOperation(repo, () => 1, { timeoutMs: 150 }).catch((e: unknown) => e)) as MemoryError;
    expect(err.code).toBe('LOCK_TIMEOUT');
    expect(err.message).toContain(`pid ${child.pid}`);
    expect(err.data['holder']).toMatchObject({ pid: child.pid, purpose: 'child hold' });
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    let recovered: { reason: string; removedGitLocks: string[] } | undefined;
    const gitRunner = createGitRunner({ env });
    const started = Date.now();
    await withMemoryOperation(
      repo,
      async () => {
        writeFileSync(join(repo, 'b.md'), 'after crash\n');
        await gitRunner.run(['add', 'b.md'], { cwd: repo });
        await gitRunner.run(['commit', '-q', '-m', 'after crash'], { cwd: repo });
      },
      { onRecovered: (info) => (recovered = info), timeoutMs: 10_000 },
    );
    expect(recovered?.reason).toBe('dead_holder');
    expect(recovered?.removedGitLocks.map((p) => p.split('/').pop())).toEqual(['index.lock']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(git(repo, ['log', '-1', '--format=%s'], env)).toBe('after crash');
  });

  it('breaks a lock whose heartbeat went stale even when the pid cannot be checked (other host)', async () => {
    const path = join(resolveGitCommonDir(repo), LEASE_FILE);
    writeFileSync(
      path,
      JSON.stringify({
        pid: 1,
        hostname: 'elsewhere',
        startedAt: new Date().toISOString(),
        purpose: 'remote',
        token: 't',
      }),
    );
    const fresh = await withMemoryOperation(repo, () => 1, { timeoutMs: 100, staleMs: 60_000 }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(fresh, 'LOCK_TIMEOUT')).toBe(true);
    let reason = '';
    await withMemoryOperation(repo, () => 1, {
      timeoutMs: 2_000,
      staleMs: 300,
      onRecovered: (i) => (reason = i.reason),
    });
    expect(reason).toBe('stale_heartbeat');
  });

  it('keeps a live holder’s lease fresh with heartbeats', async () => {
    let reason = '';
    let release!: () => void;
    const holding = withMemoryOperation(repo, () => new Promise<void>((r) => (release = r)), { heartbeatMs: 50 });
    await new Promise((r) => setTimeout(r, 20));
    // a waiter that would break a >200 ms old lock, waiting 600 ms: heartbeats keep the holder's lock young
    const err = await withMemoryOperation(repo, () => 1, {
      timeoutMs: 600,
      staleMs: 200,
      hostname: 'another-host',
      onRecovered: (i) => (reason = i.reason),
    }).catch((e: unknown) => e);
    release();
    await holding;
    expect(reason).toBe('');
    expect(isMemoryError(err, 'LOCK_TIMEOUT')).toBe(true);
  });

  it('never breaks the lease of a live holder on this host whose event loop is stalled (no heartbeat)', async () => {
    const { child, ready } = startChild(['stall', repo, '1500']);
    await ready;
    let reason = '';
    const err = await withMemoryOperation(repo, () => 1, {
      timeoutMs: 900,
      staleMs: 200,
      onRecovered: (i) => (reason = i.reason),
    }).catch((e: unknown) => e);
    expect(reason).toBe('');
    expect(isMemoryError(err, 'LOCK_TIMEOUT')).toBe(true);
    await new Promise((r) => child.once('exit', r));
    expect(await withMemoryOperation(repo, () => 'after', { timeoutMs: 5_000 })).toBe('after');
  });

  it('takes over a lock that names this very process, which cannot be holding it (a pid reused after a restart)', async () => {
    const path = join(resolveGitCommonDir(repo), LEASE_FILE);
    writeFileSync(
      path,
      JSON.stringify({
        pid: process.pid,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
        purpose: 'before the restart',
        token: 'old',
      }),
    );
    let reason = '';
    expect(
      await withMemoryOperation(repo, () => 'mine', { timeoutMs: 1_000, onRecovered: (i) => (reason = i.reason) }),
    ).toBe('mine');
    expect(reason).toBe('dead_holder');
  });

  // Its cost (about a millisecond) is a bench row (worker section), never a timed assertion here.
  it('takes and releases the lock each time, 300 times in a row, leaving no holder behind', async () => {
    const lockFile = join(resolveGitCommonDir(repo), LEASE_FILE);
    for (let i = 0; i < 300; i++)
      expect(await withMemoryOperation(repo, () => (existsSync(lockFile) ? i : -1))).toBe(i);
    expect(readMemoryOperationHolder(repo)).toBeNull();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('gives up waiting when aborted', async () => {
    let release!: () => void;
    const holding = withMemoryOperation(repo, () => new Promise<void>((r) => (release = r)));
    const err = await withMemoryOperation(repo, () => 1, { signal: AbortSignal.timeout(30) }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'ABORTED')).toBe(true);
    release();
    await holding;
    expect(await withMemoryOperation(repo, () => 'still works')).toBe('still works');
  });
});
