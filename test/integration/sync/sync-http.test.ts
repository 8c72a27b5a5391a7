/**
 * Sync over real smart HTTP (git http-backend behind node:http on 127.0.0.1) that requires a bearer
 * token: the right token syncs, a wrong one fails fast and redacted, injected 520s and dropped
 * connections are retried without losing or duplicating a commit, and no token leaks anywhere.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner, GitCommandError } from '../../../src/git/runner.js';
import { syncAfterTurn } from '../../../src/sync/after-turn.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import type { GitCredentials } from '../../../src/sync/credentials.js';
import { syncMemory } from '../../../src/sync/sync.js';
import {
  createBareRepo,
  startFaultProxy,
  startGitHttpServer,
  type GitHttpServer,
} from '../../helpers/git-http-server.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const root = makeTmpDir('gitmem-http-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const cred = (token = TOKEN): GitCredentials => ({
  token,
  scheme: 'bearer',
  username: 'x-access-token',
  source: 'env',
});
const basicCred = (): GitCredentials => ({ token: TOKEN, scheme: 'basic', username: 'x-access-token', source: 'file' });
let server: GitHttpServer;

/** Every form of the token that must never appear. */
const forms = [TOKEN, Buffer.from(`x-access-token:${TOKEN}`).toString('base64'), Buffer.from(TOKEN).toString('base64')];

function expectNoToken(label: string, value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  for (const f of forms) expect(text, `${label} leaks a token form`).not.toContain(f);
}

function expectRedactedError(err: unknown): void {
  expect(err).toBeInstanceOf(GitCommandError);
  const e = err as GitCommandError;
  for (const [field, value] of Object.entries({
    message: e.message,
    stack: e.stack,
    argv: e.argv,
    command: e.command,
    stdout: e.stdout,
    stderr: e.stderr,
    data: e.data,
    json: e.toJSON(),
  })) {
    expectNoToken(`error.${field}`, value ?? '');
  }
  // The header travels in the environment, never in argv.
  expect(e.argv.join(' ')).not.toMatch(/Authorization|extraHeader/i);
}

function grepTree(dir: string): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) grepTree(p);
    else if (statSync(p).size < 1_000_000) expectNoToken(p, readFileSync(p).toString('latin1'));
  }
}

function seed(name: string): { remoteUrl: string; bareDir: string } {
  const bareDir = createBareRepo(root, name);
  const work = makeTmpDir();
  g(work, ['init', '-q', '-b', 'main']);
  writeFileSync(join(work, 'persona.md'), '---\ndescription: persona\n---\nhello\n');
  g(work, ['add', '-A']);
  g(work, ['commit', '-qm', 'seed']);
  g(work, ['push', '-q', bareDir, 'main']);
  return { remoteUrl: `${server.url}/${name}.git`, bareDir };
}

function commit(dir: string, file: string, msg: string): void {
  writeFileSync(join(dir, file), `---\ndescription: ${msg}\n---\n${msg}\n`);
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-qm', msg]);
}

beforeAll(async () => {
  server = await startGitHttpServer({ root, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  cleanupTmp();
});

describe('sync over authenticated smart HTTP', () => {
  it('the right token clones and syncs; no token is ever written into the repository', async () => {
    const { remoteUrl, bareDir } = seed('right');
    const runner = createGitRunner({ env });
    const home = makeTmpDir('gitmem-home-');
    const c = await cloneMemory({ git: runner, home, url: remoteUrl, credentials: cred() });
    expect(c).toMatchObject({ agentId: 'right', commits: 1 });
    expect(existsSync(join(c.memoryDir, '.git', 'hooks', 'post-commit'))).toBe(true);
    expect(g(c.memoryDir, ['config', 'gitmem.agentId'])).toBe('right');
    commit(c.memoryDir, 'human.md', 'from machine 2');
    expect((await syncAfterTurn({ git: runner, memoryDir: c.memoryDir, credentials: basicCred() })).status).toBe(
      'pushed',
    );
    expect(g(bareDir, ['rev-list', '--count', 'main'])).toBe('2');
    grepTree(join(c.memoryDir, '.git'));
  });

  it('a wrong or missing token fails fast with a clear, redacted GIT_AUTH error and leaves nothing behind', async () => {
    const { remoteUrl } = seed('wrong');
    const runner = createGitRunner({ env });
    const home = makeTmpDir('gitmem-home-');
    const t0 = Date.now();
    let caught: unknown;
    try {
      await cloneMemory({ git: runner, home, url: remoteUrl, credentials: cred(`${TOKEN}x`) });
    } catch (err) {
      caught = err;
    }
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(isMemoryError(caught, 'GIT_AUTH')).toBe(true);
    expect((caught as Error).message).toMatch(/rejected the token \(HTTP 401\)/);
    expectRedactedError(caught);
    expect(existsSync(join(home, 'agents', 'wrong'))).toBe(false);

    const ok = await cloneMemory({ git: runner, home: makeTmpDir(), url: remoteUrl, credentials: cred() });
    commit(ok.memoryDir, 'x.md', 'x');
    for (const credentials of [cred(`${TOKEN}x`), undefined]) {
      const r = await syncAfterTurn({ git: runner, memoryDir: ok.memoryDir, ...(credentials ? { credentials } : {}) });
      expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
      expectNoToken('post-turn result', r);
    }
  });

  it('520s and dropped connections on the push are retried: every commit lands exactly once', async () => {
    const { remoteUrl, bareDir } = seed('faulty');
    const sleeps: number[] = [];
    const retries: string[] = [];
    const runner = createGitRunner({ env, sleep: async (ms) => void sleeps.push(ms), onRetry: (m) => retries.push(m) });
    const c = await cloneMemory({ git: runner, home: makeTmpDir(), url: remoteUrl, credentials: cred() });
    const isPush = (m: string, p: string): boolean => p.includes('git-receive-pack');

    for (const [i, faults] of [['520', 'drop'], ['drop-after-forward'], ['502', 'drop-after-forward']].entries()) {
      const proxy = await startFaultProxy({ targetPort: server.port, faults: faults as never, match: isPush });
      g(c.memoryDir, ['remote', 'set-url', 'origin', remoteUrl.replace(server.url, proxy.url)]);
      commit(c.memoryDir, `f${i}.md`, `fault round ${i}`);
      commit(c.memoryDir, `g${i}.md`, `fault round ${i} again`);
      const r = await syncAfterTurn({ git: runner, memoryDir: c.memoryDir, credentials: cred() });
      expect(r.status, JSON.stringify(r)).toBe('pushed');
      expect(proxy.injected).toBe(faults.length);
      await proxy.close();
    }
    expect(g(bareDir, ['rev-list', '--count', 'main'])).toBe('7');
    expect(g(bareDir, ['rev-parse', 'main'])).toBe(g(c.memoryDir, ['rev-parse', 'HEAD']));
    expect(sleeps).toEqual([500, 1000, 500, 500, 1000]);
    expect(retries.length).toBe(5);
    expectNoToken('retry log', retries);
  });

  it('a remote that keeps failing ends in push_failed GIT_TRANSIENT after bounded backoff, redacted', async () => {
    const { remoteUrl } = seed('down');
    const sleeps: number[] = [];
    const runner = createGitRunner({ env, sleep: async (ms) => void sleeps.push(ms) });
    const c = await cloneMemory({ git: runner, home: makeTmpDir(), url: remoteUrl, credentials: cred() });
    const proxy = await startFaultProxy({ targetPort: server.port, faults: ['502', '520', '502', '520'] });
    g(c.memoryDir, ['remote', 'set-url', 'origin', remoteUrl.replace(server.url, proxy.url)]);
    commit(c.memoryDir, 'y.md', 'y');
    const r = await syncMemory({ git: runner, memoryDir: c.memoryDir, credentials: cred() });
    expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_TRANSIENT' } });
    expect(sleeps).toEqual([500, 1000]);
    expectNoToken('sync result', r);
    await proxy.close();
  });

  it('no error field leaks the token on any failure path we can provoke', async () => {
    const { remoteUrl } = seed('leaks');
    const hang = createServer(() => undefined);
    await new Promise<void>((res) => hang.listen(0, '127.0.0.1', () => res()));
    const hangUrl = `http://127.0.0.1:${(hang.address() as AddressInfo).port}/x.git`;
    const closed = createServer();
    await new Promise<void>((res) => closed.listen(0, '127.0.0.1', () => res()));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x.git`;
    await new Promise<void>((res) => closed.close(() => res()));
    const runner = createGitRunner({ env, sleep: async () => undefined });
    const urls = [
      `${remoteUrl}x`,
      hangUrl,
      closedUrl,
      `${server.url}/missing.git`,
      remoteUrl.replace('http://', 'https://'),
    ];
    const codes: string[] = [];
    for (const url of urls) {
      const creds = url === hangUrl ? [basicCred()] : [cred(), cred(`${TOKEN}-bad`), basicCred()];
      for (const credentials of creds) {
        try {
          await cloneMemory({
            git: runner,
            home: makeTmpDir(),
            url,
            credentials,
            retry: { attempts: 2, baseDelayMs: 1 },
            timeoutMs: 800,
          });
          throw new Error(`clone of ${url} should fail`);
        } catch (err) {
          expectRedactedError(err);
          codes.push((err as GitCommandError).code);
        }
      }
    }
    expect(new Set(codes)).toEqual(new Set(['GIT_AUTH', 'GIT_FAILED', 'GIT_TIMEOUT', 'GIT_TRANSIENT']));
    hang.closeAllConnections();
    await new Promise<void>((res) => hang.close(() => res()));
  });
});
