import { describe, expect, it } from 'vitest';
import { LAYOUTS, indexSize, layoutRow, nearestIndex, parseLayoutName } from './layouts.js';
import { findProblems, frontmatterKeysFor, problemCode, validateChanges, type FileChange } from './validate.js';

const index = LAYOUTS.index;
const system = LAYOUTS.system;
const topic = (extra = ''): string => `---\nname: n\ndescription: d\n${extra}---\nbody\n`;
const added = (path: string, content: string): FileChange => ({ status: 'added', path, content, headContent: null });
const modified = (path: string, headContent: string, content: string): FileChange => ({
  status: 'modified',
  path,
  content,
  headContent,
});
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `- [t${i}](t${i}.md) — topic ${i}\n`).join('');

describe('the layout table', () => {
  it('classifies each path kind per layout', () => {
    const cases: Array<[string, string, string]> = [
      ['MEMORY.md', 'memory', 'index'],
      ['a/MEMORY.md', 'memory', 'index'],
      ['a/b.md', 'memory', 'memory'],
      ['notes.json', 'other', 'other'],
      ['.github/x.md', 'other', 'other'],
      ['skills/git/SKILL.md', 'skill', 'skill'],
      ['skills/git/run.sh', 'skill-asset', 'skill-asset'],
      ['skills/x.md', 'bad-skill-path', 'bad-skill-path'],
    ];
    for (const [path, sys, idx] of cases) {
      expect([path, system.classify(path), index.classify(path)]).toEqual([path, sys, idx]);
    }
  });

  it('names the core of each layout', () => {
    expect(['system/a.md', 'system/x/y.md', 'a.md', 'system/.h/a.md'].map(system.isCore)).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(['MEMORY.md', 'a.md', 'a/b.md', '.a.md', 'a.txt'].map(index.isCore)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('parses names, routes files to their nearest index, counts index size, applies a configured budget', () => {
    expect([
      parseLayoutName(' index\n'),
      parseLayoutName('system'),
      parseLayoutName('Index'),
      parseLayoutName(3),
    ]).toEqual(['index', 'system', undefined, undefined]);
    expect(nearestIndex(index, 'a/b/c.md')).toBe('a/b/MEMORY.md');
    expect(nearestIndex(index, 'a/b/MEMORY.md')).toBe('a/MEMORY.md');
    expect(nearestIndex(index, 'a/MEMORY.md')).toBe('MEMORY.md');
    expect(nearestIndex(index, 'MEMORY.md')).toBeNull();
    expect(nearestIndex(system, 'a/b.md')).toBeNull();
    expect(indexSize('a\nb')).toEqual({ lines: 2, bytes: 3 });
    expect(indexSize(null)).toEqual({ lines: 0, bytes: 0 });
    expect(layoutRow('index', { lines: 3, bytes: 10 }).indexBudget).toEqual({ lines: 3, bytes: 10 });
    expect(layoutRow('system', { lines: 3, bytes: 10 }).indexBudget).toBeNull();
    expect(frontmatterKeysFor('a/MEMORY.md', index)).toBeNull();
    expect(frontmatterKeysFor('a/b.md', index)).toContain('type');
  });
});

describe('the validator under each layout', () => {
  const accepted: Array<[string, FileChange[]]> = [
    ['a topic file with name and description', [added('a/b.md', topic())]],
    ['Claude Code type', [added('b.md', topic('type: feedback\n'))]],
    ['gitmem extensions', [added('b.md', topic('limit: 100\n'))]],
    ['root index without frontmatter', [added('MEMORY.md', '# Memory\n- [b](b.md) — b\n')]],
    ['a sub-index without frontmatter', [added('a/MEMORY.md', '- [b](b.md)\n')]],
    ['an index exactly at budget', [added('MEMORY.md', lines(200))]],
    ['an index over budget that shrinks', [modified('MEMORY.md', lines(260), lines(250))]],
    ['a skill', [added('skills/git/SKILL.md', '---\nname: git\ndescription: d\n---\n')]],
  ];
  it.each(accepted)('index layout accepts %s', (_, changes) => {
    expect(validateChanges(changes, { layout: index })).toEqual([]);
  });

  const refused: Array<[string, FileChange[], RegExp]> = [
    ['a topic file without name', [added('a/b.md', '---\ndescription: d\n---\n')], /missing required field 'name'/],
    ['an empty name', [added('a/b.md', topic().replace('name: n', "name: ' '"))], /'name' must be a non-empty/],
    ['a topic file without description', [added('b.md', '---\nname: n\n---\n')], /required field 'description'/],
    ['an unknown key', [added('b.md', topic('color: red\n'))], /unknown frontmatter key 'color'/],
    ['a bad type', [added('b.md', topic('type: diary\n'))], /'type' must be one of user, feedback/],
    ['root index with frontmatter', [added('MEMORY.md', topic())], /MEMORY.md routing index has no frontmatter/],
    ['a sub-index with frontmatter', [added('a/MEMORY.md', '---\nx: 1\n---\n')], /routing index has no frontmatter/],
    [
      'deleting the root index',
      [{ status: 'deleted', path: 'MEMORY.md', content: null, headContent: 'x\n' }],
      /^MEMORY.md: required in the index layout and cannot be deleted/,
    ],
    [
      'renaming the root index away',
      [{ status: 'renamed', oldPath: 'MEMORY.md', path: 'OLD.md', content: topic(), headContent: 'x\n' }],
      /required in the index layout and cannot be renamed to OLD.md/,
    ],
    ['a root index past 200 lines', [added('MEMORY.md', lines(201))], /201 lines .* condense it/],
    ['a root index past 25 KB', [added('MEMORY.md', `${'x'.repeat(26_000)}\n`)], /over its session-start budget/],
  ];
  it.each(refused)('index layout refuses %s', (_, changes, message) => {
    const problems = validateChanges(changes, { layout: index });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(message);
  });

  it('the root index budget is a BUDGET_EXCEEDED refusal, configurable, and sub-indexes are not bound by it', () => {
    expect(problemCode(findProblems([added('MEMORY.md', lines(201))], { layout: index }))).toBe('BUDGET_EXCEEDED');
    expect(
      validateChanges([added('MEMORY.md', lines(201))], { layout: layoutRow('index', { lines: 300, bytes: 1e6 }) }),
    ).toEqual([]);
    expect(
      validateChanges([added('MEMORY.md', lines(4))], { layout: layoutRow('index', { lines: 3, bytes: 1e6 }) })[0],
    ).toMatch(/over its session-start budget of 3 lines/);
    expect(validateChanges([added('a/MEMORY.md', lines(400))], { layout: index })).toEqual([]);
  });

  it('the system layout keeps its rules: MEMORY.md is a memory file there, name optional, nothing is required', () => {
    expect(validateChanges([added('MEMORY.md', '# x\n')], { layout: system })[0]).toMatch(/missing frontmatter/);
    // name/type/metadata are allowed (a migration from the index layout keeps them), not required; others unknown.
    expect(validateChanges([added('a.md', topic())])).toEqual([]);
    expect(validateChanges([added('a.md', '---\ndescription: d\ntype: lunch\n---\n')])[0]).toMatch(
      /'type' must be one of/,
    );
    expect(validateChanges([added('a.md', '---\ndescription: d\ncolour: red\n---\n')])[0]).toMatch(
      /unknown frontmatter key 'colour'/,
    );
    expect(
      validateChanges([
        { status: 'deleted', path: 'MEMORY.md', content: null, headContent: '---\ndescription: d\n---\n' },
      ]),
    ).toEqual([]);
  });

  it('the core budget counts each layout its own core', () => {
    const big = topic().replace('body', 'x'.repeat(400));
    const budget = { tokens: 50, used: 0 };
    expect(validateChanges([added('a.md', big)], { layout: index, systemBudget: budget })[0]).toMatch(
      /root memory files would hold/,
    );
    expect(validateChanges([added('a/b.md', big)], { layout: index, systemBudget: budget })).toEqual([]);
    expect(validateChanges([added('a.md', big.replace('name: n\n', ''))], { systemBudget: budget })).toEqual([]);
  });
});
