import { describe, expect, it } from 'vitest';
import { buildTreeIndex } from './tree-index.js';

describe('the tree index', () => {
  it('lists one directory at a time, directories first, with file counts and token sums', () => {
    const ix = buildTreeIndex('c1', [
      { path: 'system/persona.md', size: 40, description: 'who I am' },
      { path: 'notes/a/deep.md', size: 4 },
      { path: 'notes/b.md', size: 9 },
      { path: 'top.md', size: 1 },
    ]);
    expect(ix.dirs.get('')?.map((e) => `${e.type}:${e.name}`)).toEqual(['dir:notes', 'dir:system', 'file:top.md']);
    expect(ix.dirs.get('')?.[0]).toMatchObject({ path: 'notes', files: 2, tokens: 1 + 3 });
    expect(ix.dirs.get('notes')?.map((e) => e.name)).toEqual(['a', 'b.md']);
    expect(ix.dirs.get('system')?.[0]).toMatchObject({ type: 'file', tokens: 10, description: 'who I am' });
    expect(ix.dirs.get('notes/a')?.[0]).toMatchObject({ path: 'notes/a/deep.md' });
  });

  it('an empty listing has an empty root', () => {
    expect(buildTreeIndex(null, []).dirs.get('')).toEqual([]);
  });
});
