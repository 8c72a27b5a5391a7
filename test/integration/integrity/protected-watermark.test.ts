// The protected list sees every commit: a read_only file committed raw (--no-verify) between two writes of
// an open handle is recorded, so a later raw commit that drops the key does not unprotect it.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createMemory } from '../../../src/memory.js';
import { listProtectedPaths } from '../../../src/hooks/protected.js';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

afterAll(cleanupTmp);

it('records a read_only file committed raw between two tool writes of one open handle', async () => {
  const fx = await memoryFixture();
  const run = (args: string[]) => git(fx.dir, args, fx.env);
  await fx.memory.tool({
    command: 'create',
    reason: 'one',
    file_path: 'notes/a.md',
    description: 'a',
    file_text: 'a\n',
  });
  mkdirSync(join(fx.dir, 'ops'), { recursive: true });
  writeFileSync(join(fx.dir, 'ops/locked.md'), '---\ndescription: locked\nread_only: true\n---\noperator text\n');
  run(['add', '-A']);
  run(['commit', '-qm', 'operator', '--no-verify']);
  await fx.memory.tool({
    command: 'create',
    reason: 'two',
    file_path: 'notes/b.md',
    description: 'b',
    file_text: 'b\n',
  });
  writeFileSync(join(fx.dir, 'ops/locked.md'), '---\ndescription: locked\n---\noperator text\n');
  run(['commit', '-qam', 'unlock', '--no-verify']);
  const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
  expect(listProtectedPaths(fx.dir)).toEqual(['ops/locked.md']);
  const err = await memory
    .tool({
      command: 'str_replace',
      reason: 'r',
      file_path: 'ops/locked.md',
      old_string: 'operator',
      new_string: 'agent',
    })
    .catch((e: unknown) => e);
  expect(isMemoryError(err, 'VALIDATION_FAILED')).toBe(true);
});
