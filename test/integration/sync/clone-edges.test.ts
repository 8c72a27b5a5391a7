// Clone at the edges, against real remotes: an EMPTY remote is initialised (starter persona/human, the first
// commit, hooks) and pushed, so the agent is ready to use and a second machine gets the same history; a
// failed clone (a path that does not exist, a directory that is not a repository, a wrong token on the
// smart-HTTP server, a remote without main, an empty remote refusing the first push) leaves no agent
// directory behind, and never removes one that was there before.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory, listAgents } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const root = makeTmpDir('gitmem-clone-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });
let server: GitHttpServer;

beforeAll(async () => {
  server = await startGitHttpServer({ root, token: TOKEN });
});
afterAll(async () => {
  await server.close();
  cleanupTmp();
});

const cli = (args: string[]) => runMain(args, env, { cwd: root, sep: '\n' });

/** A failed clone: the error, and nothing under the home's agents/ but what was there before. */
async function expectCleanFailure(home: string, url: string, agentId: string, before: string[] = []): Promise<unknown> {
  const err = await cloneMemory({ git: runner, home, url, agentId, retry: { attempts: 1, baseDelayMs: 1 } }).then(
    () => new Error('the clone should fail'),
    (e: unknown) => e,
  );
  expect(isMemoryError(err), String(err)).toBe(true);
  const agents = join(home, 'agents');
  expect(existsSync(agents) ? readdirSync(agents) : [], `left behind after: ${String(err)}`).toEqual(before);
  expect(listAgents(home)).toEqual([]);
  return err;
}

describe('cloning an empty remote', () => {
  it('initialises the agent, pushes its first commit, and a second machine gets the same history', async () => {
    const bare = join(makeTmpDir('gitmem-remote-'), 'ada.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url: bare });
    expect(r).toMatchObject({ agentId: 'ada', commits: 1, initialized: true });
    for (const f of ['system/persona.md', 'system/human.md'])
      expect(readFileSync(join(r.memoryDir, f), 'utf8')).toMatch(/^---\ndescription: /);
    for (const hook of ['pre-commit', 'post-commit'])
      expect(existsSync(join(r.memoryDir, '.git', 'hooks', hook))).toBe(true);
    expect(g(bare, ['rev-parse', 'refs/heads/main'])).toBe(r.head);
    expect(g(r.memoryDir, ['rev-parse', '--abbrev-ref', 'main@{upstream}'])).toBe('origin/main');
    expect(g(r.memoryDir, ['status', '--porcelain'])).toBe('');
    expect(g(r.memoryDir, ['config', 'gitmem.agentId'])).toBe('ada');
    expect(g(r.memoryDir, ['log', '-1', '--format=%an <%ae>'])).toBe('ada <ada@gitmem.local>');
    expect(readdirSync(join(home, 'agents', 'ada')).sort()).toEqual(['memory', 'memory-worktrees']);

    const memory = await createMemory({ home, agentId: 'ada', env, git: runner });
    await memory.tool({
      command: 'create',
      file_path: 'system/tea.md',
      description: 'drinks',
      file_text: 'green tea',
      reason: 'Ada likes green tea',
    });
    expect((await syncMemory({ git: runner, memoryDir: r.memoryDir })).status).toBe('pushed');

    const second = await cloneMemory({ git: runner, home: makeTmpDir('gitmem-home-'), url: bare });
    expect(second).toMatchObject({ agentId: 'ada', commits: 2, initialized: false });
  });

  it('over smart HTTP with a token, and through the CLI', async () => {
    createBareRepo(root, 'empty-http');
    const home = makeTmpDir('gitmem-home-');
    writeFileSync(join(home, 'credentials'), `${TOKEN}\n`);
    chmodSync(join(home, 'credentials'), 0o600);
    const r = await cli(['clone', `${server.url}/empty-http.git`, '--home', home, '--agent', 'web']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/initialised/);
    expect(g(join(root, 'empty-http.git'), ['rev-list', '--count', 'main'])).toBe('1');
    expect(r.out).not.toContain(TOKEN);
  });

  it('an empty remote that refuses the push: a clear error, nothing left, the remote still empty', async () => {
    const bare = join(makeTmpDir('gitmem-remote-'), 'locked.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    writeFileSync(join(bare, 'hooks', 'pre-receive'), '#!/bin/sh\necho "pushes are closed" >&2\nexit 1\n', {
      mode: 0o755,
    });
    const err = await expectCleanFailure(makeTmpDir('gitmem-home-'), bare, 'locked');
    expect((err as Error).message).toMatch(/empty remote/);
    expect(g(bare, ['for-each-ref'])).toBe('');
  });
});

describe('a failed clone leaves no agent directory', () => {
  it('a path that does not exist', async () => {
    await expectCleanFailure(makeTmpDir('gitmem-home-'), join(root, 'no-such-remote.git'), 'nowhere');
  });

  it('a directory that is not a git repository', async () => {
    const plain = makeTmpDir('gitmem-plain-');
    writeFileSync(join(plain, 'notes.txt'), 'not a repo\n');
    await expectCleanFailure(makeTmpDir('gitmem-home-'), plain, 'plain');
  });

  it('a wrong token on the smart-HTTP server', async () => {
    const remoteUrl = `${server.url}/${seedRemote('guarded')}.git`;
    const home = makeTmpDir('gitmem-home-');
    const err = await cloneMemory({
      git: runner,
      home,
      url: remoteUrl,
      credentials: { token: `${TOKEN}x`, scheme: 'bearer', username: 'x-access-token', source: 'env' },
    }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'GIT_AUTH')).toBe(true);
    expect(existsSync(join(home, 'agents'))).toBe(false);
  });

  it('a remote with branches but no main', async () => {
    const bare = join(makeTmpDir('gitmem-remote-'), 'other.git');
    const work = makeTmpDir();
    g(work, ['init', '-q', '-b', 'trunk']);
    writeFileSync(join(work, 'a.md'), 'x\n');
    g(work, ['add', '-A']);
    g(work, ['commit', '-qm', 'x']);
    g(root, ['clone', '-q', '--bare', work, bare]);
    const err = await expectCleanFailure(makeTmpDir('gitmem-home-'), bare, 'other');
    expect((err as Error).message).toMatch(/no main/);
  });

  it('keeps what was there before: an agent directory with state, and other agents', async () => {
    const home = makeTmpDir('gitmem-home-');
    await initMemory({ home, agentId: 'kept', env, git: runner });
    mkdirSync(join(home, 'agents', 'mine'), { recursive: true });
    writeFileSync(join(home, 'agents', 'mine', 'config.json'), '{}\n');
    const err = await cloneMemory({
      git: runner,
      home,
      url: join(root, 'missing.git'),
      agentId: 'mine',
      retry: { attempts: 1, baseDelayMs: 1 },
    }).catch((e: unknown) => e);
    expect(isMemoryError(err)).toBe(true);
    expect(readdirSync(join(home, 'agents')).sort()).toEqual(['kept', 'mine']);
    expect(readdirSync(join(home, 'agents', 'mine'))).toEqual(['config.json']);
    expect(listAgents(home).map((a) => a.agentId)).toEqual(['kept']);
  });

  it('after a failed clone, init and a later clone of the same id work', async () => {
    const home = makeTmpDir('gitmem-home-');
    await expectCleanFailure(home, join(root, 'gone.git'), 'later');
    const bare = join(makeTmpDir('gitmem-remote-'), 'later.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    expect((await cloneMemory({ git: runner, home, url: bare })).commits).toBe(1);
  });
});

function seedRemote(name: string): string {
  const bare = createBareRepo(root, name);
  const work = makeTmpDir();
  g(work, ['init', '-q', '-b', 'main']);
  writeFileSync(join(work, 'persona.md'), 'hello\n');
  g(work, ['add', '-A']);
  g(work, ['commit', '-qm', 'seed']);
  g(work, ['push', '-q', bare, 'main']);
  return name;
}
