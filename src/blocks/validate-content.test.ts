import { describe, expect, it } from 'vitest';
import { fakeSecrets } from '../../test/helpers/secret-corpus.js';
import { bodyChars, estimateTokens, systemUsage } from './budgets.js';
import { findProblems, formatProblem, problemCode, validateChanges, type FileChange } from './validate.js';

const md = (body: string, extra = ''): string => `---\ndescription: d\n${extra}---\n${body}`;
const added = (path: string, content: string): FileChange => ({ status: 'added', path, content, headContent: null });
const modified = (path: string, headContent: string, content: string): FileChange => ({
  status: 'modified',
  path,
  content,
  headContent,
});

describe('validator: secrets', () => {
  const fake = fakeSecrets(3).find((f) => f.rule === 'github-token');
  if (!fake) throw new Error('corpus');

  it('refuses a credential in an added file with SECRET_DETECTED, file:line and rule, never the value', () => {
    const problems = findProblems([added('notes/a.md', md(`line\n${fake.text}\n`))]);
    expect(problemCode(problems)).toBe('SECRET_DETECTED');
    const line = formatProblem(problems[0] ?? { path: '', message: '' });
    expect(line).toMatch(
      /^notes\/a\.md:5: SECRET_DETECTED: GitHub token \(rule github-token, ghp_…\(40 chars\), fingerprint [0-9a-f]{16}\)/,
    );
    expect(line).not.toContain(fake.value);
  });

  it('scans every kind of file, and only the lines a modification adds', () => {
    expect(validateChanges([added('skills/x/run.sh', `#!/bin/sh\n${fake.text}\n`)])).toHaveLength(1);
    const withSecret = md(`${fake.text}\n`);
    expect(validateChanges([modified('notes/a.md', withSecret, `${withSecret}more\n`)])).toEqual([]);
    expect(
      validateChanges([
        { status: 'renamed', path: 'b.md', oldPath: 'a.md', content: withSecret, headContent: withSecret },
      ]),
    ).toEqual([]);
    expect(validateChanges([{ status: 'deleted', path: 'a.md', content: null, headContent: withSecret }])).toEqual([]);
  });

  it('honours the allow list and can be switched off', () => {
    const [p] = findProblems([added('a.md', md(`${fake.text}\n`))]);
    expect(
      findProblems([added('a.md', md(`${fake.text}\n`))], { secrets: { allowed: new Set([p?.fingerprint ?? '']) } }),
    ).toEqual([]);
    expect(findProblems([added('a.md', md(`${fake.text}\n`))], { secrets: false })).toEqual([]);
  });
});

describe('validator: a file limit', () => {
  it('refuses a body growing past its limit, naming size and limit', () => {
    const problems = findProblems([added('notes/a.md', md('x'.repeat(11), 'limit: 10\n'))]);
    expect(problemCode(problems)).toBe('BUDGET_EXCEEDED');
    expect(formatProblem(problems[0] ?? { path: '', message: '' })).toBe(
      'notes/a.md: BUDGET_EXCEEDED: body is 11 characters, over its limit of 10 (frontmatter `limit`): shorten it, or move detail to another file',
    );
    expect(validateChanges([added('notes/a.md', md('x'.repeat(10), 'limit: 10\n'))])).toEqual([]);
  });

  it('counts characters, not bytes, and accepts a change that does not grow a file already over', () => {
    expect(bodyChars(md('ééé\n'))).toBe(4);
    const over = md('y'.repeat(30), 'limit: 10\n');
    expect(validateChanges([modified('notes/a.md', over, md('y'.repeat(20), 'limit: 10\n'))])).toEqual([]);
    expect(validateChanges([modified('notes/a.md', over, md('z'.repeat(30), 'limit: 10\n'))])).toEqual([]);
    expect(validateChanges([modified('notes/a.md', over, md('y'.repeat(31), 'limit: 10\n'))])[0]).toMatch(
      /BUDGET_EXCEEDED: body is 31 characters/,
    );
    // Lowering the limit below the current size is allowed; growth from there is not.
    expect(validateChanges([modified('notes/a.md', md('y'.repeat(30)), over)])).toEqual([]);
  });
});

describe('validator: the system/ budget', () => {
  const big = md('s'.repeat(400)); // ~105 tokens

  it('refuses growth past the budget, naming the file, the total and the budget', () => {
    const problems = findProblems([added('system/notes.md', big)], { systemBudget: { tokens: 500, used: 450 } });
    expect(problemCode(problems)).toBe('BUDGET_EXCEEDED');
    expect(problems[0]?.path).toBe('system/notes.md');
    expect(problems[0]?.message).toMatch(
      /^system\/ would hold ~556 tokens, over its budget of 500 \(this file ~106 tokens, \+106\): .*move detail out of system\//,
    );
  });

  it('accepts what fits, files outside system/, and any change that does not grow an over-budget total', () => {
    expect(findProblems([added('system/notes.md', big)], { systemBudget: { tokens: 1000, used: 450 } })).toEqual([]);
    expect(findProblems([added('notes/elsewhere.md', big)], { systemBudget: { tokens: 10, used: 450 } })).toEqual([]);
    expect(
      findProblems([modified('system/notes.md', big, md('t'.repeat(400)))], {
        systemBudget: { tokens: 10, used: 900 },
      }),
    ).toEqual([]);
    expect(
      findProblems([modified('system/notes.md', big, md('x'))], { systemBudget: { tokens: 10, used: 900 } }),
    ).toEqual([]);
    // Moving a file out of system/ shrinks it.
    expect(
      findProblems(
        [{ status: 'renamed', path: 'notes/n.md', oldPath: 'system/notes.md', content: big, headContent: big }],
        { systemBudget: { tokens: 10, used: 900 } },
      ),
    ).toEqual([]);
    // Hidden files are not compiled into the prompt, so they do not count.
    expect(findProblems([added('system/.draft/x.md', big)], { systemBudget: { tokens: 10, used: 900 } })).toEqual([]);
  });

  it('sums use per file by the ceil(bytes/4) estimate', () => {
    expect(estimateTokens(5)).toBe(2);
    const u = systemUsage(
      [
        { path: 'system/a.md', size: 5 },
        { path: 'system/b.md', size: 400 },
        { path: 'notes/c.md', size: 9000 },
        { path: 'system/x.txt', size: 40 },
      ],
      8000,
    );
    expect(u).toEqual({
      total: 102,
      budget: 8000,
      files: [
        { path: 'system/b.md', tokens: 100 },
        { path: 'system/a.md', tokens: 2 },
      ],
    });
  });

  it('names a credential first when a change is refused for several reasons', () => {
    const fake = fakeSecrets(4).find((f) => f.rule === 'npm-token');
    const problems = findProblems([
      added('system/a.md', md(`${fake?.text}\n`, 'limit: 1\n')),
      added('bad.md', 'no frontmatter'),
    ]);
    expect(problemCode(problems)).toBe('SECRET_DETECTED');
    expect(problems.map((p) => p.code ?? 'format').sort()).toEqual(['BUDGET_EXCEEDED', 'SECRET_DETECTED', 'format']);
  });
});
