// The strict readers answer null (git decides) for every shape outside the small subset they accept; what they
// accept is pinned against git's own checks in test/integration/workers/strict-objects-fuzz.test.ts.
import { describe, expect, it } from 'vitest';
import { parseStrictCommit, parseStrictTree } from './strict-objects.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

/** A raw tree from `[mode, name, id]` entries, in the order given (names as raw bytes). */
function tree(entries: Array<[string, string | Buffer, string]>): Buffer {
  return Buffer.concat(
    entries.flatMap(([mode, name, id]) => [
      Buffer.from(`${mode} `),
      typeof name === 'string' ? Buffer.from(name, 'latin1') : name,
      Buffer.from([0]),
      Buffer.from(id, 'hex'),
    ]),
  );
}

const who = 'A U Thor <a@example.com> 1700000000 +0100';
const commit = (header: string, message = 'msg\n'): Buffer => Buffer.from(`${header}\n\n${message}`, 'latin1');

describe('parseStrictTree', () => {
  it('reads the trees git writes for plain names, in order, files and trees alike', () => {
    const t = tree([
      ['100644', 'a.md', A],
      ['40000', 'a', B],
      ['100755', 'run.sh', A],
      ['120000', 'z', A],
    ]);
    // 'a.md' < 'a/' (0x2e < 0x2f): a tree named 'a' sorts after 'a.md'
    expect(parseStrictTree(t)).toEqual([
      { mode: '100644', name: 'a.md', id: A },
      { mode: '40000', name: 'a', id: B },
      { mode: '100755', name: 'run.sh', id: A },
      { mode: '120000', name: 'z', id: A },
    ]);
    expect(parseStrictTree(Buffer.alloc(0))).toEqual([]);
  });

  it.each([
    ['a .git directory', [['40000', '.git', B]]],
    ['.git in another case', [['40000', '.GiT', B]]],
    ['.gitmodules', [['100644', '.gitmodules', A]]],
    ['.gitattributes', [['100644', '.gitattributes', A]]],
    ['an NTFS short name', [['40000', 'GIT~1', B]]],
    ['an NTFS stream', [['100644', '.git::$INDEX_ALLOCATION', A]]],
    ['a name with a slash', [['100644', 'a/b', A]]],
    ['a name with a backslash', [['100644', 'a\\b', A]]],
    ['.', [['40000', '.', B]]],
    ['..', [['40000', '..', B]]],
    ['an empty name', [['100644', '', A]]],
    ['a trailing dot', [['40000', 'git.', B]]],
    ['a trailing space', [['100644', 'a ', A]]],
    ['a control character', [['100644', 'a\nb', A]]],
    ['a non-ASCII name (HFS ignorables are left to git)', [['40000', Buffer.from('.g\u200cit', 'utf8'), B]]],
    ['a zero-padded tree mode', [['040000', 'd', B]]],
    ['a gitlink', [['160000', 'sub', A]]],
    ['an odd file mode', [['100664', 'a.md', A]]],
    ['the null id', [['100644', 'a.md', '0'.repeat(40)]]],
    [
      'entries out of order',
      [
        ['100644', 'b.md', A],
        ['100644', 'a.md', A],
      ],
    ],
    [
      'a file after a tree of the same prefix in the wrong order',
      [
        ['40000', 'a', B],
        ['100644', 'a.md', A],
      ],
    ],
    [
      'the same name twice',
      [
        ['100644', 'a.md', A],
        ['100644', 'a.md', B],
      ],
    ],
    [
      'a file and a tree of one name',
      [
        ['100644', 'a', A],
        ['100644', 'a-b', A],
        ['40000', 'a', B],
      ],
    ],
  ] as Array<[string, Array<[string, string | Buffer, string]>]>)('answers null for %s', (_what, entries) => {
    expect(parseStrictTree(tree(entries))).toBeNull();
  });

  it('answers null for a truncated tree', () => {
    const t = tree([['100644', 'a.md', A]]);
    expect(parseStrictTree(t.subarray(0, t.length - 1))).toBeNull();
    expect(parseStrictTree(Buffer.from('100644 a.md'))).toBeNull();
  });
});

describe('parseStrictCommit', () => {
  it('reads what git commit writes: tree, parents, author, committer', () => {
    expect(parseStrictCommit(commit(`tree ${A}\nparent ${B}\nparent ${A}\nauthor ${who}\ncommitter ${who}`))).toEqual({
      tree: A,
      parents: [B, A],
    });
    expect(parseStrictCommit(commit(`tree ${A}\nauthor ${who}\ncommitter ${who}`, ''))).toEqual({
      tree: A,
      parents: [],
    });
    expect(parseStrictCommit(commit(`tree ${A}\nauthor  <a@x> 0 -0000\ncommitter ${who}`))).toEqual({
      tree: A,
      parents: [],
    });
  });

  it.each([
    ['a signature', `tree ${A}\nauthor ${who}\ncommitter ${who}\ngpgsig -----BEGIN PGP SIGNATURE-----`],
    ['an encoding header', `tree ${A}\nauthor ${who}\ncommitter ${who}\nencoding ISO-8859-1`],
    ['no author', `tree ${A}\ncommitter ${who}`],
    ['two authors', `tree ${A}\nauthor ${who}\nauthor ${who}\ncommitter ${who}`],
    ['a parent after the author', `tree ${A}\nauthor ${who}\nparent ${B}\ncommitter ${who}`],
    ['an upper-case id', `tree ${A.toUpperCase()}\nauthor ${who}\ncommitter ${who}`],
    ['the null tree', `tree ${'0'.repeat(40)}\nauthor ${who}\ncommitter ${who}`],
    ['no name before the email', `tree ${A}\nauthor <a@x> 1 +0000\ncommitter ${who}`],
    ['no space before the email', `tree ${A}\nauthor A<a@x> 1 +0000\ncommitter ${who}`],
    ['a zero-padded date', `tree ${A}\nauthor A <a@x> 01 +0000\ncommitter ${who}`],
    ['a short time zone', `tree ${A}\nauthor A <a@x> 1 +000\ncommitter ${who}`],
    ['a date too large', `tree ${A}\nauthor A <a@x> 99999999999999999999 +0000\ncommitter ${who}`],
    ['an email with <', `tree ${A}\nauthor A <a<b@x> 1 +0000\ncommitter ${who}`],
    ['a NUL in the header', `tree ${A}\nauthor A\0 <a@x> 1 +0000\ncommitter ${who}`],
  ])('answers null for %s', (_what, header) => {
    expect(parseStrictCommit(commit(header))).toBeNull();
  });

  it('answers null without the blank line before the message', () => {
    expect(parseStrictCommit(Buffer.from(`tree ${A}\nauthor ${who}\ncommitter ${who}\n`))).toBeNull();
  });
});
