// SHA-256 repositories end to end: with GIT_DEFAULT_HASH=sha256 (and with repositories git made with
// --object-format=sha256) init, tool writes, hook commits, a worker merge, sync to a bare SHA-256 remote and
// clones of SHA-256 remotes (empty or not, by path and over smart HTTP) all write objects of the repository's
// own format: `git fsck --strict` stays clean everywhere. An init over a repository without commits reports it
// as broken instead of "already exists".
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory } from '../../../src/memory.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { GITMEM_BIN, runGitmem } from '../../helpers/cli.js';
import { startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-sha256-');
const home = join(root, 'home');
const env = { ...hermeticGitEnv(root), GITMEM_HOME: home, GIT_DEFAULT_HASH: 'sha256' };
const g = (dir: string, args: string[]): string => git(dir, args, env);
const cli = (args: string[]) => runGitmem(env, args);
const memoryDir = (agent: string): string => join(home, 'agents', agent, 'memory');
let server: GitHttpServer;

/** The CLI without blocking this process: the smart-HTTP server answers from this event loop. */
function cliAsync(args: string[], e: Record<string, string> = env): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [GITMEM_BIN, ...args], { env: e, timeout: 20_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, stderr: String(stderr) });
    });
  });
}

function withoutDefaultHash(): Record<string, string> {
  const { GIT_DEFAULT_HASH: _unset, ...rest } = env;
  return rest;
}

function fsckClean(dir: string): void {
  // --strict: every object must be well-formed; a SHA-1 object in a SHA-256 store is "bad sha1 file".
  const out = execFileSync('git', ['fsck', '--strict', '--no-progress', '--no-dangling'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  expect(out).toBe('');
}

function expectSha256(dir: string): void {
  expect(g(dir, ['rev-parse', '--show-object-format'])).toBe('sha256');
  expect(g(dir, ['rev-parse', 'HEAD'])).toMatch(/^[0-9a-f]{64}$/);
  fsckClean(dir);
}

function bareSha256(name: string): string {
  const dir = join(root, `${name}.git`);
  g(root, ['init', '-q', '--bare', '--object-format=sha256', '-b', 'main', dir]);
  g(dir, ['config', 'http.receivepack', 'true']);
  return dir;
}

beforeAll(async () => {
  server = await startGitHttpServer({ root });
});
afterAll(async () => {
  await server.close();
  cleanupTmp();
});

describe('SHA-256 repositories', () => {
  it('init, tool writes (create, delete, after gc) and a hook commit keep fsck --strict clean', () => {
    expect(cli(['init', '--agent', 'a']).code).toBe(0);
    const dir = memoryDir('a');
    expectSha256(dir);
    expect(
      cli([
        'memory',
        'create',
        'notes/a.md',
        '--description',
        'A',
        '--text',
        'one',
        '--reason',
        'add a',
        '--agent',
        'a',
      ]).code,
    ).toBe(0);
    expect(
      cli([
        'memory',
        'create',
        'notes/b.md',
        '--description',
        'B',
        '--text',
        'two',
        '--reason',
        'add b',
        '--agent',
        'a',
      ]).code,
    ).toBe(0);
    expect(cli(['memory', 'delete', 'notes/b.md', '--reason', 'drop b', '--agent', 'a']).code).toBe(0);
    expectSha256(dir);
    g(dir, ['gc', '-q']); // trees now come from packs: the writer reads them through git
    expect(
      cli(['memory', 'str-replace', 'notes/a.md', '--old', 'one', '--new', 'ONE', '--reason', 'caps', '--agent', 'a'])
        .code,
    ).toBe(0);
    expectSha256(dir);
    expect(g(dir, ['status', '--porcelain'])).toBe('');
    writeFileSync(join(dir, 'notes/shell.md'), '---\ndescription: from a shell\n---\nhi\n');
    g(dir, ['add', 'notes/shell.md']);
    g(dir, ['commit', '-q', '-m', 'shell commit']);
    writeFileSync(join(dir, 'notes/bad.md'), 'no frontmatter\n');
    g(dir, ['add', 'notes/bad.md']);
    expect(() => g(dir, ['commit', '-q', '-m', 'refused'])).toThrow(/missing frontmatter/);
    g(dir, ['reset', '-q', 'notes/bad.md']);
    rmSync(join(dir, 'notes/bad.md'));
    expect(g(dir, ['log', '--format=%s'])).toBe('shell commit\ncaps\ndrop b\nadd b\nadd a\nchore: initialize memory');
    expectSha256(dir);
  });

  it('a failed write rolls back (index entries of the SHA-256 length) and a killed one is finished by the next', async () => {
    const dir = memoryDir('a');
    const state = (): string =>
      `${g(dir, ['rev-parse', 'HEAD'])}\n${g(dir, ['status', '--porcelain'])}\n${g(dir, ['ls-files', '-s'])}`;
    const before = state();
    const failing = await createMemory({
      home,
      agentId: 'a',
      env,
      onWriteStep: (s) => {
        if (s === 'published') throw new Error('injected');
      },
    });
    const patch =
      '*** Begin Patch\n*** Add File: notes/new.md\n+---\n+description: n\n+---\n+n\n*** Delete File: notes/shell.md\n*** End Patch';
    await expect(failing.applyPatch({ reason: 'fails', patch })).rejects.toThrow('injected');
    expect(state()).toBe(before);
    const index = join(process.cwd(), 'dist/index.js');
    const crasher = `const { createMemory } = await import(process.argv[1]);
      const memory = await createMemory({ home: process.argv[2], agentId: 'a', onWriteStep: (s) => { if (s === 'files') process.kill(process.pid, 'SIGKILL'); } });
      await memory.applyPatch({ reason: 'crashed', patch: process.argv[3] });`;
    const signal = await new Promise((resolve) => {
      execFile(process.execPath, ['--input-type=module', '-e', crasher, index, home, patch], { env }, (err) =>
        resolve((err as { signal?: string } | null)?.signal ?? null),
      );
    });
    expect(signal).toBe('SIGKILL');
    expect(
      cli(['memory', 'create', 'notes/after.md', '--description', 'after', '--reason', 'next', '--agent', 'a']).code,
    ).toBe(0);
    expect(g(dir, ['log', '-2', '--format=%s'])).toBe('next\ncrashed');
    expect(g(dir, ['status', '--porcelain'])).toBe('');
    expectSha256(dir);
  });

  it('init over a repository without commits says it is broken (not "already exists") and changes nothing', () => {
    const dir = memoryDir('empty');
    mkdirSync(dir, { recursive: true });
    g(dir, ['init', '-q', '-b', 'main']);
    const r = cli(['init', '--agent', 'empty']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: REPO_BROKEN: .*has no commit/);
    expect(r.stdout).not.toContain('already exists');
    expect(gitTry(dir, ['rev-parse', '--verify', '-q', 'HEAD'], env).status).not.toBe(0);
    expect(g(dir, ['status', '--porcelain'])).toBe('');
  });

  it('a repository git made with --object-format=sha256 (GIT_DEFAULT_HASH unset) gets SHA-256 objects', () => {
    const sha1Env = withoutDefaultHash();
    const dir = memoryDir('explicit');
    mkdirSync(dir, { recursive: true });
    git(dir, ['init', '-q', '--object-format=sha256', '-b', 'main'], sha1Env);
    writeFileSync(join(dir, 'note.md'), '---\ndescription: first\n---\nhi\n');
    git(dir, ['add', '-A'], sha1Env);
    git(dir, ['commit', '-q', '-m', 'first'], sha1Env);
    const r = runGitmem(sha1Env, [
      'memory',
      'create',
      'notes/x.md',
      '--description',
      'X',
      '--text',
      'x',
      '--reason',
      'x',
      '--agent',
      'explicit',
    ]);
    expect(r.stderr).toBe('');
    expectSha256(dir);
  });

  it('a worker merge in a SHA-256 repository', async () => {
    const dir = memoryDir('a');
    const runner = createGitRunner({ env });
    const out = await runMemoryWorker(
      { memoryDir: dir, description: 'office days' },
      async (ctx) => {
        writeFileSync(join(ctx.worktreeDir, 'system/office.md'), '---\ndescription: office\n---\nWednesdays at home\n');
        g(ctx.worktreeDir, ['add', '-A']);
        g(ctx.worktreeDir, ['commit', '-q', '-m', 'worker edit']);
      },
      { git: runner },
    );
    expect(out.status).toBe('merged');
    expect(
      cli([
        'memory',
        'insert',
        'system/office.md',
        '--line',
        '4',
        '--text',
        'Fridays too',
        '--reason',
        'after merge',
        '--agent',
        'a',
      ]).code,
    ).toBe(0);
    expectSha256(dir);
  });

  it('sync to a bare SHA-256 remote, then clones of it by path and over smart HTTP', async () => {
    const remote = bareSha256('mem');
    expect(cli(['remote', 'set', remote, '--agent', 'a']).code).toBe(0);
    const synced = cli(['sync', '--agent', 'a']);
    expect(synced.code, synced.stderr).toBe(0);
    fsckClean(remote);
    expect(g(remote, ['rev-parse', 'main'])).toBe(g(memoryDir('a'), ['rev-parse', 'HEAD']));
    for (const [agent, url] of [
      ['b', remote],
      ['c', `${server.url}/mem.git`],
    ] as const) {
      const cloned = await cliAsync(['clone', url, '--agent', agent]);
      expect(cloned.code, cloned.stderr).toBe(0);
      expect(
        cli([
          'memory',
          'create',
          `notes/${agent}.md`,
          '--description',
          agent,
          '--text',
          agent,
          '--reason',
          `from ${agent}`,
          '--agent',
          agent,
        ]).code,
      ).toBe(0);
      expectSha256(memoryDir(agent));
      const back = await cliAsync(['sync', '--agent', agent]);
      expect(back.code, back.stderr).toBe(0);
      fsckClean(remote);
    }
  });

  it('clones of EMPTY SHA-256 remotes (path and HTTP) take the remote format, even with GIT_DEFAULT_HASH unset', async () => {
    const sha1Env = withoutDefaultHash();
    for (const [agent, name, url] of [
      ['e1', 'empty1', undefined],
      ['e2', 'empty2', 'http'],
    ] as const) {
      const remote = bareSha256(name);
      const r = await cliAsync(
        ['clone', url === 'http' ? `${server.url}/${name}.git` : remote, '--agent', agent],
        sha1Env,
      );
      expect(r.code, r.stderr).toBe(0);
      expectSha256(memoryDir(agent));
      expect(g(remote, ['rev-parse', 'main'])).toBe(g(memoryDir(agent), ['rev-parse', 'HEAD']));
      fsckClean(remote);
    }
  });

  it('a clone of an empty SHA-1 remote stays SHA-1 under GIT_DEFAULT_HASH=sha256', () => {
    const remote = join(root, 'sha1.git');
    g(root, ['init', '-q', '--bare', '--object-format=sha1', '-b', 'main', remote]);
    const r = cli(['clone', remote, '--agent', 's1']);
    expect(r.code, r.stderr).toBe(0);
    expect(g(memoryDir('s1'), ['rev-parse', '--show-object-format'])).toBe('sha1');
    expect(g(remote, ['rev-parse', 'main'])).toMatch(/^[0-9a-f]{40}$/);
    fsckClean(memoryDir('s1'));
    fsckClean(remote);
  });
});
