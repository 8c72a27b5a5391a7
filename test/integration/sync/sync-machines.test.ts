/**
 * One agent on two machines: created with the memory API on machine A, cloned to machine B with
 * `cloneMemory`, both writing concurrently through the memory tool and converging through sync; the
 * CLI commands (remote, clone, sync, conflicts, mirror) over the same repositories.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { syncAfterTurn } from '../../../src/sync/after-turn.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-machines-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });

const cli = (args: string[], extraEnv: Record<string, string> = {}) => runMain(args, { ...env, ...extraEnv });

const create = (name: string) => ({
  command: 'create',
  file_path: `system/${name}.md`,
  description: name,
  file_text: `${name} body`,
  reason: `add ${name}`,
});

describe('one agent, two machines', () => {
  const remote = join(makeTmpDir('gitmem-remote-'), 'ada.git');
  const homeA = makeTmpDir('gitmem-homeA-');
  const homeB = makeTmpDir('gitmem-homeB-');

  it('clone brings the memory to machine B ready to use; concurrent tool writes converge through sync', async () => {
    g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
    const a = await initMemory({ home: homeA, agentId: 'ada', env, git: runner });
    await setRemote({ git: runner, memoryDir: a.memoryDir, url: remote });
    expect((await syncAfterTurn({ git: runner, memoryDir: a.memoryDir })).status).toBe('pushed');

    const b = await cloneMemory({ git: runner, home: homeB, url: remote });
    expect(b).toMatchObject({ agentId: 'ada', memoryDir: join(homeB, 'agents', 'ada', 'memory'), commits: 1 });
    for (const hook of ['pre-commit', 'post-commit'])
      expect(existsSync(join(b.memoryDir, '.git', 'hooks', hook))).toBe(true);
    expect(g(b.memoryDir, ['config', 'core.hooksPath'])).toBe(join(b.memoryDir, '.git', 'hooks'));
    expect(g(b.memoryDir, ['rev-parse', '--abbrev-ref', 'main@{u}'])).toBe('origin/main');
    await expect(cloneMemory({ git: runner, home: homeB, url: remote })).rejects.toSatisfy((e) =>
      isMemoryError(e, 'AGENT_EXISTS'),
    );

    const memA = await createMemory({ home: homeA, agentId: 'ada', env, git: runner });
    const memB = await createMemory({ home: homeB, agentId: 'ada', env, git: runner });
    await Promise.all(
      [0, 1, 2].flatMap((i) => [
        memA.tool(create(`a${i}`)).then(() => syncAfterTurn({ git: runner, memoryDir: memA.memoryDir })),
        memB.tool(create(`b${i}`)).then(() => syncAfterTurn({ git: runner, memoryDir: memB.memoryDir })),
      ]),
    );
    for (let round = 0; round < 2; round++) {
      for (const m of [memA, memB])
        expect(['clean', 'pushed']).toContain((await syncMemory({ git: runner, memoryDir: m.memoryDir })).status);
    }
    const heads = [memA, memB].map((m) => g(m.memoryDir, ['rev-parse', 'HEAD']));
    expect(heads[0]).toBe(heads[1]);
    expect(heads[0]).toBe(g(remote, ['rev-parse', 'main']));
    expect(g(remote, ['rev-list', '--count', 'main'])).toBe('7');
    const files = g(memB.memoryDir, ['ls-files', 'system']).split('\n');
    for (const n of ['a0', 'a1', 'a2', 'b0', 'b1', 'b2']) expect(files).toContain(`system/${n}.md`);
  });

  it('the CLI drives remote, sync, conflicts, mirror and clone with clear exits', async () => {
    const base = ['--home', homeA, '--agent', 'ada'];
    const show = await cli(['remote', 'show', ...base, '--json']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.out)).toMatchObject({ url: remote, upstream: 'origin/main' });
    const sync = await cli(['sync', ...base]);
    expect(sync).toMatchObject({ code: 0 });
    expect(sync.out).toMatch(/^clean: /);
    const bad = await cli(['sync', ...base, '--on-conflict', 'merge']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/gitmem: INVALID_ARGUMENT: --on-conflict must be one of fail, keep-branch, leave/);
    const conflicts = await cli(['conflicts', ...base]);
    expect(conflicts.out).toMatch(/No kept branches/);
    const mirror = await cli(['mirror', 'push', ...base]);
    expect(mirror).toMatchObject({ code: 1 });
    expect(mirror.err).toMatch(/gitmem: MIRROR_ERROR: No mirror URL configured/);
    const again = await cli(['clone', remote, '--home', homeB]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/AGENT_EXISTS/);
    const homeC = makeTmpDir('gitmem-homeC-');
    const cloned = await cli(['clone', remote, '--home', homeC, '--agent', 'ada-ci', '--json']);
    expect(cloned.code).toBe(0);
    expect(JSON.parse(cloned.out)).toMatchObject({ agentId: 'ada-ci', commits: 7 });
    const noRemote = await cli(['remote', 'remove', '--home', homeC, '--agent', 'ada-ci']);
    expect(noRemote.out).toMatch(/Removed origin/);
    const unsynced = await cli(['sync', '--home', homeC, '--agent', 'ada-ci']);
    expect(unsynced.code).toBe(1);
    expect(unsynced.err).toMatch(/^gitmem: NO_REMOTE: /); // a failure goes to stderr, like every error
    expect(unsynced.out).toBe('');
  });
});
