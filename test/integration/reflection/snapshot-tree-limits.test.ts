// The reflection snapshot obeys the configured tree limits (issue 29 point 7): with
// GITMEM_TREE_MAX_CHILDREN_PER_DIR=2 the sub-agent's <memory_filesystem> shows two entries of a crowded
// directory and the "… (N more entries)" line, exactly as the prompt's tree does; the defaults show them all.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory, initMemory } from '../../../src/memory.js';
import { firstPrompt, scripted } from '../../helpers/reflection-mock.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'sources');
afterAll(cleanupTmp);

async function snapshotTree(extraEnv: Record<string, string>): Promise<{ tree: string; prompt: string }> {
  const home = makeTmpDir('gitmem-home-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home, ...extraEnv };
  await initMemory({ home, agentId: 'a1', env });
  const memory = await createMemory({ home, agentId: 'a1', env });
  for (const n of [1, 2, 3, 4, 5]) {
    await memory.tool({
      command: 'create',
      reason: `note ${n}`,
      file_path: `notes/n${n}.md`,
      description: `Note ${n}`,
      file_text: `fact ${n}\n`,
    });
  }
  const model = scripted([{ text: 'Nothing worth keeping.' }]);
  const r = await memory.dream({
    from: 'transcript:transcript/session.jsonl',
    model,
    maxRetries: 0,
    stream: false,
    cwd: FIXTURES,
  });
  expect(r).toMatchObject({ launched: true, success: true });
  const { user } = firstPrompt(model);
  const tree = /<memory_filesystem>\n([\s\S]*?)\n<\/memory_filesystem>/.exec(user)?.[1] ?? '';
  return { tree, prompt: await memory.compilePrompt() };
}

describe('the reflection snapshot and the configured tree limits', { tags: ['sandbox'] }, () => {
  it('caps each directory as configured, with the "more entries" line the prompt shows too', async () => {
    const { tree, prompt } = await snapshotTree({ GITMEM_TREE_MAX_CHILDREN_PER_DIR: '2' });
    expect(tree).toContain('n1.md — Note 1');
    expect(tree).toContain('n2.md — Note 2');
    expect(tree).not.toContain('n3.md');
    expect(tree).toContain('… (3 more entries)');
    expect(prompt).toContain('… (3 more entries)');
  });

  it('shows every entry under the default limits', async () => {
    const { tree } = await snapshotTree({});
    for (const n of [1, 2, 3, 4, 5]) expect(tree).toContain(`n${n}.md — Note ${n}`);
    expect(tree).not.toContain('more entries');
  });
});
