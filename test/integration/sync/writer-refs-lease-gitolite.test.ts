/**
 * `sync.integrator = lease` against a real multi-user server: gitolite3 over OpenSSH on 127.0.0.1. Lease integration
 * needs writers allowed to push main and force-push refs/gitmem/lease (docs/sync.md); a writer without those rights
 * still has its own write pushed, and its integration is reported failed with the server's refusal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { serversMissing, startGitolite, type Gitolite } from '../../helpers/git-servers.js';
import { createNote } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-gitolite-lease-');
const env = hermeticGitEnv(root);
const missing = serversMissing();
if (missing) process.stderr.write(`skipping the gitolite lease tests: ${missing}\n`);
let gl: Gitolite | undefined;

const CONF = [
  'repo mem',
  '    RW+ writers/ada/w1$     = w1',
  '    RW+ writers/ada/w2$     = w2',
  '    RW+ writers/ada/w3$     = w3',
  '    RW  main$               = op w1 w2',
  '    RW+ refs/gitmem/lease$  = w1 w2',
  '    R                       = @all',
  '',
].join('\n');

beforeAll(async () => {
  if (!missing) gl = await startGitolite(makeTmpDir('gitmem-gl-'), ['op', 'w1', 'w2', 'w3'], CONF);
}, 30_000);
afterAll(() => {
  gl?.stop();
  cleanupTmp();
});

async function writer(user: string) {
  const userEnv = gl!.envFor(user, env);
  const runner = createGitRunner({ env: userEnv, sleep: async () => undefined });
  const home = makeTmpDir(`gitmem-${user}-`);
  const sync = { mode: 'writer-refs', machine: user, integrator: 'lease', pushesPerMinute: 600 };
  writeFileSync(join(home, 'config'), JSON.stringify({ sync }));
  const c = await cloneMemory({ git: runner, home, url: gl!.url('mem'), agentId: 'ada' });
  return { dir: c.memoryDir, memory: await createMemory({ home, agentId: 'ada', env: userEnv, git: runner }) };
}

describe.skipIf(missing !== undefined)('lease integration on gitolite (ssh, per-ref permissions)', () => {
  it('writers allowed main and the lease integrate each other; one without those rights is refused clearly', async () => {
    const opEnv = gl!.envFor('op', env);
    const runner = createGitRunner({ env: opEnv, sleep: async () => undefined });
    const home = makeTmpDir('gitmem-op-');
    await initMemory({ home, agentId: 'ada', env: opEnv, git: runner });
    const op = await createMemory({ home, agentId: 'ada', env: opEnv, git: runner });
    await op.remote.set(gl!.url('mem'));
    expect((await op.sync()).status).toBe('pushed');

    const [w1, w2] = [await writer('w1'), await writer('w2')];
    for (let round = 0; round < 1; round++) {
      for (const [i, w] of [w1, w2].entries()) await w.memory.tool(createNote(`notes/w${i + 1}-${round}.md`));
      const results = await Promise.all([w1.memory.sync(), w2.memory.sync()]);
      for (const r of results) expect(r.status, r.summary).toBe('pushed');
      // Racing for the lease: one integrates, the other hands its ref to the holder (or finds it done).
      expect(results.map((r) => r.integration?.status)).toContain('integrated');
    }
    // Every write is on main (read as w1: R = @all).
    await w1.memory.sync();
    const main = git(w1.dir, ['ls-tree', '-r', '--name-only', 'origin/main', 'notes/'], env).split('\n');
    for (const p of ['w1-0', 'w2-0']) expect(main).toContain(`notes/${p}.md`);

    // w3 may push only its own ref: the write is pushed, the lease refused and reported.
    const w3 = await writer('w3');
    await w3.memory.tool(createNote('notes/w3.md'));
    const r = await w3.memory.sync();
    expect(r.status).toBe('pushed');
    expect(r.integration?.status).toBe('failed');
    expect(r.integration?.summary).toMatch(/refused the push to refs\/gitmem\/lease: .*DENIED/);
    expect(git(w3.dir, ['status', '--porcelain'], env)).toBe('');
  }, 300_000);
});
