/**
 * An HTTPS mirror uses the sync credentials (`GITMEM_GIT_TOKEN`, `$GITMEM_HOME/credentials`), scoped to
 * the mirror's origin and passed the same way as sync's (git's environment, never argv), redacted the same
 * way: `mirror set`, `mirror push`, and the detached post-commit push, which finds the credentials itself.
 * `mirror status` shows the last push's result. The token is never written to disk.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { resolveCredentials } from '../../../src/config.js';
import { mirrorStatus, pushMirror, setMirror } from '../../../src/sync/mirror.js';
import { lastMirrorPush } from '../../../src/sync/mirror-log.js';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { handleGit } from '../../../src/internals.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const forms = [TOKEN, Buffer.from(TOKEN).toString('base64'), Buffer.from(`x-access-token:${TOKEN}`).toString('base64')];
const root = makeTmpDir('gitmem-mirror-auth-');
const CLI = join(process.cwd(), 'dist/bin/gitmem.cjs');
let server: GitHttpServer;
let slow: GitHttpServer;

beforeAll(async () => {
  server = await startGitHttpServer({ root, token: TOKEN });
  slow = await startGitHttpServer({ root, token: TOKEN, delayMs: 300 });
});
afterAll(async () => {
  await Promise.all([server.close(), slow.close()]);
  cleanupTmp();
});

function expectNoToken(label: string, text: string): void {
  for (const f of forms) expect(text, `${label} leaks a token form`).not.toContain(f);
}

function grepTree(dir: string): void {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) grepTree(p);
    else if (statSync(p).size < 1_000_000) expectNoToken(p, readFileSync(p).toString('latin1'));
  }
}

/** A memory whose home holds a 0600 credentials file with `token`, and a fresh mirror repo on `srv`. */
async function mirrored(
  name: string,
  token = TOKEN,
  srv = server,
): Promise<MemoryFixture & { bare: string; url: string }> {
  const fx = await memoryFixture();
  writeFileSync(join(fx.home, 'credentials'), `token = ${token}\n`);
  chmodSync(join(fx.home, 'credentials'), 0o600);
  const bare = createBareRepo(root, name);
  return { ...fx, bare, url: `${srv.url}/${name}.git` };
}

const logOf = (dir: string): string => {
  const p = join(dir, '.git', 'gitmem-mirror.log');
  return existsSync(p) ? readFileSync(p, 'utf8') : '';
};

async function waitFor(check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const mirrorHead = (bare: string): string =>
  spawnSync('git', ['rev-parse', '-q', '--verify', 'refs/heads/main'], { cwd: bare, encoding: 'utf8' }).stdout.trim();

describe('an HTTPS mirror with the sync credentials', () => {
  it('mirror set pushes with the token; a tool write reaches the mirror; status shows the last push', async () => {
    const fx = await mirrored('m1');
    const credentials = resolveCredentials({ env: fx.env, home: fx.home });
    const set = await setMirror({
      git: handleGit(fx.memory),
      memoryDir: fx.dir,
      url: fx.url,
      ...(credentials ? { credentials } : {}),
      home: fx.home,
    });
    expect(set.initialPush).toMatchObject({ ok: true, branch: 'main' });
    expect(mirrorHead(fx.bare)).toBe(git(fx.dir, ['rev-parse', 'HEAD'], fx.env));

    const r = await fx.memory.tool({
      command: 'create',
      reason: 'mirror me',
      file_path: 'notes/m.md',
      description: 'm',
      file_text: 'm',
    });
    await waitFor(() => mirrorHead(fx.bare) === r.commit);
    // The hook moves the mirror's ref before it logs: wait for ITS entry, not the earlier `mirror set` one.
    await waitFor(() => lastMirrorPush(logOf(fx.dir))?.commit === r.commit.slice(0, 7));
    const status = await mirrorStatus({ git: handleGit(fx.memory), memoryDir: fx.dir });
    expect(status.last).toMatchObject({
      ok: true,
      commit: r.commit.slice(0, 7),
      branch: 'main',
      trigger: 'post-commit',
    });
    expectNoToken('mirror log', logOf(fx.dir));
    grepTree(join(fx.dir, '.git'));
    // Only the mirror's origin ever saw the header.
    expect(server.requests.filter((q) => q.path.startsWith('/m1.git')).every((q) => q.authorized)).toBe(true);
  }, 30_000);

  it('a raw git commit pushes too: the hook finds the home from the repo path and reads its credentials', async () => {
    const fx = await mirrored('m2');
    git(fx.dir, ['config', 'gitmem.mirror.url', fx.url], fx.env);
    const { GITMEM_HOME: _home, ...shellEnv } = fx.env; // a shell that knows nothing about gitmem
    writeFileSync(join(fx.dir, 'system', 'raw.md'), '---\ndescription: raw\n---\nraw\n');
    git(fx.dir, ['add', '-A'], shellEnv);
    git(fx.dir, ['commit', '-q', '-m', 'raw commit'], shellEnv);
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    await waitFor(() => mirrorHead(fx.bare) === head);
    expectNoToken('mirror log', logOf(fx.dir));
  }, 30_000);

  it('a rejected token: the log and mirror status say so, without the token', async () => {
    const fx = await mirrored('m3', `${TOKEN}-revoked`);
    git(fx.dir, ['config', 'gitmem.mirror.url', fx.url], fx.env);
    await fx.memory.tool({ command: 'create', reason: 'x', file_path: 'notes/x.md', description: 'x', file_text: 'x' });
    await waitFor(() => /exit=1\n$/.test(logOf(fx.dir)));
    const status = await mirrorStatus({ git: handleGit(fx.memory), memoryDir: fx.dir });
    expect(status.last).toMatchObject({ ok: false, trigger: 'post-commit' });
    expect(status.last?.output).toMatch(/rejected the token \(HTTP 401\)/);
    expect(mirrorHead(fx.bare)).toBe('');
    expectNoToken('mirror log', logOf(fx.dir).replaceAll(`${TOKEN}-revoked`, ''));
    expect(logOf(fx.dir)).not.toContain('-revoked');
  }, 30_000);

  it('the CLI: mirror push with GITMEM_GIT_TOKEN, and no process ever carries the token on its command line', async () => {
    const fx = await mirrored('m4', 'not-this-one', slow);
    const env = { ...fx.env, GITMEM_GIT_TOKEN: TOKEN };
    git(fx.dir, ['config', 'gitmem.mirror.url', fx.url], fx.env);
    const child = spawn(process.execPath, [CLI, 'mirror', 'push', '--agent', 'agent-1', '--json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    let done = false;
    const code = new Promise<number | null>((resolve) => child.on('close', (c) => ((done = true), resolve(c))));
    const seen = new Set<string>();
    while (!done) {
      for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
        try {
          seen.add(readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' '));
        } catch {
          // ended meanwhile
        }
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await code, out).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ ok: true, branch: 'main' });
    expect([...seen].some((c) => /git(-remote-https?)? .*(push|m4\.git)/.test(c))).toBe(true);
    for (const c of seen) expectNoToken(`cmdline ${c.slice(0, 60)}`, c);
    expect(mirrorHead(fx.bare)).toBe(git(fx.dir, ['rev-parse', 'HEAD'], fx.env));
    const status = spawnSync(process.execPath, [CLI, 'mirror', 'status', '--agent', 'agent-1', '--json'], {
      env,
      encoding: 'utf8',
    });
    expect(JSON.parse(status.stdout)).toMatchObject({ last: { ok: true, trigger: 'mirror push' } });
  }, 30_000);

  it('the token goes only to the mirror origin a credentials url covers', async () => {
    const fx = await mirrored('m5');
    writeFileSync(join(fx.home, 'credentials'), `token = ${TOKEN}\nurl = http://127.0.0.1:1/\n`);
    const credentials = resolveCredentials({ env: fx.env, home: fx.home });
    await setMirror({
      git: handleGit(fx.memory),
      memoryDir: fx.dir,
      url: fx.url,
      ...(credentials ? { credentials } : {}),
    });
    const r = await pushMirror({
      git: createGitRunner({ env: fx.env }),
      memoryDir: fx.dir,
      ...(credentials ? { credentials } : {}),
    });
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/asked for credentials and none are configured/);
    expect(
      server.requests.filter((q) => q.path.startsWith('/m5.git')).every((q) => q.authorization === undefined),
    ).toBe(true);
  });
});
