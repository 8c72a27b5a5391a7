import { afterEach, describe, expect, it } from 'vitest';
import { fastPath, fastPathEntries, resetFastPathEntries, setFastPaths } from './fast-paths.js';

afterEach(() => {
  setFastPaths(true);
  resetFastPathEntries();
});

describe('the fast-path seam', () => {
  it('answers with the fast path when on and counts the entry', () => {
    setFastPaths(true);
    expect(fastPath('writerPack', () => 1)).toBe(1);
    expect(fastPathEntries('writerPack')).toBe(1);
  });

  it('answers nothing with the switch off, and counts nothing', () => {
    setFastPaths(false);
    expect(fastPath('writerPack', () => 1)).toBeUndefined();
    expect(fastPathEntries('writerPack')).toBe(0);
  });

  it('keeps only the excepted mechanisms off (the per-mechanism bench)', () => {
    setFastPaths(true, ['watcher']);
    expect(fastPath('watcher', () => 1)).toBeUndefined();
    expect(fastPath('writerPack', () => 2)).toBe(2);
    setFastPaths(true);
    expect(fastPath('watcher', () => 3)).toBe(3);
  });
});
