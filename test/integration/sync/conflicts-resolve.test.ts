// Resolving kept branches through the library: `memory.conflicts.show` gives the diff and what conflicts now;
// `resolve` lands one validated merge commit (ours / theirs hunk by hunk, or given text) whose message is the
// reason, and removes the branch only after that commit landed. Every refusal leaves the repository as it was.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/memory.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { makeKeptBranch } from '../../helpers/kept-branch.js';
import { cleanupTmp, git, gitTry } from '../../helpers/tmp.js';

let memory: Memory;
let dir: string;
let env: Record<string, string>;
const BRANCH = 'gitmem/worker/w1';
const doc = (bullets: string[]): string =>
  `---\ndescription: team notes\n---\n# Team\n\n${bullets.map((b) => `- ${b}`).join('\n')}\n`;
const state = (): string =>
  [
    git(dir, ['rev-parse', 'HEAD'], env),
    git(dir, ['status', '--porcelain'], env),
    git(dir, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/'], env),
  ].join('\n');

/** main and the worker both changed bullet two of notes/team.md (and each changed one more line elsewhere). */
async function conflictingBranch(): Promise<string> {
  await memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/team.md',
    description: 'team notes',
    file_text: '# Team\n\n- one\n- two\n- three\n',
  });
  await memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/other.md',
    description: 'other',
    file_text: 'other\n',
  });
  const tip = makeKeptBranch(dir, env, BRANCH, {
    'notes/team.md': doc(['one', 'two (worker)', 'three']),
    'notes/worker.md': '---\ndescription: worker\n---\nnew\n',
  });
  await memory.tool({
    command: 'str_replace',
    reason: 'main edit',
    file_path: 'notes/team.md',
    old_string: '- two',
    new_string: '- two (main)',
  });
  await memory.tool({
    command: 'str_replace',
    reason: 'main edit 2',
    file_path: 'notes/team.md',
    old_string: '# Team',
    new_string: '# The team',
  });
  return tip;
}

beforeEach(async () => {
  const fx = await memoryFixture('a1');
  ({ memory, dir, env } = fx);
});
afterAll(() => cleanupTmp());

describe('memory.conflicts.show', () => {
  it("gives the diff the branch brings, the paths that conflict now and main's diff of them", async () => {
    await conflictingBranch();
    const d = await memory.conflicts.show(BRANCH);
    expect(d.diff).toMatch(/^\+- two \(worker\)$/m);
    expect(d.diff).toMatch(/^\+new$/m);
    expect(d.conflicted).toEqual(['notes/team.md']);
    expect(d.mainDiff).toMatch(/^\+- two \(main\)$/m);
    expect(d.mainDiff).not.toMatch(/worker/);
  });
});

describe('memory.conflicts.resolve', () => {
  it("--theirs: one merge commit (main, tip) with the reason; the branch's hunk wins, main's other edit stays", async () => {
    const tip = await conflictingBranch();
    const before = git(dir, ['rev-parse', 'HEAD'], env);
    const r = await memory.conflicts.resolve(BRANCH, { take: 'theirs', reason: 'the worker saw the later fact' });
    expect(r).toMatchObject({ branch: BRANCH, head: tip, conflicted: ['notes/team.md'], branchRemoved: true });
    expect(git(dir, ['rev-parse', 'HEAD^1', 'HEAD^2'], env).split('\n')).toEqual([before, tip]);
    expect(git(dir, ['log', '-1', '--format=%s'], env)).toBe('the worker saw the later fact');
    expect(git(dir, ['show', 'HEAD:notes/team.md'], env)).toBe(
      doc(['one', 'two (worker)', 'three']).replace('# Team', '# The team').trimEnd(),
    );
    expect(git(dir, ['show', 'HEAD:notes/worker.md'], env)).toMatch(/new/);
    expect(gitTry(dir, ['rev-parse', '--verify', `refs/heads/${BRANCH}`], env).status).not.toBe(0);
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
    expect(gitTry(dir, ['fsck', '--strict'], env).status).toBe(0);
    expect(await memory.conflicts.list()).toEqual([]);
  });

  it("--ours: main's hunk wins; the branch's other file still arrives", async () => {
    await conflictingBranch();
    await memory.conflicts.resolve(BRANCH, { take: 'ours', reason: 'main is right' });
    expect(git(dir, ['show', 'HEAD:notes/team.md'], env)).toMatch(/- two \(main\)/);
    expect(git(dir, ['show', 'HEAD:notes/team.md'], env)).not.toMatch(/worker|<<<</);
    expect(git(dir, ['show', 'HEAD:notes/worker.md'], env)).toMatch(/new/);
  });

  it('given text: exactly that text, and a conflicted path left undecided is refused', async () => {
    await conflictingBranch();
    const before = state();
    await expect(
      memory.conflicts.resolve(BRANCH, {
        files: { 'notes/other.md': '---\ndescription: other\n---\nx\n' },
        reason: 'r',
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/notes\/team\.md/) });
    expect(state()).toBe(before);
    const text = doc(['one', 'two (main and worker)', 'three']);
    await memory.conflicts.resolve(BRANCH, { files: { 'notes/team.md': text }, reason: 'merged by hand' });
    expect(git(dir, ['show', 'HEAD:notes/team.md'], env)).toBe(text.trimEnd());
  });

  it('refuses a resolution that adds a credential, grows system/ past its budget, breaks the format or escapes — nothing changes', async () => {
    await conflictingBranch();
    const before = state();
    const key = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
    const cases: Array<[Record<string, string | null>, string, string]> = [
      [{ 'notes/team.md': doc(['one', `token ${key}`]) }, 'r', 'SECRET_DETECTED'],
      [{ 'notes/team.md': doc(['one']) }, `reason with ${key}`, 'SECRET_DETECTED'],
      [{ 'notes/team.md': 'no frontmatter\n' }, 'r', 'VALIDATION_FAILED'],
      [{ 'notes/team.md': doc(['one']), '../escape.md': 'x\n' }, 'r', 'INVALID_PATH'],
      [{ 'notes/team.md': doc(['one']), '.git/config': 'x\n' }, 'r', 'INVALID_PATH'],
    ];
    for (const [files, reason, code] of cases) {
      await expect(memory.conflicts.resolve(BRANCH, { files, reason }), code).rejects.toMatchObject({ code });
      expect(state()).toBe(before);
    }
    git(dir, ['config', 'gitmem.budgetSystem', '50'], env);
    const big = `---\ndescription: persona\n---\n${'word '.repeat(400)}\n`;
    await expect(
      memory.conflicts.resolve(BRANCH, {
        files: { 'notes/team.md': doc(['one']), 'system/persona.md': big },
        reason: 'r',
      }),
    ).rejects.toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(state()).toBe(before);
    expect(gitTry(dir, ['fsck', '--strict'], env).status).toBe(0);
  });

  it('an uncommitted edit on a path the resolution changes is REPO_DIRTY; nothing moves', async () => {
    await conflictingBranch();
    writeFileSync(join(dir, 'notes/team.md'), 'local edit\n');
    const before = state();
    await expect(memory.conflicts.resolve(BRANCH, { take: 'theirs', reason: 'r' })).rejects.toMatchObject({
      code: 'REPO_DIRTY',
    });
    expect(state()).toBe(before);
  });

  it('names only kept branches, and needs a reason', async () => {
    await conflictingBranch();
    await expect(memory.conflicts.resolve('main', { take: 'ours', reason: 'r' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(memory.conflicts.resolve(BRANCH, { take: 'ours', reason: '  ' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(memory.conflicts.resolve(BRANCH, { take: 'sideways' as 'ours', reason: 'r' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('telling the agent', () => {
  it('the compiled prompt says kept branches exist and how to look at them; the reminder names each waiting one', async () => {
    for (const mode of ['memfs', 'local-memfs'] as const) {
      const prompt = await memory.compilePrompt({ mode });
      expect(prompt).toContain("git branch --list 'gitmem/*'");
      expect(prompt).toContain('gitmem conflicts show <branch>');
    }
    expect(await memory.conflicts.reminder()).toBeNull();
    await conflictingBranch();
    const reminder = await memory.conflicts.reminder();
    expect(reminder).toContain(`- ${BRANCH}: 1 commit(s) touching notes/team.md, notes/worker.md`);
    await memory.conflicts.resolve(BRANCH, { take: 'ours', reason: 'done' });
    expect(await memory.conflicts.reminder()).toBeNull();
  });
});
