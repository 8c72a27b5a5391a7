// Two machines add different bullets to one memory file through the memory tool; sync's rebase of the second
// machine's commit runs gitmem's merge driver, so both bullets end up on both machines with no conflict. The
// same bullet changed two ways is still a sync conflict. Bare remote, two homes; the driver runs from dist/.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-mdsync-');
const env = hermeticGitEnv(root);
const runner = createGitRunner({ env, sleep: async () => undefined });

async function twoMachines(): Promise<[Memory, Memory, string]> {
  const remote = join(makeTmpDir('gitmem-remote-'), 'ana.git');
  git(root, ['init', '-q', '--bare', '-b', 'main', remote], env);
  const homeA = makeTmpDir('gitmem-homeA-');
  const homeB = makeTmpDir('gitmem-homeB-');
  const a = await initMemory({ home: homeA, agentId: 'ana', env, git: runner });
  await setRemote({ git: runner, memoryDir: a.memoryDir, url: remote });
  const memA = await createMemory({ home: homeA, agentId: 'ana', env, git: runner });
  await memA.tool({
    command: 'create',
    file_path: 'notes/work.md',
    description: 'How Ana works',
    file_text: '# Office\n\n- In the office Monday to Friday\n',
    reason: 'office days',
  });
  expect((await syncMemory({ git: runner, memoryDir: memA.memoryDir })).status).toBe('pushed');
  await cloneMemory({ git: runner, home: homeB, url: remote });
  return [memA, await createMemory({ home: homeB, agentId: 'ana', env, git: runner }), remote];
}

const insertBullet = (bullet: string) => ({
  command: 'str_replace',
  file_path: 'notes/work.md',
  old_string: '- In the office Monday to Friday\n',
  new_string: `- In the office Monday to Friday\n${bullet}\n`,
  reason: `note: ${bullet}`,
});

describe('sync between two machines that edited one file', () => {
  it('merges different bullets: both bullets on both machines, no conflict', async () => {
    const [memA, memB, remote] = await twoMachines();
    await memA.tool(insertBullet('- Works from home on Wednesdays'));
    await memB.tool(insertBullet('- Standup at 9:30'));
    expect((await syncMemory({ git: runner, memoryDir: memA.memoryDir })).status).toBe('pushed');
    const b = await syncMemory({ git: runner, memoryDir: memB.memoryDir });
    expect(b.status).toBe('pushed');
    expect((await syncMemory({ git: runner, memoryDir: memA.memoryDir })).status).toBe('clean');
    const want =
      '---\ndescription: How Ana works\n---\n# Office\n\n- In the office Monday to Friday\n- Works from home on Wednesdays\n- Standup at 9:30\n';
    for (const m of [memA, memB]) {
      expect(git(m.memoryDir, ['show', 'HEAD:notes/work.md'], env)).toBe(want.trimEnd());
      expect(git(m.memoryDir, ['status', '--porcelain'], env)).toBe('');
      expect(git(m.memoryDir, ['rev-parse', 'HEAD'], env)).toBe(git(remote, ['rev-parse', 'main'], env));
    }
    expect(git(memB.memoryDir, ['log', '-1', '--format=%s'], env)).toBe('note: - Standup at 9:30');
  });

  it('still stops on the same bullet changed two ways (main as it was)', async () => {
    const [memA, memB] = await twoMachines();
    const rewrite = (to: string) => ({
      command: 'str_replace',
      file_path: 'notes/work.md',
      old_string: 'In the office Monday to Friday',
      new_string: to,
      reason: `rewrite: ${to}`,
    });
    await memA.tool(rewrite('Hybrid: three office days'));
    await memB.tool(rewrite('In the office except Wednesdays'));
    expect((await syncMemory({ git: runner, memoryDir: memA.memoryDir })).status).toBe('pushed');
    const head = git(memB.memoryDir, ['rev-parse', 'HEAD'], env);
    expect(await syncMemory({ git: runner, memoryDir: memB.memoryDir })).toMatchObject({
      status: 'conflict',
      conflictPaths: ['notes/work.md'],
    });
    expect(git(memB.memoryDir, ['rev-parse', 'HEAD'], env)).toBe(head);
    expect(git(memB.memoryDir, ['status', '--porcelain'], env)).toBe('');
  });
});
