import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../test/helpers/errors.js';
import { ObjectBatch, parseTree, serializeTree, type TreeItem } from './objects.js';
import { buildTree, type BaseTrees } from './tree-edit.js';

const ID = 'a'.repeat(40);
const latin = Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from('.md')]);

function base(root: TreeItem[], dirs: Record<string, TreeItem[]> = {}): BaseTrees {
  // Round-trip through the tree format, as the write path reads trees.
  const trees = new Map<string, TreeItem[]>([['', parseTree(serializeTree(root))]]);
  for (const [d, items] of Object.entries(dirs)) trees.set(d, parseTree(serializeTree(items)));
  return { head: 'b'.repeat(40), trees };
}

describe('buildTree', () => {
  it('writes back a sibling whose name is not UTF-8 byte for byte', () => {
    const batch = new ObjectBatch('/nonexistent/objects');
    const root = [{ mode: '100644', name: latin.toString('utf8'), raw: latin, id: ID }];
    buildTree(batch, base(root), [{ file: 'new.md', content: Buffer.from('x') }]);
    const raw = inflateSync((batch.pending.at(-1) as { data: Buffer }).data); // the root tree, composed last
    const items = parseTree(raw.subarray(raw.indexOf(0) + 1));
    expect(items.map((i) => i.raw?.toString('latin1'))).toEqual(['caf\xe9.md', 'new.md']);
  });
  it('keeps an existing file mode and reports index entries before and after', () => {
    const batch = new ObjectBatch('/nonexistent/objects');
    const built = buildTree(batch, base([{ mode: '100755', name: 'run.md', id: ID }]), [
      { file: 'run.md', content: Buffer.from('y') },
    ]);
    expect(built.before).toEqual([{ path: 'run.md', mode: '100755', id: ID }]);
    expect(built.after[0]).toMatchObject({ path: 'run.md', mode: '100755' });
  });
  it('refuses to put a file where a directory, link or submodule is, or a directory where a file is', () => {
    const b = base([
      { mode: '40000', name: 'dir', id: ID },
      { mode: '120000', name: 'lnk', id: ID },
      { mode: '160000', name: 'sub', id: ID },
      { mode: '100644', name: 'a.md', id: ID },
    ]);
    for (const file of ['dir', 'lnk', 'sub', 'a.md/b.md']) {
      expect(
        errorCodeOf(() => buildTree(new ObjectBatch('/nonexistent/objects'), b, [{ file, content: Buffer.from('x') }])),
        file,
      ).toBe('INVALID_PATH');
    }
    expect(
      errorCodeOf(() => buildTree(new ObjectBatch('/nonexistent/objects'), b, [{ file: 'dir', content: null }])),
    ).toBe('INVALID_PATH');
  });
});
