/**
 * indexValues (the fields a build binds, split from a prefix of the bytes) against indexFields (the whole
 * text decoded): the same description and the same body, for seeded files of every shape — long and broken
 * frontmatter, multi-byte characters across the prefix's end, BOM, CR, `---` look-alikes.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../test/helpers/rng.js';
import { indexFields, indexValues } from './text.js';

const PIECES = [
  '---',
  '---  ',
  '----',
  '--',
  'description: café ☕ notes',
  'description: "quoted: x"',
  'description: [a, b',
  'limit: 5',
  'é',
  '☕',
  '𝄞',
  'word',
  ' ',
  '\t',
  '\r',
  '\ufeff',
  '',
];

function file(random: () => number): string {
  const lines: string[] = [];
  const n = Math.floor(random() * 12);
  if (random() < 0.8) lines.push('---');
  for (let i = 0; i < n; i++) {
    const k = Math.floor(random() * 4);
    lines.push(Array.from({ length: k }, () => PIECES[Math.floor(random() * PIECES.length)]).join(''));
    // a long line puts the closing line (or a character) across the prefix's end
    if (random() < 0.15) lines.push('é'.repeat(Math.floor(random() * 400)) + 'x'.repeat(Math.floor(random() * 300)));
  }
  if (random() < 0.7) lines.push('---');
  lines.push('body text ☕ here');
  return lines.join('\n') + (random() < 0.5 ? '\n' : '');
}

describe('indexValues', () => {
  it('binds exactly what indexFields splits from the decoded text (seeded files of every shape)', () => {
    const random = rng(12);
    for (let i = 0; i < 4000; i++) {
      const text = file(random);
      const bytes = Buffer.from(text, 'utf8');
      const want = indexFields(text);
      const got = indexValues(bytes);
      const body = typeof got.body === 'string' ? got.body : got.body.toString('utf8');
      expect({ description: got.description, body }, JSON.stringify(text).slice(0, 200)).toEqual(want);
    }
  });

  it('never takes a line cut at the end of the prefix for the closing line', () => {
    // `---x`, `----` or `--- x` lines (not closing ones) across byte 512, then the real closing line.
    for (const fake of ['---x', '----', '--- x', '---é', '---']) {
      for (let pad = 480; pad < 530; pad++) {
        const text = `---\ndescription: ${'a'.repeat(pad)}\n${fake} more\nnext: 1\n---\nbody é\n`;
        const got = indexValues(Buffer.from(text));
        const body = typeof got.body === 'string' ? got.body : got.body.toString('utf8');
        expect({ description: got.description, body }, `${fake} ${pad}`).toEqual(indexFields(text));
      }
    }
  });

  it('splits at the first closing line however the file ends after it', () => {
    // The closing `---` line ends the file, is followed by one more `---` line, or is not the first `---`-like line.
    for (const text of [
      '---\n---\n',
      '---\ndescription: x\n---\n',
      '---\ndescription: x\n---\n---\n',
      '---\n---  \nd: 1\n---\nbody\n',
      '---\ndescription: é\n---\n\n',
      '---\n---\n---',
    ]) {
      const got = indexValues(Buffer.from(text));
      const body = typeof got.body === 'string' ? got.body : got.body.toString('utf8');
      expect({ description: got.description, body }, JSON.stringify(text)).toEqual(indexFields(text));
    }
  });

  it('leaves a file without frontmatter undecoded and whole', () => {
    const bytes = Buffer.from('plain ☕ text\n');
    expect(indexValues(bytes)).toEqual({ description: '', body: bytes });
    expect(indexValues(Buffer.from('--- not frontmatter')).description).toBe('');
  });
});
