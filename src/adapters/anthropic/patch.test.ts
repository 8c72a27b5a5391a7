import { describe, expect, it } from 'vitest';
import { planPatch } from '../../memfs/apply-patch/plan.js';
import { rng } from '../../../test/helpers/rng.js';
import { renderPatch, type FileOp } from './patch.js';
import { HIDDEN_MARK } from './stored-text.js';

/** What gitmem's patch planner writes for `ops` over the files `disk` holds (null = deleted). */
function apply(disk: Record<string, string>, ops: FileOp[]): Record<string, string | null> {
  const plan = planPatch(renderPatch(ops), { read: (f) => disk[f] ?? null }, { memoryDir: '/m' });
  return Object.fromEntries([...plan.deletes.map((f) => [f, null]), ...plan.writes.map((w) => [w.file, w.content])]);
}

/** Seeded texts that stress the grammar: CR, CRLF, a BOM, patch markers, `-`/`+`/` ` first characters. */
function texts(seed: number, n: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const parts = [
    'x',
    '',
    ' ',
    '*** End Patch',
    ' *** End Patch',
    '*** Add File: y',
    '@@',
    '-',
    '+',
    'a\r',
    '\r',
    '\ufeff',
    'é🙂',
    '\t',
  ];
  return Array.from(
    { length: n },
    () =>
      Array.from({ length: Math.floor(r() * 6) }, () => pick(parts)).join(pick(['\n', '\r\n', '\n'])) +
      pick(['', '\n', '\r\n']),
  );
}

describe("the adapter's changes as one patch", () => {
  it('writes every text exactly as planned: added, rewritten over any old text, moved (seeded texts)', () => {
    const all = texts(7, 400);
    for (const [i, text] of all.entries()) {
      const before = all[(i * 7 + 3) % all.length] as string;
      const label = `#${i} ${JSON.stringify(before)} -> ${JSON.stringify(text)}`;
      expect(apply({}, [{ kind: 'add', file: 'n/a.txt', text }]), label).toEqual({ 'n/a.txt': text });
      expect(apply({ 'n/a.txt': before }, [{ kind: 'rewrite', file: 'n/a.txt', before, text }]), label).toEqual({
        'n/a.txt': text,
      });
      expect(
        apply({ 'n/a.txt': before }, [{ kind: 'move', from: 'n/a.txt', to: 'm/b.txt', before, text }]),
        label,
      ).toEqual({ 'n/a.txt': null, 'm/b.txt': text });
      expect(
        apply({ 'n/a.txt': before }, [{ kind: 'move', from: 'n/a.txt', to: 'm/b.txt', before, text: before }]),
        label,
      ).toEqual({ 'n/a.txt': null, 'm/b.txt': before });
    }
  });

  it('writes memory markdown as planned, a hidden block included, and deletes', () => {
    const md = `---\ndescription: d\n${HIDDEN_MARK}\n---\n---\ntitle: mine\n---\nbody`;
    expect(apply({}, [{ kind: 'add', file: 'a.md', text: md }])).toEqual({ 'a.md': md });
    expect(apply({ 'a.md': md }, [{ kind: 'rewrite', file: 'a.md', before: md, text: `${md}\r\nmore` }])).toEqual({
      'a.md': `${md}\r\nmore`,
    });
    expect(
      apply({ 'a.md': md, 'b.txt': 'x' }, [
        { kind: 'delete', file: 'a.md' },
        { kind: 'delete', file: 'b.txt' },
      ]),
    ).toEqual({ 'a.md': null, 'b.txt': null });
  });

  it('names each file exactly, one under memory/ included', () => {
    expect(apply({}, [{ kind: 'add', file: 'memory/notes.txt', text: 'x' }])).toEqual({ 'memory/notes.txt': 'x' });
  });

  it('never loses what another writer did since the file was read: changed lines refuse, added lines stay', () => {
    for (const now of ['other', 'old\nmine\n', 'ol\n']) {
      expect(
        () => apply({ 'a.txt': now }, [{ kind: 'rewrite', file: 'a.txt', before: 'old\n', text: 'new' }]),
        now,
      ).toThrow(/context not found/);
    }
    expect(() =>
      apply({ 'a.txt': 'x\r\ny' }, [{ kind: 'rewrite', file: 'a.txt', before: 'x\r\nz', text: 'new' }]),
    ).toThrow(/context not found/);
    expect(
      apply({ 'a.txt': 'top\nold\n' }, [{ kind: 'rewrite', file: 'a.txt', before: 'old\n', text: 'new\n' }]),
    ).toEqual({ 'a.txt': 'top\nnew\n' });
  });
});
