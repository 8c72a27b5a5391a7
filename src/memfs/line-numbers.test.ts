import { describe, expect, it } from 'vitest';
import { normalizeText } from '../blocks/frontmatter.js';
import { fileLines, lineCount, lineNumbersAt, matchedLines, numberLines } from './line-numbers.js';

/** Every text of up to 4 pieces over an alphabet with each kind of line end (exhaustive, small). */
function allTexts(): string[] {
  const pieces = ['a', 'b b', '\n', '\r\n', '\r', '\ufeff'];
  let level = [''];
  const out = [''];
  for (let len = 1; len <= 4; len++) {
    level = level.flatMap((t) => pieces.map((p) => t + p));
    out.push(...level);
  }
  return out;
}

describe('line numbers: one rule', () => {
  it('counts lines of the whole file: any line end, no line after the final one, none in an empty file', () => {
    expect(fileLines('a\nb\n')).toEqual(['a', 'b']);
    expect(fileLines('a\r\nb\rc')).toEqual(['a', 'b', 'c']);
    expect(fileLines('\ufeffa')).toEqual(['a']);
    expect(fileLines('\n\n')).toEqual(['', '']);
    expect(fileLines('')).toEqual([]);
    expect(numberLines('x\r\ny\n')).toBe('     1\tx\n     2\ty');
  });

  it('lineCount, numberLines and lineNumbersAt agree with fileLines on every small text', () => {
    for (const text of allTexts()) {
      const lines = fileLines(text);
      expect(lineCount(text), JSON.stringify(text)).toBe(lines.length);
      expect(numberLines(text).split('\n').length, JSON.stringify(text)).toBe(Math.max(1, lines.length));
      // The line of each offset of the normalised text is the line holding that character.
      const normal = normalizeText(text);
      const offsets = [...normal].map((_, i) => i).filter((i) => normal[i] !== '\n');
      const expected = offsets.map((o) => normal.slice(0, o).split('\n').length);
      expect(lineNumbersAt(normal, offsets, offsets.length), JSON.stringify(text)).toEqual(expected);
      for (const [i, o] of offsets.entries())
        expect(lines[(expected[i] ?? 0) - 1]?.includes(normal[o] ?? ''), JSON.stringify(text)).toBe(true);
    }
  });

  it('matchedLines names each line holding a match once, the first `max`, and counts them all', () => {
    const text = 'x x\ny\nx\nx x x\n';
    expect(matchedLines(text, [0, 2, 6, 8, 10, 12], 20)).toEqual({ lines: [1, 3, 4], count: 3 });
    expect(matchedLines(text, [0, 2, 6, 8, 10, 12], 2)).toEqual({ lines: [1, 3], count: 3 });
    expect(matchedLines(text, [], 20)).toEqual({ lines: [], count: 0 });
  });
});
