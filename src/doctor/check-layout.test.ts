import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../blocks/layouts.js';
import { indexProblems } from './check-layout.js';

const t = (path: string, text = '---\nname: n\ndescription: d\n---\n'): { path: string; text: string } => ({
  path,
  text,
});

describe('indexProblems', () => {
  it('accepts a hierarchy where every deferred file and sub-index is linked once from its nearest index', () => {
    const files = [
      t('MEMORY.md', '- [Lang](lang/MEMORY.md)\n'),
      t('persona.md'),
      t('lang/MEMORY.md', '- [Go](go.md) — Go\n- [Rust](rust.md)\n'),
      t('lang/go.md'),
      t('lang/rust.md'),
      t('skills/git/SKILL.md'),
    ];
    expect(indexProblems(LAYOUTS.index, files)).toEqual([]);
  });

  it('reports unlinked, twice-linked, dead links and missing indexes; the system layout has none', () => {
    const files = [
      t('MEMORY.md', '- [Gone](gone.md)\n'),
      t('lang/MEMORY.md', '- [Go](go.md)\n- [Go again](./go.md)\n'),
      t('lang/go.md'),
      t('lang/rust.md'),
      t('ops/run.md'),
    ];
    expect(indexProblems(LAYOUTS.index, files)).toEqual([
      'MEMORY.md: dead link (gone.md)',
      'lang/MEMORY.md: not linked from MEMORY.md',
      'lang/go.md: linked 2 times from lang/MEMORY.md (once is enough)',
      'lang/rust.md: not linked from lang/MEMORY.md',
      'ops/MEMORY.md: missing (ops/ holds deferred memory)',
    ]);
    expect(indexProblems(LAYOUTS.system, files)).toEqual([]);
  });
});
