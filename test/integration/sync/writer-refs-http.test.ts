/**
 * writer-refs over smart HTTP as deployed: `git http-backend` behind a private nginx on loopback. Writers push
 * their own refs through nginx at once, the integrator merges them, every writer then reads the merged main.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { nginxMissing, startNginx } from '../../helpers/git-servers.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-nginx-');
const env = hermeticGitEnv(root);
const runner = createGitRunner({ env, sleep: async () => undefined });
const missing = nginxMissing();
if (missing) process.stderr.write(`skipping the nginx smart-HTTP tests: ${missing}\n`);
let backend: GitHttpServer | undefined;
let front: { url: string; stop(): void } | undefined;

beforeAll(async () => {
  if (missing) return;
  backend = await startGitHttpServer({ root });
  front = await startNginx(makeTmpDir('gitmem-nginx-conf-'), backend.url);
}, 30_000);
afterAll(async () => {
  front?.stop();
  await backend?.close();
  cleanupTmp();
});

describe.skipIf(missing !== undefined)('writer refs over smart HTTP behind nginx', () => {
  it('writers push their refs through nginx at once; the integrator merges them into main', async () => {
    const bare = createBareRepo(root, 'team');
    const url = `${front!.url}/team.git`;
    const home = makeTmpDir('gitmem-integ-');
    const made = await initMemory({ home, agentId: 'ada', env, git: runner });
    const integrator = await createMemory({ home, agentId: 'ada', env, git: runner });
    await integrator.remote.set(url);
    expect((await integrator.sync()).status).toBe('pushed');
    const writers = [];
    for (const machine of ['m1', 'm2', 'm3']) {
      const wHome = makeTmpDir(`gitmem-${machine}-`);
      writeFileSync(join(wHome, 'config'), JSON.stringify({ sync: { mode: 'writer-refs', machine } }));
      const c = await cloneMemory({ git: runner, home: wHome, url, agentId: 'ada' });
      const memory = await createMemory({ home: wHome, agentId: 'ada', env, git: runner });
      await memory.tool({
        command: 'create',
        reason: 'note',
        file_path: `notes/${machine}.md`,
        description: machine,
        file_text: `${machine}\n`,
      });
      writers.push({ dir: c.memoryDir, memory });
    }
    const pushed = await Promise.all(writers.map((w) => w.memory.sync()));
    expect(pushed.map((r) => r.status)).toEqual(['pushed', 'pushed', 'pushed']);
    const r = await integrator.integrate();
    expect(r.status).toBe('integrated');
    expect(git(bare, ['ls-tree', '--name-only', 'main', 'notes/'], env).split('\n')).toEqual([
      'notes/m1.md',
      'notes/m2.md',
      'notes/m3.md',
    ]);
    expect(git(made.memoryDir, ['rev-parse', 'HEAD'], env)).toBe(git(bare, ['rev-parse', 'main'], env));
    expect((await writers[0]!.memory.sync()).status).toBe('clean');
    expect(git(writers[0]!.dir, ['show', 'HEAD:notes/m3.md'], env)).toContain('m3');
    expect(git(bare, ['fsck', '--strict', '--no-progress'], env)).toBe('');
  }, 60_000);
});
