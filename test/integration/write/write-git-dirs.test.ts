// The git directories of a memory are found once, when the handle opens, and handed down the write path:
// a tool write looks them up (a `.git` file or directory read, a `commondir` followed) at most twice,
// however many steps of the write need them.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as CommonDir from '../../../src/git/common-dir.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const lookups = vi.hoisted(() => ({ count: 0 }));

vi.mock('../../../src/git/common-dir.js', async (original) => {
  const real = await original<typeof CommonDir>();
  return {
    ...real,
    gitDirAt: (dir: string) => (lookups.count++, real.gitDirAt(dir)),
    resolveGitCommonDir: (dir: string) => (lookups.count++, real.resolveGitCommonDir(dir)),
  };
});

const { createMemory, initMemory } = await import('../../../src/memory.js');

let memory: Awaited<ReturnType<typeof createMemory>>;

afterAll(cleanupTmp);
beforeAll(async () => {
  const home = makeTmpDir('gitmem-home-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env });
  memory = await createMemory({ home, agentId: 'ada', env });
  // The first write loads the write path's modules and warms what a process keeps between writes.
  await memory.tool({
    command: 'create',
    file_path: 'notes/first.md',
    description: 'd',
    file_text: 'one\n',
    reason: 'warm up',
  });
});

describe('a tool write', () => {
  it('looks up the git directories at most twice', async () => {
    const counts: number[] = [];
    const writes = [
      {
        command: 'create',
        file_path: 'notes/tea.md',
        description: 'Drinks',
        file_text: 'green tea\n',
        reason: 'likes tea',
      },
      {
        command: 'str_replace',
        file_path: 'notes/tea.md',
        old_string: 'green',
        new_string: 'black',
        reason: 'changed taste',
      },
      { command: 'rename', old_path: 'notes/tea.md', new_path: 'notes/drinks.md', reason: 'broader' },
      { command: 'delete', file_path: 'notes/first.md', reason: 'not needed' },
    ];
    for (const call of writes) {
      lookups.count = 0;
      await memory.tool(call);
      counts.push(lookups.count);
    }
    console.info(`[write-git-dirs] lookups per write: ${counts.join(', ')}`);
    expect(Math.max(...counts)).toBeLessThanOrEqual(2);
  });
});
