// A confined writer's hook channel (serveHookValidation) and the hook's perl client against hostile or
// broken servers: the channel answers for its own worktree only, with the verdict of the Node hook; the
// client passes a commit only on a complete pass verdict, never because nobody (or half of somebody) answered.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { CLIENT_FAIL, CLIENT_PASS, hookClientPerl } from '../../../src/hooks/hook-client-script.js';
import { preCommitVerdict } from '../../../src/hooks/pre-commit.js';
import { serveDaemonHooks } from '../../../src/hooks/hook-daemon.js';
import { listenHookValidation } from '../../../src/hooks/hook-server.js';
import { MAX_HOOK_REQUEST_BYTES, parseAnswer, renderHookRequest } from '../../../src/hooks/hook-wire.js';
import { serveHookValidation, type HookChannel } from '../../../src/hooks/serve-hook-validation.js';
import { hookedRepo } from '../../helpers/hooked-repo.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let root: string;
let repo: string;
let env: Record<string, string>;
let channel: HookChannel;

/** Runs a child without blocking this process's event loop (the servers under test live in it). */
function run(
  cmd: string,
  args: string[],
  o: { cwd: string; env: Record<string, string> },
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...o, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

function client(cwd: string, extra: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return run('perl', ['-e', hookClientPerl(), '--', '/nowhere/dist/bin/pre-commit.cjs'], {
    cwd,
    env: { ...env, ...extra },
  });
}

beforeAll(async () => {
  root = makeTmpDir('gitmem-hookchan-');
  env = hermeticGitEnv(root);
  repo = join(root, 'memory');
  await hookedRepo(repo, env);
  channel = await serveHookValidation({
    launch: sharedShellLauncher(),
    worktree: repo,
    gitEnv: { GIT_DIR: join(repo, '.git') },
    env,
  });
});

afterAll(async () => {
  await channel.close();
  cleanupTmp();
});

describe("a writer's hook channel", () => {
  it("gives the Node hook's verdict for its worktree, through the client", async () => {
    writeFileSync(join(repo, 'system', 'b.md'), 'no frontmatter\n');
    git(repo, ['add', '-A'], env);
    const viaChannel = await client(repo, { ...channel.env, GIT_INDEX_FILE: '.git/index' });
    const node = await preCommitVerdict(
      createGitRunner({ env: { ...env, GIT_INDEX_FILE: '.git/index' } }),
      repo,
      undefined,
    );
    expect(viaChannel.status).toBe(CLIENT_FAIL);
    expect(viaChannel.stderr).toBe(node.stderr);
    expect(node.stderr).toContain('system/b.md: missing frontmatter');
    git(repo, ['reset', '-q', '--hard'], env);
    expect((await client(repo, { ...channel.env, GIT_INDEX_FILE: '.git/index' })).status).toBe(CLIENT_PASS);
  });

  it("gives a writer a perl pre-commit hook with the same verdicts, and Node's when the channel is gone", async () => {
    const ch = await serveHookValidation({
      launch: sharedShellLauncher(),
      worktree: repo,
      gitEnv: { GIT_DIR: join(repo, '.git'), GIT_COMMON_DIR: join(repo, '.git') },
      env,
    });
    try {
      const hook = join(ch.hooksDir, 'pre-commit');
      expect(readFileSync(hook, 'utf8')).toMatch(/^#!\/(usr\/)?bin\/perl\n/);
      expect(existsSync(join(ch.hooksDir, 'post-commit'))).toBe(false);
      writeFileSync(join(repo, 'system', 'd.md'), 'no frontmatter\n');
      git(repo, ['add', '-A'], env);
      const node = await preCommitVerdict(
        createGitRunner({ env: { ...env, GIT_INDEX_FILE: '.git/index' } }),
        repo,
        undefined,
      );
      const staged = { ...env, GIT_INDEX_FILE: '.git/index' };
      const asked = await run(hook, [], { cwd: repo, env: { ...staged, ...ch.env } });
      // no channel (a writer that unset it, or nobody listening): Node decides, with the same words
      const fallback = await run(hook, [], { cwd: repo, env: { ...staged, GITMEM_SANDBOX: 'bwrap' } });
      expect([asked.status, asked.stderr]).toEqual([1, node.stderr]);
      expect([fallback.status, fallback.stderr]).toEqual([1, node.stderr]);
      git(repo, ['reset', '-q', '--hard'], env);
      expect((await run(hook, [], { cwd: repo, env: { ...staged, ...ch.env } })).status).toBe(0);
      expect((await run(hook, [], { cwd: repo, env: { ...staged, GITMEM_SANDBOX: 'bwrap' } })).status).toBe(0);
    } finally {
      await ch.close();
    }
  });

  it("answers a real commit's hook (git runs it; the channel's env is all the hook needs)", async () => {
    writeFileSync(join(repo, 'system', 'c.md'), '---\ndescription: c\n---\nc\n');
    git(repo, ['add', '-A'], env);
    const ok = await run('git', ['commit', '-q', '-m', 'c'], { cwd: repo, env: { ...env, ...channel.env } });
    expect(ok.status, ok.stderr).toBe(0);
    writeFileSync(join(repo, 'system', 'c.md'), 'broken\n');
    const bad = await run('git', ['commit', '-qam', 'c2'], { cwd: repo, env: { ...env, ...channel.env } });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('system/c.md: missing frontmatter');
    git(repo, ['reset', '-q', '--hard'], env);
  });

  it('refuses another directory, an index outside its git dir, a linked index, junk and oversized requests', async () => {
    const other = join(root, 'other');
    git(root, ['init', '-q', other], env);
    expect((await client(other, { ...channel.env, GIT_INDEX_FILE: '.git/index' })).status).toBe(75);
    writeFileSync(join(root, 'index'), readFileSync(join(repo, '.git', 'index')));
    expect((await client(repo, { ...channel.env, GIT_INDEX_FILE: join(root, 'index') })).status).toBe(75);
    symlinkSync(join(root, 'index'), join(repo, '.git', 'index.lock'));
    expect((await client(repo, { ...channel.env, GIT_INDEX_FILE: '.git/index.lock' })).status).toBe(75);
    rmSync(join(repo, '.git', 'index.lock'));
    expect((await client(repo, { ...channel.env })).status).toBe(75); // no index named
    const raw = async (data: Buffer) => parseAnswer(await send(channel.socketPath, data));
    expect(await raw(Buffer.from('hello\0\0'))).toHaveProperty('refused');
    expect(
      await raw(renderHookRequest({ cwd: repo, env: { GIT_INDEX_FILE: '.git/index', GIT_DIR: '/etc' } })),
    ).toMatchObject({ code: 0 }); // its own GIT_DIR wins
    expect(
      await raw(Buffer.concat([Buffer.from('gitmem-hook 1\0cwd='), Buffer.alloc(MAX_HOOK_REQUEST_BYTES + 10, 0x61)])),
    ).toHaveProperty('refused');
  });

  it('runs a bounded number of checks at once: the rest are refused (their hooks fall back), none queued', async () => {
    const socket = join(makeTmpDir('gitmem-hookcap-'), 's.sock');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let started = 0;
    const server = await listenHookValidation({
      socket,
      maxChecks: 2,
      admit: () => ({ cwd: repo, gitEnv: {}, env }),
      validate: async () => (started++, await held, { code: 0, stderr: '' }),
    });
    try {
      const request = renderHookRequest({ cwd: repo, env: { GIT_INDEX_FILE: '.git/index' } });
      const answers = Array.from({ length: 6 }, () => send(socket, request).then(parseAnswer));
      for (let i = 0; i < 200 && started < 2; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 100)); // the other four are answered meanwhile, without a check
      expect(started).toBe(2);
      release();
      const all = await Promise.all(answers);
      expect(all.filter((a) => 'refused' in a)).toHaveLength(4);
      expect(all.filter((a) => 'code' in a && a.code === 0)).toHaveLength(2);
    } finally {
      release();
      await server.close();
    }
  });

  it('refuses a socket path too long for a unix socket instead of listening at a shortened one', async () => {
    const dir = makeTmpDir('gitmem-hooklong-');
    const socket = join(dir, `${'d'.repeat(120 - dir.length)}.sock`);
    const opts = { socket, admit: () => 'refused' as const, validate: async () => ({ code: 0 as const, stderr: '' }) };
    await expect(listenHookValidation(opts)).rejects.toThrow(/too long for a unix socket/);
    expect(readdirSync(dir)).toEqual([]); // nothing left listening anywhere in it
  });

  it('knows when its socket path was replaced by another server (which then answers), and lets go without removing it', async () => {
    const socket = join(makeTmpDir('gitmem-hookown-'), 's.sock');
    const opts = { socket, admit: () => 'refused' as const, validate: async () => ({ code: 0 as const, stderr: '' }) };
    const first = await listenHookValidation(opts);
    expect(first.holds()).toBe(true);
    rmSync(socket); // another daemon found it stale and took the path
    const second = await listenHookValidation(opts);
    expect([first.holds(), second.holds()]).toEqual([false, true]);
    await first.close();
    expect(existsSync(socket)).toBe(true);
    await second.close();
    expect(existsSync(socket)).toBe(false);
  });

  it('is gone once closed: the hook then falls back (exit 75), and its directory is removed', async () => {
    const ch = await serveHookValidation({
      launch: sharedShellLauncher(),
      worktree: repo,
      gitEnv: { GIT_DIR: join(repo, '.git') },
      env,
    });
    await ch.close();
    expect(existsSync(ch.dir)).toBe(false);
    expect((await client(repo, { ...ch.env, GIT_INDEX_FILE: '.git/index' })).status).toBe(75);
  });
});

function send(socket: string, data: Buffer): Promise<Buffer> {
  return new Promise((resolve) => {
    const c = connect(socket);
    const chunks: Buffer[] = [];
    c.on('connect', () => c.write(data));
    c.on('data', (d: Buffer) => chunks.push(d));
    c.on('close', () => resolve(Buffer.concat(chunks)));
    c.on('error', () => resolve(Buffer.concat(chunks)));
  });
}

/** A fake server that answers every connection with `reply` (after reading the request) and closes. */
async function fake(reply: Buffer | null): Promise<{ socket: string; server: Server }> {
  const socket = join(makeTmpDir('gitmem-hookfake-'), 's.sock');
  const server = createServer((c) => {
    c.on('data', () => (reply === null ? c.destroy() : c.end(reply)));
  });
  await new Promise<void>((r) => server.listen(socket, r));
  return { socket, server };
}

describe("the hook's client", () => {
  it('passes only on a complete pass verdict', async () => {
    const cases: Array<[Buffer | null, number]> = [
      [Buffer.from('gitmem-hook-verdict 0 0\n'), CLIENT_PASS],
      [Buffer.from('gitmem-hook-verdict 1 4\nbad\n'), CLIENT_FAIL],
      [Buffer.from('gitmem-hook-verdict 0 5\nab'), 75], // cut short
      [Buffer.from('gitmem-hook-verdict 0 0'), 75], // no end of line
      [Buffer.from('gitmem-hook-refused busy\n'), 75],
      [Buffer.from('ok\n'), 75],
      [Buffer.from(''), 75],
      [null, 75], // closed without a word
    ];
    for (const [reply, want] of cases) {
      const f = await fake(reply);
      const r = await client(repo, { GITMEM_HOOK_SOCKET: f.socket, GIT_INDEX_FILE: '.git/index' });
      expect(r.status, String(reply)).toBe(want);
      if (want === CLIENT_FAIL) expect(r.stderr).toBe('bad\n');
      await new Promise((res) => f.server.close(res));
    }
    expect((await client(repo, { GITMEM_HOOK_SOCKET: join(root, 'no-such.sock') })).status).toBe(75);
  });
});

describe('a hook server', () => {
  it('drops a request that never completes, and one whose check hangs, without a verdict', async () => {
    const socket = join(makeTmpDir('gitmem-hookslow-'), 's.sock');
    const server = await listenHookValidation({
      socket,
      admit: (r) => ({ cwd: r.cwd, gitEnv: {}, env: {} }),
      validate: () => new Promise(() => undefined),
      requestMs: 200,
    });
    try {
      expect(await send(socket, Buffer.from('gitmem-hook 1\0cwd=/'))).toEqual(Buffer.alloc(0)); // never finished
      expect(await send(socket, renderHookRequest({ cwd: '/', env: {} }))).toEqual(Buffer.alloc(0)); // a check that hangs
    } finally {
      await server.close();
    }
  });
});

describe("the daemon's hook socket", () => {
  it('refuses once the install it runs was rebuilt to other code under it, and lets go of the socket', async () => {
    const runtimeDir = makeTmpDir('gitmem-hookrt-');
    const entry = join(runtimeDir, 'pre-commit.cjs');
    writeFileSync(entry, '// build 1\n');
    const hooks = serveDaemonHooks({ runtimeDir, entry, env, peerRefusal: () => undefined, retryMs: 50 });
    try {
      for (let i = 0; i < 100 && !existsSync(hooks.socket); i++) await new Promise((r) => setTimeout(r, 20));
      const request = renderHookRequest({ cwd: repo, env: { GIT_INDEX_FILE: '.git/index' } });
      expect(parseAnswer(await send(hooks.socket, request))).toMatchObject({ code: 0 });
      rmSync(entry);
      writeFileSync(entry, '// build 1\n'); // rebuilt to the same bytes: still the code it runs
      expect(parseAnswer(await send(hooks.socket, request))).toMatchObject({ code: 0 });
      writeFileSync(entry, '// build 2, a different size\n');
      expect(parseAnswer(await send(hooks.socket, request))).toHaveProperty('refused');
      for (let i = 0; i < 100 && existsSync(hooks.socket); i++) await new Promise((r) => setTimeout(r, 20));
      expect(existsSync(hooks.socket)).toBe(false);
    } finally {
      await hooks.close();
    }
  });
});
