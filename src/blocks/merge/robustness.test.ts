// Properties of the structural merge on generated input (seeded, bounded): taking a body apart and putting it
// back is byte-exact; a merge never throws anything but its own result; one-sided changes come through as they
// are; pathological markdown of the largest accepted size is answered, not hung on.
import { describe, expect, it } from 'vitest';
import { MAX_MERGE_CHARS } from './limits.js';
import { mergeMarkdownWith } from './merge-text.js';
import { loadMarkdownParser } from './parser.js';
import { buildDoc, renderDoc, type MdNode } from './structure.js';
import { MergeConflictSignal } from './types.js';

const parse = loadMarkdownParser();

function rng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % n);
}

const PIECES = [
  '- a',
  '- b',
  '* c',
  '  - nested',
  '1. one',
  '# H',
  '## Sub',
  'Para text',
  'more text',
  '',
  '',
  '```',
  '- in code',
  '> quote',
  '<div>',
  '</div>',
  '[ref]: http://x',
  '    indented',
  '---',
  'Setext',
  '===',
  '- [ ] task',
  '\t- tab',
  '😀 emoji',
  '   ',
  '+ plus',
];

function body(r: (n: number) => number): string {
  const n = r(14);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(PIECES[r(PIECES.length)] as string);
  return lines.join('\n') + (r(3) === 0 ? '' : '\n');
}

/** A random edit: replace, insert or delete one line. */
function edit(text: string, r: (n: number) => number): string {
  const lines = text.split('\n');
  const at = r(lines.length + 1);
  const piece = PIECES[r(PIECES.length)] as string;
  const op = r(3);
  if (op === 0) lines.splice(at, 0, piece);
  else if (op === 1) lines.splice(at, 1, piece);
  else lines.splice(at, 1);
  return lines.join('\n');
}

/** How often each leaf (block, heading, item) occurs in a file's body. */
function leafCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const walk = (nodes: readonly MdNode[]): void => {
    for (const n of nodes) {
      if (n.children) walk(n.children);
      else counts.set(n.key, (counts.get(n.key) ?? 0) + 1);
    }
  };
  walk(buildDoc(text.slice(text.indexOf('---\n', 4) + 4), parse).children);
  return counts;
}

const file = (b: string): string => `---\ndescription: Generated\n---\n${b}`;

describe('the structural merge on generated input', () => {
  it('takes any body apart and renders it back byte for byte', () => {
    const r = rng(7);
    for (let i = 0; i < 1500; i++) {
      const b = body(r);
      let doc;
      try {
        doc = buildDoc(b, parse);
      } catch (err) {
        if (err instanceof MergeConflictSignal) continue;
        throw err;
      }
      expect(renderDoc(doc)).toBe(b);
    }
  });

  it('answers every three-way input with a result; one-sided changes come through unchanged', () => {
    const r = rng(11);
    let clean = 0;
    for (let i = 0; i < 1500; i++) {
      const base = file(body(r));
      const ours = file(edit(edit(base.slice(base.indexOf('---\n', 4) + 4), r), r));
      const theirs = file(edit(base.slice(base.indexOf('---\n', 4) + 4), r));
      const both = mergeMarkdownWith(parse, { base, ours, theirs, path: 'notes/gen.md' });
      if (both.status === 'clean') {
        clean++;
        // Nothing is invented and nothing either side added is lost.
        const [cb, co, ct, cr] = [base, ours, theirs, both.text].map(leafCounts) as [
          Map<string, number>,
          Map<string, number>,
          Map<string, number>,
          Map<string, number>,
        ];
        for (const [leaf, n] of cr) expect(n, leaf).toBeLessThanOrEqual(Math.max(co.get(leaf) ?? 0, ct.get(leaf) ?? 0));
        for (const side of [co, ct])
          for (const [leaf, n] of side) expect(cr.get(leaf) ?? 0, leaf).toBeGreaterThanOrEqual(n - (cb.get(leaf) ?? 0));
      }
      expect(mergeMarkdownWith(parse, { base, ours, theirs: base, path: 'notes/gen.md' })).toEqual({
        status: 'clean',
        text: ours,
      });
      expect(mergeMarkdownWith(parse, { base, ours, theirs: ours, path: 'notes/gen.md' })).toEqual({
        status: 'clean',
        text: ours,
      });
    }
    expect(clean).toBeGreaterThan(300);
  });

  it('answers pathological markdown at the size cap', () => {
    const n = MAX_MERGE_CHARS - 200;
    const shapes = [
      '>'.repeat(n),
      '- '.repeat(n / 2),
      '- - x\n'.repeat(n / 6),
      '['.repeat(n),
      '*_'.repeat(n / 2),
      '```\n'.repeat(n / 4),
      '<div>\n'.repeat(n / 6),
      '[a]: b\n'.repeat(n / 7),
      '- x\n'.repeat(n / 4),
      '## h\n\n- a\n  - b\n- c\n\n'.repeat(n / 22),
      Array.from({ length: 250 }, (_, i) => `${' '.repeat(i)}- x`).join('\n'),
    ];
    for (const shape of shapes) {
      const base = file(shape);
      const r = mergeMarkdownWith(parse, {
        base,
        ours: `${base}\n- ours\n`,
        theirs: `${base}\n- theirs\n`,
        path: 'notes/p.md',
      });
      expect(['clean', 'conflict']).toContain(r.status);
    }
  });
});
