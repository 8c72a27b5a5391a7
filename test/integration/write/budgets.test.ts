/**
 * Budgets enforced by the one validator: a file's `limit` and the system/ total (budgets.system in
 * $GITMEM_HOME/config, the repository's gitmem.budgetSystem, else 8,000 tokens), through the memory tool and a
 * raw shell commit alike. Only growth is refused: a repository already over budget keeps working.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isMemoryError, type MemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { readSystemUsage } from '../../../src/hooks/budget-config.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, gitTry } from '../../helpers/tmp.js';

let fx: MemoryFixture;
const g = (args: string[]): string => git(fx.dir, args, fx.env);
const state = (): string => `${g(['rev-parse', 'HEAD'])}\n${g(['status', '--porcelain'])}`;
const md = (body: string, extra = ''): string => `---\ndescription: notes\n${extra}---\n${body}`;
const setHomeBudget = (tokens: number | undefined): void =>
  tokens === undefined
    ? rmSync(join(fx.home, 'config'), { force: true })
    : writeFileSync(join(fx.home, 'config'), JSON.stringify({ budgets: { system: tokens } }));

async function refusedBudget(fn: () => Promise<unknown>): Promise<MemoryError> {
  const before = state();
  const err = await fn().then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(isMemoryError(err, 'BUDGET_EXCEEDED'), String(err)).toBe(true);
  expect(state()).toBe(before);
  return err as MemoryError;
}

async function used(): Promise<number> {
  return (await readSystemUsage(createGitRunner({ env: fx.env }), fx.dir, 'HEAD', 0)).total;
}

beforeAll(async () => {
  fx = await memoryFixture('budget');
});
beforeEach(() => {
  setHomeBudget(undefined);
  gitTry(fx.dir, ['config', '--unset', 'gitmem.budgetSystem'], fx.env);
});
afterAll(cleanupTmp);

describe('the system/ budget', () => {
  it('refuses a tool write that grows system/ past budgets.system, naming file, size and budget', async () => {
    const start = await used();
    setHomeBudget(start + 50);
    await fx.memory.tool({
      command: 'create',
      reason: 'fits',
      file_path: 'system/small.md',
      description: 'd',
      file_text: 'x'.repeat(100),
    });
    const e = await refusedBudget(() =>
      fx.memory.tool({
        command: 'create',
        reason: 'too big',
        file_path: 'system/big.md',
        description: 'd',
        file_text: 'y'.repeat(400),
      }),
    );
    expect(e.message).toMatch(/^Refused: the change grows memory past its budget/);
    expect(e.message).toMatch(
      new RegExp(
        `system/big\\.md: BUDGET_EXCEEDED: system/ would hold ~[\\d,]+ tokens, over its budget of ${start + 50} \\(this file ~\\d+ tokens, \\+\\d+\\): .*move detail out of system/`,
      ),
    );
    // The same text outside system/ is fine: it is listed in the tree and read on demand.
    await fx.memory.tool({
      command: 'create',
      reason: 'outside',
      file_path: 'reference/big.md',
      description: 'd',
      file_text: 'y'.repeat(400),
    });
  });

  it('refuses a raw shell commit the same way, through the hook', async () => {
    setHomeBudget((await used()) + 20);
    writeFileSync(join(fx.dir, 'system/raw.md'), md('z'.repeat(400)));
    g(['add', '-A']);
    const before = g(['rev-parse', 'HEAD']);
    const r = gitTry(fx.dir, ['commit', '-qm', 'raw'], fx.env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/^gitmem: BUDGET_EXCEEDED: memory rules refused this commit:/m);
    expect(r.stderr).toMatch(
      /system\/raw\.md: BUDGET_EXCEEDED: system\/ would hold ~[\d,]+ tokens, over its budget of [\d,]+/,
    );
    expect(g(['rev-parse', 'HEAD'])).toBe(before);
    g(['reset', '-q', '--hard', 'HEAD']);
    g(['clean', '-fdq']);
  });

  it('keeps an over-budget repository working: shrinking, same-size and non-system edits pass; growth does not', async () => {
    writeFileSync(join(fx.dir, 'system/huge.md'), md(`START\nMIDDLE\n${'h'.repeat(2000)}\n`));
    g(['add', '-A']);
    g(['commit', '-q', '--no-verify', '-m', 'operator import']);
    setHomeBudget(Math.floor((await used()) / 2));
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'shrink',
      file_path: 'system/huge.md',
      old_string: 'START\n',
      new_string: '',
    });
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'same size',
      file_path: 'system/huge.md',
      old_string: 'MIDDLE',
      new_string: 'CENTRE',
    });
    await fx.memory.tool({
      command: 'create',
      reason: 'elsewhere',
      file_path: 'notes/n.md',
      description: 'd',
      file_text: 'n'.repeat(500),
    });
    await refusedBudget(() =>
      fx.memory.tool({
        command: 'insert',
        reason: 'grow',
        file_path: 'system/huge.md',
        insert_line: 0,
        insert_text: 'more\n',
      }),
    );
    writeFileSync(join(fx.dir, 'system/huge.md'), md('h'.repeat(1000)));
    g(['add', '-A']);
    expect(gitTry(fx.dir, ['commit', '-qm', 'raw shrink'], fx.env).status).toBe(0);
  });

  it("lets the repository's gitmem.budgetSystem override the home's budget", async () => {
    setHomeBudget(1);
    await refusedBudget(() =>
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'system/o.md', description: 'd', file_text: 'o' }),
    );
    g(['config', 'gitmem.budgetSystem', '100000']);
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'system/o.md',
      description: 'd',
      file_text: 'o',
    });
  });

  it('applies the 8,000-token default without any configuration', async () => {
    const e = await refusedBudget(() =>
      fx.memory.tool({
        command: 'create',
        reason: 'r',
        file_path: 'system/default.md',
        description: 'd',
        file_text: 'd'.repeat(33_000),
      }),
    );
    expect(e.message).toContain('over its budget of 8,000');
  });

  it('refuses a malformed budget setting with one clear line', async () => {
    writeFileSync(join(fx.home, 'config'), JSON.stringify({ budgets: { system: 'lots' } }));
    const err = await fx.memory
      .tool({ command: 'create', reason: 'r', file_path: 'system/m.md', description: 'd', file_text: 'm' })
      .catch((e: unknown) => e);
    expect(isMemoryError(err, 'INVALID_ARGUMENT')).toBe(true);
    expect(String((err as Error).message)).toMatch(/budgets\.system must be a positive integer/);
  });
});

describe("a file's limit", () => {
  it('refuses a body growing past its limit, by the tool and by a raw commit', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'r',
      file_path: 'notes/limited.md',
      description: 'd',
      file_text: '0123456789',
    });
    g(['config', 'gitmem.budgetSystem', '100000']);
    writeFileSync(join(fx.dir, 'notes/limited.md'), md('0123456789\n', 'limit: 11\n'));
    g(['add', '-A']);
    expect(gitTry(fx.dir, ['commit', '-qm', 'set a limit'], fx.env).status).toBe(0);
    const e = await refusedBudget(() =>
      fx.memory.tool({
        command: 'insert',
        reason: 'grow',
        file_path: 'notes/limited.md',
        insert_line: 0,
        insert_text: 'more',
      }),
    );
    expect(e.message).toContain('notes/limited.md: BUDGET_EXCEEDED: body is 16 characters, over its limit of 11');
    writeFileSync(join(fx.dir, 'notes/limited.md'), md('0123456789ab\n', 'limit: 11\n'));
    g(['add', '-A']);
    const r = gitTry(fx.dir, ['commit', '-qm', 'raw grow'], fx.env);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('notes/limited.md: BUDGET_EXCEEDED: body is 13 characters, over its limit of 11');
    g(['reset', '-q', '--hard', 'HEAD']);
  });
});
