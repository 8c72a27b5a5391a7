/**
 * One system/ budget rule: a memory whose directory GITMEM_MEMORY_DIR names outside the home is held to the
 * budget in `$GITMEM_HOME/config` on every path — the memory tool, a worker's merge, the pre-commit hook —
 * not to the budget of a home guessed from where the directory sits (`~/.gitmem`).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { readSystemUsage } from '../../../src/hooks/budget-config.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let env: Record<string, string>;
let dir: string;
let memory: Memory;
const md = (body: string): string => `---\ndescription: notes\n---\n${body}`;

beforeAll(async () => {
  const root = makeTmpDir('gitmem-budget-home-');
  const home = join(root, 'home');
  dir = join(root, 'elsewhere', 'memory');
  // HOME is `root`: a budget read from `~/.gitmem` (none there) would be the 8,000-token default.
  const base = { ...hermeticGitEnv(root), GITMEM_HOME: home };
  await initMemory({ agentId: 'a1', env: base });
  mkdirSync(join(root, 'elsewhere'));
  renameSync(join(home, 'agents', 'a1', 'memory'), dir);
  env = { ...base, GITMEM_MEMORY_DIR: dir };
  memory = await createMemory({ env });
  const used = (await readSystemUsage(createGitRunner({ env }), dir, 'HEAD', 0)).total;
  writeFileSync(join(home, 'config'), JSON.stringify({ budgets: { system: used + 20 } }));
});
afterAll(cleanupTmp);

describe('the system/ budget of a memory outside its home', () => {
  it('is the home config on the tool path', async () => {
    expect(memory.memoryDir).toBe(dir);
    const err = await memory
      .tool({
        command: 'create',
        reason: 'too big',
        file_path: 'system/big.md',
        description: 'd',
        file_text: 'y'.repeat(400),
      })
      .then(
        () => new Error('accepted'),
        (e: unknown) => e,
      );
    expect(isMemoryError(err, 'BUDGET_EXCEEDED'), String(err)).toBe(true);
  });

  it("is the home config on a worker's merge", async () => {
    const outcome = await memory.runWorker({
      body: async (ctx) => {
        writeFileSync(join(ctx.worktreeDir, 'system', 'worker.md'), md('w'.repeat(400)));
        git(ctx.worktreeDir, ['add', '-A'], env);
        git(ctx.worktreeDir, ['commit', '-qm', 'grow system/', '--no-verify'], env);
      },
    });
    expect(outcome.status).toBe('rejected');
    expect(JSON.stringify(outcome)).toContain('BUDGET_EXCEEDED');
    expect(git(dir, ['ls-files', 'system/worker.md'], env)).toBe('');
  });

  it('is the home config in the pre-commit hook', () => {
    writeFileSync(join(dir, 'system', 'raw.md'), md('z'.repeat(400)));
    git(dir, ['add', '-A'], env);
    const r = gitTry(dir, ['commit', '-qm', 'raw'], env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('BUDGET_EXCEEDED');
    git(dir, ['reset', '-q', '--hard'], env);
  });
});
