import { describe, expect, it } from 'vitest';
import { restyle } from './line-style.js';

describe('restyle', () => {
  it('leaves an LF file as edited', () => {
    expect(restyle('a\nb\n', 'a\nB\n')).toBe('a\nB\n');
  });
  it('puts a CRLF file back in CRLF and keeps its BOM', () => {
    expect(restyle('\ufeffa\r\nb\r\n', 'a\nB\nc\n')).toBe('\ufeffa\r\nB\r\nc\r\n');
    expect(restyle('\ufeffa\n', 'b\n')).toBe('\ufeffb\n');
  });
  it('keeps the exact terminators of untouched lines in a mixed file; the changed region takes the commonest', () => {
    expect(restyle('lf\ncrlf\r\nlast\nend\n', 'lf\ncrlf\nLAST\nend\n')).toBe('lf\ncrlf\r\nLAST\nend\n');
    expect(restyle('a\r\nb\r\nc\n', 'a\nX\nY\nc\n')).toBe('a\r\nX\r\nY\r\nc\n');
  });
  it('keeps lone CR endings and a last line without a newline', () => {
    expect(restyle('a\rb', 'a\nB')).toBe('a\rB');
  });
  it('returns the original exactly when the normalised text did not change', () => {
    const original = '\ufeff---\r\nx: 1\n---\r\nbody\r\n';
    expect(restyle(original, '---\nx: 1\n---\nbody\n')).toBe(original);
  });
  it('is linear: 200,000 lines in well under a second of work', () => {
    const original = 'x\r\n'.repeat(200_000);
    const out = restyle(original, `${'x\n'.repeat(100_000)}Y\n${'x\n'.repeat(99_999)}`);
    expect(out.length).toBe(original.length);
    expect(out.slice(300_000, 300_003)).toBe('Y\r\n');
  });
});
