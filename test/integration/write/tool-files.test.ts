// The memory tool on every kind of file it keeps, through the CLI: skills (`skills/<name>/SKILL.md`, its
// `name` filled from the folder, every key the validator allows kept through describe, str-replace and
// apply-patch), a `file_text` carrying its own frontmatter (merged, never doubled), plain non-markdown files
// (exact paths and content, no frontmatter rules, listed by path, never inlined), and line numbers that
// agree everywhere (insert after line N of the file, as AMBIGUOUS_MATCH and patch previews number them).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryToolSchema } from '../../../src/memfs/tool-schema.js';
import { cliHome, errorCode, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

let h: CliHome;
let dir: string;
const A = ['--agent', 'a'];
const run = (args: string[], input?: string) => h.run([...args, ...A], input === undefined ? {} : { input });
const tool = (call: Record<string, unknown>) =>
  run(['memory', 'tool', '--call', JSON.stringify({ reason: 'r', ...call })]);
const read = (path: string): string => readFileSync(join(dir, path), 'utf8');
/** The committed text, byte for byte (the git helper trims its output). */
const head = (path: string): string =>
  execFileSync('git', ['show', `HEAD:${path}`], { cwd: dir, env: h.env, encoding: 'utf8' });
/** The refusal's code, with the repository exactly as it was. */
function refused(args: string[], input?: string): string | undefined {
  const before = h.state('a');
  const r = input === undefined ? run(args) : run(args, input);
  expect(r.code, r.stdout).toBe(1);
  expect(h.state('a')).toBe(before);
  return errorCode(r);
}
function ok(args: string[], input?: string): void {
  const r = input === undefined ? run(args) : run(args, input);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}
function shellCommit(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
  git(dir, ['add', path], h.env);
  git(dir, ['commit', '-q', '-m', `add ${path}`], h.env);
}

beforeAll(() => {
  h = cliHome('local', ['a']);
  dir = h.memoryDir('a');
});
afterAll(() => {
  h.close();
  cleanupTmp();
});

describe('skills through the tool', () => {
  it('create skills/<name>/SKILL.md fills name from the folder; the prompt lists the skill', () => {
    ok([
      'memory',
      'create',
      'skills/git-flow/SKILL.md',
      '--description',
      'Branching with git',
      '--text',
      'Use short branches.',
      '--reason',
      'skill',
    ]);
    expect(head('skills/git-flow/SKILL.md')).toBe(
      '---\nname: git-flow\ndescription: Branching with git\n---\nUse short branches.\n',
    );
    expect(run(['prompt']).stdout).toContain('- git-flow: Branching with git');
  });

  it('describe, str-replace and apply-patch keep every key the validator allows, in order, byte for byte', () => {
    const fm =
      '---\nname: review\ndescription: Review code\nlicense: MIT\nallowed-tools:\n- Bash\n- Read\nmetadata:\n  author: ana   # team\ncompatibility: node >= 20\n---\n';
    shellCommit('skills/review/SKILL.md', `${fm}Check tests.\n`);
    ok([
      'memory',
      'describe',
      'skills/review/SKILL.md',
      '--description',
      'Review code: tests first',
      '--reason',
      'sharper',
    ]);
    const described = fm.replace('description: Review code\n', 'description: "Review code: tests first"\n');
    expect(head('skills/review/SKILL.md')).toBe(`${described}Check tests.\n`);
    ok([
      'memory',
      'str-replace',
      'skills/review/SKILL.md',
      '--old',
      'Check tests.',
      '--new',
      'Check tests, then style.',
      '--reason',
      'style',
    ]);
    const patch =
      '*** Begin Patch\n*** Update File: skills/review/SKILL.md\n@@\n-Check tests, then style.\n+Check tests, then style, then docs.\n*** End Patch\n';
    ok(['memory', 'apply-patch', '--reason', 'docs'], patch);
    expect(head('skills/review/SKILL.md')).toBe(`${described}Check tests, then style, then docs.\n`);
  });

  it('apply-patch adds a SKILL.md (name filled, allowed keys kept); a name that is not the folder is refused', () => {
    const add =
      '*** Begin Patch\n*** Add File: skills/notes/SKILL.md\n+---\n+description: Take notes\n+license: MIT\n+---\n+Write it down.\n*** End Patch\n';
    ok(['memory', 'apply-patch', '--reason', 'add skill'], add);
    expect(head('skills/notes/SKILL.md')).toBe(
      '---\nname: notes\ndescription: Take notes\nlicense: MIT\n---\nWrite it down.',
    );
    expect(
      refused([
        'memory',
        'create',
        'skills/other/SKILL.md',
        '--text',
        '---\nname: wrong\ndescription: d\n---\nx',
        '--reason',
        'r',
      ]),
    ).toBe('VALIDATION_FAILED');
  });
});

describe('a file_text with its own frontmatter', () => {
  it("is merged with the tool's (one frontmatter, keys kept), and may bring the description itself", () => {
    ok([
      'memory',
      'create',
      'notes/fm.md',
      '--description',
      'Dee',
      '--text',
      '---\ndescription: Dee\nlimit: 500\n---\nbody\n',
      '--reason',
      'r',
    ]);
    expect(head('notes/fm.md')).toBe('---\ndescription: Dee\nlimit: 500\n---\nbody\n');
    ok(['memory', 'create', 'notes/own.md', '--text', '---\nlimit: 9\ndescription: Own\n---\nmine', '--reason', 'r']);
    expect(head('notes/own.md')).toBe('---\nlimit: 9\ndescription: Own\n---\nmine\n');
    ok([
      'memory',
      'create',
      'notes/added.md',
      '--description',
      'Added',
      '--text',
      '---\nlimit: 3\n---\nb',
      '--reason',
      'r',
    ]);
    expect(head('notes/added.md')).toBe('---\ndescription: Added\nlimit: 3\n---\nb\n');
  });

  it('is refused when the descriptions differ, a key is unknown or read_only, or its YAML is broken', () => {
    const create = (text: string, ...extra: string[]) =>
      refused(['memory', 'create', 'notes/bad.md', ...extra, '--text', text, '--reason', 'r']);
    expect(create('---\ndescription: One\n---\nx', '--description', 'Two')).toBe('INVALID_ARGUMENT');
    const unknown = run([
      'memory',
      'create',
      'notes/bad.md',
      '--description',
      'D',
      '--text',
      '---\ncolour: red\n---\nx',
      '--reason',
      'r',
    ]);
    expect(errorCode(unknown)).toBe('VALIDATION_FAILED');
    expect(unknown.stderr).toContain("unknown frontmatter key 'colour'");
    expect(create('---\ndescription: D\nread_only: true\n---\nx')).toBe('VALIDATION_FAILED');
    expect(create('---\ndescription: [unclosed\n---\nx')).toBe('FRONTMATTER_INVALID');
    expect(create('no frontmatter here')).toBe('INVALID_ARGUMENT'); // markdown memory needs a description
  });
});

describe('plain (non-markdown) files', () => {
  it('create notes/progress.json makes exactly that file, content as given, no description needed', () => {
    ok(['memory', 'create', 'notes/progress.json', '--text', '{"done": 3}', '--reason', 'progress']);
    expect(head('notes/progress.json')).toBe('{"done": 3}');
    expect(git(dir, ['ls-files', 'notes/'], h.env).split('\n')).toContain('notes/progress.json');
    ok(['memory', 'create', 'system/config.json', '--text', '{"secret-ish": "not inlined"}\n', '--reason', 'cfg']);
    ok(['memory', 'create', 'notes/plain', '--description', 'Still markdown', '--reason', 'md']);
    expect(head('notes/plain.md')).toBe('---\ndescription: Still markdown\n---\n');
  });

  it('are listed by path in the tree and never inlined into the prompt', () => {
    const tree = run(['tree']).stdout;
    expect(tree).toMatch(/── progress\.json$/m);
    expect(tree).toMatch(/── config\.json$/m);
    const prompt = run(['prompt']).stdout;
    expect(prompt).not.toContain('not inlined');
    expect(prompt).toContain('config.json');
  });

  it('str-replace, insert, rename and delete work on them; describe and a description are refused clearly', () => {
    ok(['memory', 'str-replace', 'notes/progress.json', '--old', '3', '--new', '4', '--reason', 'more']);
    ok(['memory', 'insert', 'notes/progress.json', '--line', '0', '--text', '// top', '--reason', 'top']);
    expect(head('notes/progress.json')).toBe('// top\n{"done": 4}');
    ok(['memory', 'rename', 'notes/progress.json', 'notes/progress.txt', '--reason', 'txt']);
    expect(head('notes/progress.txt')).toBe('// top\n{"done": 4}');
    const describe = run(['memory', 'describe', 'notes/progress.txt', '--description', 'x', '--reason', 'r']);
    expect(errorCode(describe)).toBe('INVALID_ARGUMENT');
    expect(describe.stderr).toMatch(/plain file/);
    expect(refused(['memory', 'create', 'notes/x.json', '--description', 'x', '--text', '{}', '--reason', 'r'])).toBe(
      'INVALID_ARGUMENT',
    );
    ok(['memory', 'delete', 'notes/progress.txt', '--reason', 'done']);
    expect(git(dir, ['ls-files', 'notes/progress.txt'], h.env)).toBe('');
  });

  it('apply-patch adds and updates them as they are; UTF-8 is still required', () => {
    const add = '*** Begin Patch\n*** Add File: data/list.txt\n+one\n+two\n*** End Patch\n';
    ok(['memory', 'apply-patch', '--reason', 'list'], add);
    expect(head('data/list.txt')).toBe('one\ntwo');
    const update = '*** Begin Patch\n*** Update File: data/list.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n';
    ok(['memory', 'apply-patch', '--reason', 'caps'], update);
    expect(head('data/list.txt')).toBe('one\nTWO');
    shellCommit('data/bin.txt', 'a\0b');
    expect(refused(['memory', 'str-replace', 'data/bin.txt', '--old', 'a', '--new', 'c', '--reason', 'r'])).toBe(
      'NOT_UTF8',
    );
  });
});

describe('line numbers that agree', () => {
  // Lines 1-3 are the frontmatter; the body is lines 4-6.
  const text = '---\ndescription: L\n---\nalpha x\nbeta\ngamma x\n';
  beforeAll(() => shellCommit('notes/lines.md', text));

  it('insert_line N inserts after line N of the whole file; 0 and the closing --- line mean the top of the body', () => {
    ok(['memory', 'insert', 'notes/lines.md', '--line', '6', '--text', 'delta', '--reason', 'end']);
    ok(['memory', 'insert', 'notes/lines.md', '--line', '4', '--text', 'after alpha', '--reason', 'mid']);
    ok(['memory', 'insert', 'notes/lines.md', '--line', '3', '--text', 'top', '--reason', 'top']);
    ok(['memory', 'insert', 'notes/lines.md', '--line', '0', '--text', 'very top', '--reason', 'top0']);
    expect(read('notes/lines.md')).toBe(
      '---\ndescription: L\n---\nvery top\ntop\nalpha x\nafter alpha\nbeta\ngamma x\ndelta\n',
    );
  });

  it('refuses a line inside the frontmatter, past the end, or not a whole number ≥ 0', () => {
    const inside = run(['memory', 'insert', 'notes/lines.md', '--line', '2', '--text', 'x', '--reason', 'r']);
    expect(errorCode(inside)).toBe('INVALID_ARGUMENT');
    expect(inside.stderr).toMatch(/frontmatter \(lines 1-3\)/);
    const past = run(['memory', 'insert', 'notes/lines.md', '--line', '11', '--text', 'x', '--reason', 'r']);
    expect(errorCode(past)).toBe('INVALID_ARGUMENT');
    expect(past.stderr).toMatch(/10 lines/);
    for (const line of [1.5, -1, '1e1', 'x', null, '', ' 2']) {
      expect(
        errorCode(tool({ command: 'insert', file_path: 'notes/lines.md', insert_line: line, insert_text: 'x' })),
        String(line),
      ).toBe('INVALID_ARGUMENT');
    }
    expect(
      errorCode(run(['memory', 'insert', 'notes/lines.md', '--line', 'Infinity', '--text', 'x', '--reason', 'r'])),
    ).toBe('INVALID_ARGUMENT');
    expect(
      errorCode(run(['memory', 'insert', 'notes/lines.md', '--line', 'NaN', '--text', 'x', '--reason', 'r'])),
    ).toBe('INVALID_ARGUMENT');
  });

  it('AMBIGUOUS_MATCH and patch previews number lines the same way', () => {
    const ambiguous = run(['memory', 'str-replace', 'notes/lines.md', '--old', ' x', '--new', ' y', '--reason', 'r']);
    expect(errorCode(ambiguous)).toBe('AMBIGUOUS_MATCH');
    expect(ambiguous.stderr).toContain('(lines 6, 9)');
    const lines = read('notes/lines.md').split('\n');
    expect([lines[5], lines[8]]).toEqual(['alpha x', 'gamma x']);
    const patch = '*** Begin Patch\n*** Update File: notes/lines.md\n@@\n beta\n-nothing like this\n*** End Patch\n';
    const mismatch = run(['memory', 'apply-patch', '--reason', 'r'], patch);
    expect(errorCode(mismatch)).toBe('PATCH_MISMATCH');
    expect(mismatch.stderr).toContain('     8\tbeta');
    expect(mismatch.stderr).toContain('     1\t---');
    expect(mismatch.stderr).toMatch(/first line .*line 8/);
  });

  it('the tool schema says how lines are counted', () => {
    const d = memoryToolSchema.properties.insert_line.description;
    expect(d).toMatch(/after/i);
    expect(d).toMatch(/whole file/);
    expect(memoryToolSchema.properties.insert_line.type).toBe('integer');
  });
});
