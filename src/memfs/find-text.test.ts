import { describe, expect, it } from 'vitest';
import { findAll, findFirst, replaceAt } from './find-text.js';

function nativeAll(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

describe('find-text', () => {
  it('agrees with the native search on generated texts, short and long needles', () => {
    let seed = 7;
    const r = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let n = 0; n < 300; n++) {
      const alphabet = r() < 0.5 ? 'ab' : 'abc\n';
      const text = Array.from(
        { length: Math.floor(r() * 400) },
        () => alphabet[Math.floor(r() * alphabet.length)],
      ).join('');
      const needle = Array.from(
        { length: 1 + Math.floor(r() * 60) },
        () => alphabet[Math.floor(r() * alphabet.length)],
      ).join('');
      expect(findAll(text, needle)).toEqual(nativeAll(text, needle));
      expect(findFirst(text, needle, 5)).toBe(text.indexOf(needle, 5));
    }
  });
  it('replaces at the found offsets', () => {
    expect(replaceAt('a-b-c', '-', findAll('a-b-c', '-'), '+')).toBe('a+b+c');
  });
  it('stays linear on the periodic input that makes the native search quadratic', () => {
    const text = `${'a'.repeat(19_999)}\n`.repeat(100);
    const needle = `\n${'a'.repeat(30_000)}`;
    expect(findFirst(text, needle)).toBe(-1);
    expect(findAll(text, `${'a'.repeat(19_999)}\n`)).toHaveLength(100);
  });
});
