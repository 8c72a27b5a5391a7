import { describe, expect, it } from 'vitest';
import { compilePrompt } from './compile-prompt.js';
import { deferredDirectories, withinIndexBudget } from './compile-index.js';
import { LAYOUTS, layoutRow } from './layouts.js';

const topic = (name: string, description: string, body = 'body'): string =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
const files = [
  { path: 'MEMORY.md', content: '# Memory\n- [Go](lang/go.md) — Go style\n' },
  { path: 'persona.md', content: topic('persona', 'who I am', 'I am careful.') },
  { path: 'human.md', content: topic('human', 'the user', 'Likes tests.') },
  { path: 'lang/MEMORY.md', content: '- [Go](go.md) — Go style\n' },
  { path: 'lang/go.md', content: topic('go', 'Go style rules', 'SECRET-DEFERRED-BODY') },
  { path: 'notes/x.md', content: topic('x', 'unindexed', 'x') },
  { path: 'skills/git/SKILL.md', content: '---\nname: git\ndescription: git tricks\n---\n' },
];

describe('compilePrompt per layout', () => {
  it('index layout: root files inlined, the root index without frontmatter, deferred directories with their index', () => {
    const p = compilePrompt(files, { revision: 'abc' }, LAYOUTS.index);
    expect(p).toContain('<projection>$MEMORY_DIR/persona.md</projection>');
    expect(p).toContain('<MEMORY>\n    <projection>$MEMORY_DIR/MEMORY.md</projection>');
    expect(p).toContain('I am careful.');
    expect(p).toContain('Likes tests.');
    expect(p).toContain('- [Go](lang/go.md) — Go style');
    expect(p).not.toContain('SECRET-DEFERRED-BODY');
    expect(p).not.toContain('(frontmatter invalid)');
    expect(p).toContain('<directory path="$MEMORY_DIR/lang" index="$MEMORY_DIR/lang/MEMORY.md"/>');
    expect(p).toContain('<directory path="$MEMORY_DIR/notes"/>');
    expect(p).toContain('Files outside root memory files');
    expect(p).toContain('git tricks');
    expect(compilePrompt([...files].reverse(), { revision: 'abc' }, LAYOUTS.index)).toBe(p);
  });

  it('system layout: the same files compile as before (root files are deferred, no deferred section)', () => {
    const p = compilePrompt(files, { revision: 'abc' });
    expect(p).not.toContain('<deferred-memory>');
    expect(p).not.toContain('I am careful.');
    expect(p).toBe(compilePrompt(files, { revision: 'abc' }, LAYOUTS.system));
  });

  it('the root index is cut to its session-start budget in the prompt, with a note', () => {
    const long = Array.from({ length: 300 }, (_, i) => `- line ${i}`).join('\n');
    const p = compilePrompt([{ path: 'MEMORY.md', content: long }], {}, LAYOUTS.index);
    expect(p).toContain('- line 199');
    expect(p).not.toContain('- line 200\n');
    // Claude Code's own warning (claude 2.1.328), with the repository's budget.
    expect(p).toContain(
      '- line 199\n\n> WARNING: MEMORY.md is 300 lines (limit: 200). Only part of it was loaded: 100 of 300 lines ' +
        'were cut off, starting at line 201 ("- line 200"). Keep index entries to one line under ~200 chars; move ' +
        'detail into topic files.',
    );
    const small = compilePrompt(
      [{ path: 'MEMORY.md', content: long }],
      {},
      layoutRow('index', { lines: 5, bytes: 1e6 }),
    );
    expect(small).toContain('- line 4');
    expect(small).not.toContain('- line 5\n');
  });

  it('says which limit an index broke: bytes alone, or a first line longer than the budget', () => {
    const wide = `${Array.from({ length: 10 }, (_, i) => `- ${String(i).repeat(40)}`).join('\n')}\n`;
    const p = compilePrompt([{ path: 'MEMORY.md', content: wide }], {}, layoutRow('index', { lines: 200, bytes: 100 }));
    expect(p).toMatch(
      /MEMORY\.md is 430 bytes \(limit: 100\) — index entries are too long\. Only part of it was loaded: 8 of 10 lines were cut off, starting at line 3 \("- 2{40}"\)/,
    );
    const one = compilePrompt(
      [{ path: 'MEMORY.md', content: 'x'.repeat(300) }],
      {},
      layoutRow('index', { lines: 200, bytes: 100 }),
    );
    expect(one).toContain('everything after the first 100 characters of line 1 was cut off');
  });

  it('cuts by bytes without splitting a character, and lists directories in order', () => {
    const cut = withinIndexBudget(`ab\n${'é'.repeat(10)}\n`, { lines: 200, bytes: 8 });
    expect(cut).toEqual({ text: 'ab', cut: true });
    expect(withinIndexBudget('a\n', { lines: 1, bytes: 2 })).toEqual({ text: 'a\n', cut: false });
    expect(deferredDirectories(LAYOUTS.index, ['b/x.md', 'a/b/c.md', 'a/MEMORY.md', 'y.md'])).toEqual([
      { path: 'a', index: 'a/MEMORY.md' },
      { path: 'a/b', index: null },
      { path: 'b', index: null },
    ]);
  });
});
