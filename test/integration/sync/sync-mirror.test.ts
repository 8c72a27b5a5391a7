/**
 * The push-only mirror: the post-commit hook pushes main in the background without
 * delaying the commit and logs to .git/gitmem-mirror.log; `mirror set|push|status|unset` and its errors.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { ensureHooks } from '../../../src/hooks/install.js';
import { postCommitScript } from '../../../src/hooks/post-commit.js';
import { mirrorStatus, pushMirror, setMirror, unsetMirror } from '../../../src/sync/mirror.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-mirror-');
const env = hermeticGitEnv(root);
const runner = createGitRunner({ env, sleep: async () => undefined });
const g = (dir: string, args: string[]): string => git(dir, args, env);

function commit(dir: string, name: string): void {
  writeFileSync(join(dir, 'system', `${name}.md`), `---\ndescription: ${name}\n---\n${name}\n`);
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-q', '-m', name]);
}

async function waitFor(check: () => boolean, ms = 8_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

async function newRepo(): Promise<string> {
  const dir = makeTmpDir('gitmem-mirror-repo-');
  g(dir, ['init', '-q', '-b', 'main']);
  await ensureHooks(runner, dir);
  mkdirSync(join(dir, 'system'));
  return dir;
}

const logOf = (dir: string): string => {
  const p = join(dir, '.git', 'gitmem-mirror.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

async function mirrorError(fn: () => Promise<unknown>): Promise<{ reason: unknown; message: string }> {
  try {
    await fn();
  } catch (err) {
    expect(isMemoryError(err, 'MIRROR_ERROR')).toBe(true);
    return { reason: (err as { data: Record<string, unknown> }).data['reason'], message: (err as Error).message };
  }
  throw new Error('expected MIRROR_ERROR');
}

describe('mirror', () => {
  it('set/push/status/unset, the three push errors, and hook pushes of main only', async () => {
    const dir = await newRepo();
    const mirror = join(makeTmpDir(), 'mirror.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', mirror]);

    expect(await mirrorStatus({ git: runner, memoryDir: dir })).toMatchObject({ url: null, log: [] });
    expect((await mirrorError(() => pushMirror({ git: runner, memoryDir: dir }))).reason).toBe('no_url');
    const set = await setMirror({ git: runner, memoryDir: dir, url: `${mirror}/` });
    expect(set).toEqual({ url: mirror, initialPush: null });
    expect(g(dir, ['config', 'gitmem.mirror.url'])).toBe(mirror);
    const noCommits = await mirrorError(() => pushMirror({ git: runner, memoryDir: dir }));
    expect(noCommits).toEqual({
      reason: 'no_commits',
      message: 'Memory repo has no commits yet — nothing to push. Make a change and commit first.',
    });

    commit(dir, 'one');
    await waitFor(() => logOf(dir).includes('exit=0'));
    expect(g(mirror, ['rev-parse', 'main'])).toBe(g(dir, ['rev-parse', 'HEAD']));
    expect(logOf(dir)).toMatch(/--- \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} [0-9a-f]{7} on main ---\n/);

    // Other branches (worker/reflection branches) never leak to the mirror.
    g(dir, ['checkout', '-q', '-b', 'gitmem/reflection/x']);
    const before = logOf(dir);
    commit(dir, 'two');
    await new Promise((r) => setTimeout(r, 300));
    expect(logOf(dir)).toBe(before);
    expect(g(mirror, ['rev-list', '--count', 'main'])).toBe('1');

    g(dir, ['checkout', '-q', '--detach', 'HEAD']);
    const detached = await mirrorError(() => pushMirror({ git: runner, memoryDir: dir }));
    expect(detached).toEqual({
      reason: 'detached_head',
      message: 'Memory repo is in a detached HEAD state — check out a branch before pushing.',
    });
    g(dir, ['checkout', '-q', 'main']);

    const pushed = await pushMirror({ git: runner, memoryDir: dir });
    expect(pushed).toMatchObject({ ok: true, url: mirror, branch: 'main' });
    const status = await mirrorStatus({ git: runner, memoryDir: dir });
    expect(status.url).toBe(mirror);
    expect(status.log.join('\n')).toContain('(gitmem mirror push)');
    expect(status.log.length).toBeLessThanOrEqual(20);

    expect(await unsetMirror({ git: runner, memoryDir: dir })).toEqual({ removed: mirror });
    expect(await unsetMirror({ git: runner, memoryDir: dir })).toEqual({ removed: null });
    const frozen = logOf(dir);
    commit(dir, 'three');
    await new Promise((r) => setTimeout(r, 300));
    expect(logOf(dir)).toBe(frozen);
  });

  it('a slow, failing mirror never delays the commit; the failure lands in the log', async () => {
    const slow = createServer((req, res) => {
      setTimeout(() => {
        res.writeHead(503);
        res.end('down');
      }, 1_500);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/mirror.git`;
    const dir = await newRepo();
    expect((await setMirror({ git: runner, memoryDir: dir, url })).initialPush).toBeNull();
    // The commit runs synchronously, so this process's server cannot answer the hook's push until it returns:
    // a hook that waited for the push would never let the commit finish (the 20 s guard turns that into a failure).
    writeFileSync(join(dir, 'system', 'first.md'), '---\ndescription: first\n---\nfirst\n');
    g(dir, ['add', '-A']);
    const committed = spawnSync('git', ['commit', '-q', '-m', 'first'], {
      cwd: dir,
      env,
      timeout: 20_000,
      encoding: 'utf8',
    });
    expect(committed.error).toBeUndefined();
    expect(committed.status).toBe(0);
    expect(logOf(dir).split('on main ---').pop()).not.toMatch(/exit=/); // the push is still waiting on the server
    await waitFor(() => /exit=(?!0)\d+/.test(logOf(dir).split('on main ---').pop() ?? ''));
    expect(logOf(dir)).toMatch(/503/);
    slow.closeAllConnections();
    await new Promise<void>((r) => slow.close(() => r()));
    const failed = await pushMirror({ git: runner, memoryDir: dir, timeoutMs: 2_000 });
    expect(failed).toMatchObject({ ok: false, branch: 'main', url });
    expect(failed.output).toMatch(/Failed to connect|Connection refused|Could not connect/i);
  });

  it('without the mirror helper (entry gone) the hook still pushes with plain git and says so in the log', async () => {
    const dir = await newRepo();
    const mirror = join(makeTmpDir(), 'mirror.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', mirror]);
    await setMirror({ git: runner, memoryDir: dir, url: mirror });
    writeFileSync(
      join(dir, '.git', 'hooks', 'post-commit'),
      postCommitScript(process.execPath, '/nonexistent/gitmem/mirror-hook.cjs'),
      { mode: 0o755 },
    );
    commit(dir, 'one');
    await waitFor(() => logOf(dir).includes('exit=0'));
    expect(g(mirror, ['rev-parse', 'main'])).toBe(g(dir, ['rev-parse', 'HEAD']));
    expect(logOf(dir)).toContain('the gitmem mirror helper /nonexistent/gitmem/mirror-hook.cjs is missing');
    expect((await mirrorStatus({ git: runner, memoryDir: dir })).last).toMatchObject({
      ok: true,
      trigger: 'post-commit',
    });
  });

  it("no token reaches the log: a query-string credential in a mirror URL set behind gitmem's back is redacted, by the helper and by the hook's plain-git fallback", async () => {
    const token = 'Zq9mirrorsecret1';
    const url = `http://127.0.0.1:${await closedPort()}/m.git?access_token=${token}`;
    const dir = await newRepo();
    commit(dir, 'one');
    g(dir, ['config', 'gitmem.mirror.url', url]); // (gitmem mirror set refuses it)
    await mirrorError(() => pushMirror({ git: runner, memoryDir: dir })); // the helper's push refuses it too
    writeFileSync(
      join(dir, '.git', 'hooks', 'post-commit'),
      postCommitScript(process.execPath, '/nonexistent/gitmem/mirror-hook.cjs'),
      { mode: 0o755 },
    );
    commit(dir, 'two');
    await waitFor(() => /exit=\d+\n$/.test(logOf(dir)));
    expect(logOf(dir)).toContain('access_token=<redacted>'); // git's own `fatal: unable to access '<url>'` line, kept
    expect(logOf(dir)).not.toContain(token);
    expect(JSON.stringify(await mirrorStatus({ git: runner, memoryDir: dir }))).not.toContain(token);
  });

  it('refuses mirror URLs with embedded credentials', async () => {
    const dir = await newRepo();
    await expect(setMirror({ git: runner, memoryDir: dir, url: 'https://me:tok-zzz@host/x.git' })).rejects.toThrow(
      /embedded credentials/,
    );
    expect(g(dir, ['config', '--get-regexp', '.', '']).includes('tok-zzz')).toBe(false);
  });
});
