/**
 * A token never follows a redirect to another origin: an authenticated smart-HTTP remote that answers
 * 301/302/307 pointing at another port, another loopback address or another host name makes the sync
 * (and a clone) fail with GIT_REDIRECT naming both origins, the redirect target never sees an
 * Authorization header, and nothing is pushed there. A redirect within the same origin still works.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import type { GitCredentials } from '../../../src/sync/credentials.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const originRoot = makeTmpDir('gitmem-redir-a-');
const otherRoot = makeTmpDir('gitmem-redir-b-');
const env = hermeticGitEnv(originRoot);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const cred: GitCredentials = { token: TOKEN, scheme: 'bearer', username: 'x-access-token', source: 'env' };
const forms = [TOKEN, Buffer.from(`x-access-token:${TOKEN}`).toString('base64'), Buffer.from(TOKEN).toString('base64')];

/** path prefix on the origin → where it redirects (absolute URL or path). */
const redirects = new Map<string, string>();
let origin: GitHttpServer;
/** Servers that must never see the token: another port, another address. */
let otherPort: GitHttpServer;
let otherAddress: GitHttpServer;

function redirectFor(path: string): string | undefined {
  for (const [prefix, to] of redirects) if (path.startsWith(prefix)) return to + path.slice(prefix.length);
  return undefined;
}

beforeAll(async () => {
  origin = await startGitHttpServer({ root: originRoot, token: TOKEN, redirect: redirectFor });
  otherPort = await startGitHttpServer({ root: otherRoot });
  otherAddress = await startGitHttpServer({ root: otherRoot, host: '127.0.0.2' });
});
afterAll(async () => {
  await Promise.all([origin.close(), otherPort.close(), otherAddress.close()]);
  cleanupTmp();
});

function seedOrigin(name: string): string {
  const bare = createBareRepo(originRoot, name);
  const work = makeTmpDir();
  g(work, ['init', '-q', '-b', 'main']);
  writeFileSync(join(work, 'persona.md'), '---\ndescription: p\n---\nhello\n');
  g(work, ['add', '-A']);
  g(work, ['commit', '-qm', 'seed']);
  g(work, ['push', '-q', bare, 'main']);
  return bare;
}

async function clonedWithCommit(name: string): Promise<string> {
  seedOrigin(name);
  const c = await cloneMemory({
    git: createGitRunner({ env }),
    home: makeTmpDir('gitmem-home-'),
    url: `${origin.url}/${name}.git`,
    credentials: cred,
  });
  writeFileSync(join(c.memoryDir, 'human.md'), '---\ndescription: h\n---\nlearned\n');
  g(c.memoryDir, ['add', '-A']);
  g(c.memoryDir, ['commit', '-qm', 'learned']);
  return c.memoryDir;
}

function expectNoTokenIn(label: string, value: unknown): void {
  const text = JSON.stringify(value);
  for (const f of forms) expect(text, `${label} leaks a token form`).not.toContain(f);
}

const crossOrigin: Array<{ label: string; status: 301 | 302 | 307; target: () => GitHttpServer; host: () => string }> =
  [
    { label: 'another port', status: 301, target: () => otherPort, host: () => `127.0.0.1:${otherPort.port}` },
    {
      label: 'another address (127.0.0.2)',
      status: 302,
      target: () => otherAddress,
      host: () => `127.0.0.2:${otherAddress.port}`,
    },
    {
      label: 'another host name (localhost)',
      status: 307,
      target: () => otherPort,
      host: () => `localhost:${otherPort.port}`,
    },
  ];

describe('authenticated remotes and redirects', () => {
  for (const [i, c] of crossOrigin.entries()) {
    it(`a ${c.status} to ${c.label} fails with GIT_REDIRECT; the target sees no token and gets no push`, async () => {
      const name = `cross-${i}`;
      const memoryDir = await clonedWithCommit(name);
      const trap = createBareRepo(otherRoot, name);
      const target = c.target();
      const seenBefore = target.requests.length;
      redirects.set(`/${name}.git/`, `http://${c.host()}/${name}.git/`);
      const server = await startGitHttpServer({
        root: originRoot,
        token: TOKEN,
        redirect: redirectFor,
        redirectStatus: c.status,
      });
      g(memoryDir, ['remote', 'set-url', 'origin', `${server.url}/${name}.git`]);
      const r = await syncMemory({
        git: createGitRunner({ env, sleep: async () => undefined }),
        memoryDir,
        credentials: cred,
      });
      await server.close();

      expect(r.status, JSON.stringify(r)).toBe('push_failed');
      expect(r.error?.code).toBe('GIT_REDIRECT');
      expect(r.summary).toContain(server.url);
      expect(r.summary).toContain(`http://${c.host()}`);
      expect(r.summary).toMatch(/remote set/);
      expectNoTokenIn('sync result', r);
      const seen = target.requests.slice(seenBefore);
      expect(seen.filter((q) => q.authorization !== undefined)).toEqual([]);
      expect(gitTry(trap, ['rev-parse', '-q', '--verify', 'refs/heads/main'], env).status).not.toBe(0);
    });
  }

  it('a clone through a cross-origin redirect fails with GIT_REDIRECT and leaves nothing behind', async () => {
    seedOrigin('clone-cross');
    createBareRepo(otherRoot, 'clone-cross');
    redirects.set('/clone-cross.git/', `${otherAddress.url}/clone-cross.git/`);
    const seenBefore = otherAddress.requests.length;
    const home = makeTmpDir('gitmem-home-');
    let caught: unknown;
    try {
      await cloneMemory({
        git: createGitRunner({ env, sleep: async () => undefined }),
        home,
        url: `${origin.url}/clone-cross.git`,
        credentials: cred,
      });
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught, 'GIT_REDIRECT'), String(caught)).toBe(true);
    const e = caught as Error & { data: unknown };
    expect(e.message).toContain(origin.url);
    expect(e.message).toContain(otherAddress.url);
    expectNoTokenIn('clone error', { message: e.message, stack: e.stack, data: e.data });
    expect(otherAddress.requests.slice(seenBefore).filter((q) => q.authorization !== undefined)).toEqual([]);
    expect(existsSync(join(home, 'agents', 'clone-cross'))).toBe(false); // a failed clone leaves no agent directory
  });

  it('a redirect within the same origin is followed: the push lands at the new path, the token went nowhere else', async () => {
    const memoryDir = await clonedWithCommit('moved-old');
    const newBare = seedOrigin('moved-new');
    g(newBare, ['fetch', '-q', join(originRoot, 'moved-old.git'), '+refs/heads/main:refs/heads/main']);
    redirects.set('/moved-old.git/', '/moved-new.git/');
    const r = await syncMemory({ git: createGitRunner({ env }), memoryDir, credentials: cred });
    expect(r.status, JSON.stringify(r)).toBe('pushed');
    expect(g(newBare, ['rev-parse', 'main'])).toBe(g(memoryDir, ['rev-parse', 'HEAD']));
    expectNoTokenIn('sync result', r);
  });

  it('a same-origin redirect that then leaves the origin is refused at the second hop', async () => {
    const memoryDir = await clonedWithCommit('hop-1');
    const trap = createBareRepo(otherRoot, 'hop-2');
    redirects.set('/hop-1.git/', `${origin.url}/hop-2.git/`);
    redirects.set('/hop-2.git/', `${otherPort.url}/hop-2.git/`);
    const seenBefore = otherPort.requests.length;
    const r = await syncMemory({
      git: createGitRunner({ env, sleep: async () => undefined }),
      memoryDir,
      credentials: cred,
    });
    expect(r.error?.code, JSON.stringify(r)).toBe('GIT_REDIRECT');
    expect(r.summary).toContain(otherPort.url);
    expect(otherPort.requests.slice(seenBefore).filter((q) => q.authorization !== undefined)).toEqual([]);
    expect(gitTry(trap, ['rev-parse', '-q', '--verify', 'refs/heads/main'], env).status).not.toBe(0);
  });
});
