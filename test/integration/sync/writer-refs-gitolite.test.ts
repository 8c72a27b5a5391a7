/**
 * writer-refs against a real multi-user server: gitolite3 over OpenSSH on 127.0.0.1, where each writer may push
 * only its own ref and only the integrator may push main. A writer configured with another writer's machine id,
 * or a writer acting as integrator, is refused by the server, and gitmem says so (PUSH_FAILED, the ref, DENIED).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { serversMissing, startGitolite, type Gitolite } from '../../helpers/git-servers.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-gitolite-');
const env = hermeticGitEnv(root);
const missing = serversMissing();
if (missing) process.stderr.write(`skipping the gitolite tests: ${missing}\n`);
let gl: Gitolite | undefined;

const CONF = [
  'repo mem',
  '    RW+ writers/ada/w1$ = w1',
  '    RW+ writers/ada/w2$ = w2',
  '    RW  main$           = integ',
  '    R                   = @all',
  '',
].join('\n');

beforeAll(async () => {
  if (!missing) gl = await startGitolite(makeTmpDir('gitmem-gl-'), ['w1', 'w2', 'integ'], CONF);
}, 30_000);
afterAll(() => {
  gl?.stop();
  cleanupTmp();
});

async function writer(user: string, machine: string) {
  const userEnv = gl!.envFor(user, env);
  const runner = createGitRunner({ env: userEnv, sleep: async () => undefined });
  const home = makeTmpDir(`gitmem-${user}-`);
  writeFileSync(join(home, 'config'), JSON.stringify({ sync: { mode: 'writer-refs', machine } }));
  const c = await cloneMemory({ git: runner, home, url: gl!.url('mem'), agentId: 'ada' });
  return { dir: c.memoryDir, memory: await createMemory({ home, agentId: 'ada', env: userEnv, git: runner }) };
}

describe.skipIf(missing !== undefined)('writer refs on gitolite (ssh, per-ref permissions)', () => {
  it('writers push their own refs, the integrator merges; pushing another ref or main is refused clearly', async () => {
    const integEnv = gl!.envFor('integ', env);
    const runner = createGitRunner({ env: integEnv, sleep: async () => undefined });
    const home = makeTmpDir('gitmem-integ-');
    const made = await initMemory({ home, agentId: 'ada', env: integEnv, git: runner });
    const integrator = await createMemory({ home, agentId: 'ada', env: integEnv, git: runner });
    await integrator.remote.set(gl!.url('mem'));
    expect((await integrator.sync()).status).toBe('pushed');

    const [w1, w2] = [await writer('w1', 'w1'), await writer('w2', 'w2')];
    for (const [i, w] of [w1, w2].entries())
      await w.memory.tool({
        command: 'create',
        reason: 'note',
        file_path: `notes/w${i + 1}.md`,
        description: 'n',
        file_text: `from w${i + 1}\n`,
      });
    const pushed = await Promise.all([w1.memory.sync(), w2.memory.sync()]);
    expect(pushed.map((r) => r.status)).toEqual(['pushed', 'pushed']);
    const r = await integrator.integrate();
    expect(r).toMatchObject({ status: 'integrated' });
    expect(r.writers.map((w) => [w.writer, w.outcome])).toEqual([
      ['writers/ada/w1', 'merged'],
      ['writers/ada/w2', 'merged'],
    ]);
    expect(git(made.memoryDir, ['show', 'HEAD:notes/w2.md'], env)).toContain('from w2');

    // w2 claiming w1's machine id: the server refuses writers/ada/w1 for w2.
    const liar = await writer('w2', 'w1');
    await liar.memory.tool({
      command: 'create',
      reason: 'x',
      file_path: 'notes/l.md',
      description: 'l',
      file_text: 'l\n',
    });
    const head = git(liar.dir, ['rev-parse', 'HEAD'], env);
    const refused = await liar.memory.sync();
    expect(refused).toMatchObject({ status: 'push_failed', error: { code: 'PUSH_FAILED' } });
    expect(refused.summary).toMatch(/refused the push to refs\/heads\/writers\/ada\/w1: .*DENIED/);
    expect(git(liar.dir, ['rev-parse', 'HEAD'], env)).toBe(head);

    // A writer acting as the integrator: main is refused, its local main put back.
    const w1Env = gl!.envFor('w1', env);
    const w1Runner = createGitRunner({ env: w1Env, sleep: async () => undefined });
    await w2.memory.tool({
      command: 'create',
      reason: 'y',
      file_path: 'notes/y.md',
      description: 'y',
      file_text: 'y\n',
    });
    expect((await w2.memory.sync()).status).toBe('pushed');
    const { integrateWriters } = await import('../../../src/sync/integrate-writers.js');
    const notIntegrator = await integrateWriters({ git: w1Runner, memoryDir: w1.dir });
    expect(notIntegrator.status).toBe('failed');
    expect(notIntegrator.summary).toMatch(/refused the push to refs\/heads\/main: .*DENIED/);
    // It pulled main (that is allowed), merged w2's ref, was refused, and put its main back to the pulled one.
    expect(git(w1.dir, ['rev-parse', 'HEAD'], env)).toBe(git(w1.dir, ['rev-parse', 'refs/remotes/origin/main'], env));
    expect(git(w1.dir, ['status', '--porcelain'], env)).toBe('');
  }, 60_000);
});
