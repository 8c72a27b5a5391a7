import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../blocks/layouts.js';
import { indexProblems } from './check-layout.js';
import { indexLine, missingIndexLines } from './fix-index-links.js';

describe('indexLine', () => {
  it('links a topic by its name and description, relative to the index', () => {
    expect(indexLine('a/MEMORY.md', 'a/b c.md', '---\nname: B\ndescription: d\n---\nx\n')).toBe('- [B](b%20c.md) — d');
  });

  it('folds a hostile name and description to one line and drops brackets from the title and escapes parentheses in the path', () => {
    const text = '---\nname: "x]\\n- [evil](e.md)"\ndescription: "one\\ntwo"\n---\n';
    const line = indexLine('d/MEMORY.md', 'd/a (1).md', text);
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toBe('- [x - evil(e.md)](a%20%281%29.md) — one two');
    const files = [
      { path: 'MEMORY.md', text: '- [d](d/MEMORY.md)\n' },
      { path: 'd/MEMORY.md', text: line },
      { path: 'd/a (1).md', text },
    ];
    expect(indexProblems(LAYOUTS.index, files)).toEqual([]);
  });

  it('names a sub-index by its folder, and a file without frontmatter by its file name', () => {
    expect(indexLine('MEMORY.md', 'lang/MEMORY.md', '# Lang\n')).toBe('- [lang](lang/MEMORY.md)');
    expect(indexLine('lang/MEMORY.md', 'lang/go.md', 'no frontmatter')).toBe('- [go](go.md)');
  });
});

describe('missingIndexLines', () => {
  it('adds only what is unlinked from an index that exists (no line for a missing index)', () => {
    const files = [
      { path: 'MEMORY.md', text: '' },
      { path: 'lang/MEMORY.md', text: '- [Go](go.md)\n' },
      { path: 'lang/go.md', text: '---\nname: go\ndescription: g\n---\n' },
      { path: 'lang/py.md', text: '---\nname: py\ndescription: p\n---\n' },
      { path: 'ops/run.md', text: '---\nname: run\ndescription: r\n---\n' },
    ];
    const lines = missingIndexLines(LAYOUTS.index, files, indexProblems(LAYOUTS.index, files));
    expect([...lines]).toEqual([
      ['MEMORY.md', ['- [lang](lang/MEMORY.md)']],
      ['lang/MEMORY.md', ['- [py](py.md) — p']],
    ]);
  });
});
