import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../errors.js';
import { applyHunks, hunkChunks } from './apply-hunks.js';
import type { Hunk } from './parse.js';

/** Builds a hunk from diff-style lines (' x', '+x', '-x', '' for a blank context line). */
function hunk(lines: string[], endOfFile = false): Hunk {
  return {
    endOfFile,
    lines: lines.map((l) => (l === '' ? { kind: ' ', text: '' } : { kind: l[0] as ' ' | '+' | '-', text: l.slice(1) })),
  };
}

function failure(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    return err as MemoryError;
  }
  throw new Error('expected a MemoryError');
}

describe('hunkChunks', () => {
  it('builds the old and new chunks, a blank line contributing a bare newline', () => {
    expect(hunkChunks(hunk([' a', '-b', '+c', '']))).toEqual({ old: 'a\nb\n\n', new: 'a\nc\n\n' });
  });
});

describe('applyHunks', () => {
  it('replaces only the first occurrence', () => {
    expect(applyHunks('f.md', 'x\ny\nx\ny\n', [hunk([' x', '-y', '+z'])])).toBe('x\nz\nx\ny\n');
  });

  it('applies hunks in order, each against the result of the previous one', () => {
    const out = applyHunks('f.md', 'a\nb\nc\n', [hunk(['-a', '+A']), hunk([' A', '-b', '+B']), hunk(['-c'])]);
    expect(out).toBe('A\nB\n');
  });

  it('matches only at the start of a line, never inside a longer line', () => {
    expect(applyHunks('f.md', 'foobar\nbar\n', [hunk(['-bar', '+baz'])])).toBe('foobar\nbaz\n');
    expect(failure(() => applyHunks('f.md', 'foobar\n', [hunk(['-bar', '+baz'])])).code).toBe('PATCH_MISMATCH');
  });

  it('patches a last line that has no trailing newline', () => {
    expect(applyHunks('f.md', 'a\nlast', [hunk([' a', '-last', '+final'])])).toBe('a\nfinal');
  });

  it('does not use the no-final-newline retry to match the front of a longer line', () => {
    expect(failure(() => applyHunks('f.md', 'a\nlastly\n', [hunk([' a', '-last', '+final'])])).code).toBe(
      'PATCH_MISMATCH',
    );
  });

  it('does not patch a near-identical section (no whitespace tolerance)', () => {
    const err = failure(() => applyHunks('f.md', 'keep  this\nold\n', [hunk([' keep this', '-old', '+new'])]));
    expect(err.code).toBe('PATCH_MISMATCH');
  });

  it('anchors an End of File hunk at the end even when the context also occurs earlier', () => {
    const text = 'item\nmiddle\nitem\n';
    expect(applyHunks('f.md', text, [hunk([' item', '+added'], true)])).toBe('item\nmiddle\nitem\nadded\n');
    expect(applyHunks('f.md', 'a\nitem', [hunk([' item', '+added'], true)])).toBe('a\nitem\nadded');
    expect(failure(() => applyHunks('f.md', 'item\nmiddle\n', [hunk([' item', '+added'], true)])).code).toBe(
      'PATCH_MISMATCH',
    );
  });

  it('appends a hunk of only added lines when it ends with End of File', () => {
    expect(applyHunks('f.md', 'a\n', [hunk(['+b', '+c'], true)])).toBe('a\nb\nc\n');
    expect(applyHunks('f.md', 'a', [hunk(['+b'], true)])).toBe('a\nb\n');
  });

  it('refuses a hunk without context unless it is an End of File append', () => {
    const err = failure(() => applyHunks('f.md', 'a\n', [hunk([' a']), hunk(['+b'])]));
    expect(err.code).toBe('PATCH_INVALID');
    expect(err.message).toMatch(/^memory_apply_patch: failed to apply hunk to f\.md: hunk has no anchor\/context/);
    expect(err.data).toEqual({ file: 'f.md', hunk: 2 });
    expect(failure(() => applyHunks('f.md', 'a\n', [hunk([], true)])).code).toBe('PATCH_INVALID');
  });

  it('reports a mismatch with the file, the hunk number and the text as it stood for that hunk', () => {
    const err = failure(() => applyHunks('notes/x.md', 'one\ntwo\n', [hunk(['-one', '+ONE']), hunk(['-three'])]));
    expect(err.code).toBe('PATCH_MISMATCH');
    expect(err.data).toEqual({ file: 'notes/x.md', hunk: 2 });
    expect(err.message).toContain('failed to apply hunk to notes/x.md: context not found');
    expect(err.message).toContain('```\nthree\n```');
    expect(err.message).toContain('```\n     1\tONE\n     2\ttwo\n```');
  });
});
