import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
beforeAll(async () => {
  fx = await memoryFixture('busy');
});
afterAll(cleanupTmp);

const WRITER = `
const { createMemory } = await import(process.argv[1]);
const [home, agent, tag, count] = process.argv.slice(2);
const memory = await createMemory({ home, agentId: agent });
for (let i = 0; i < Number(count); i++) {
  await memory.tool({ command: 'create', reason: 'write ' + tag + '-' + i, file_path: 'w/' + tag + '-' + i + '.md', description: 'd' });
}
`;

function writer(tag: string, count: number): Promise<number> {
  const index = join(process.cwd(), 'dist/index.js');
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', WRITER, index, fx.home, 'busy', tag, String(count)],
      {
        env: fx.env,
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    child.on('close', (code) => resolve(code ?? 1));
  });
}

describe('concurrent writers through the memory tool', () => {
  it('in one process: parallel calls are serialised and every write lands', async () => {
    const before = Number(git(fx.dir, ['rev-list', '--count', 'HEAD']));
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fx.memory.tool({ command: 'create', reason: `p${i}`, file_path: `p/${i}.md`, description: 'd' }),
      ),
    );
    expect(Number(git(fx.dir, ['rev-list', '--count', 'HEAD']))).toBe(before + 12);
  });

  it('across 4 processes: 4 × 15 writes, all present, fsck clean', async () => {
    const before = Number(git(fx.dir, ['rev-list', '--count', 'HEAD']));
    const codes = await Promise.all(['a', 'b', 'c', 'd'].map((t) => writer(t, 15)));
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(Number(git(fx.dir, ['rev-list', '--count', 'HEAD']))).toBe(before + 60);
    expect(git(fx.dir, ['ls-files', 'w']).split('\n')).toHaveLength(60);
    expect(git(fx.dir, ['status', '--porcelain'])).toBe('');
    git(fx.dir, ['fsck', '--strict', '--no-progress']);
  });
});
