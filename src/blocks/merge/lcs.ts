/**
 * Aligns two sequences of keys (longest common subsequence). Memory files change little between versions,
 * so the common prefix and suffix are matched first in linear time and only the middle goes through the
 * quadratic table, whose size is capped.
 */
import { MAX_LCS_CELLS } from './limits.js';
import { refuse } from './types.js';

/**
 * For each index of `a`, the index of `b` it is matched with, or -1. Matches keep their order.
 * @example alignKeys(['x', 'y', 'z'], ['x', 'z', 'w']) // [0, -1, 1]
 */
export function alignKeys(a: readonly string[], b: readonly string[], where: string): number[] {
  const match = new Array<number>(a.length).fill(-1);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) match[start] = start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) match[--endA] = --endB;
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0) return match;
  if ((n + 1) * (m + 1) > MAX_LCS_CELLS) refuse('too_large', where, `${n} × ${m} blocks to align`);
  // table[i][j] = LCS length of a[start+i..endA) and b[start+j..endB): filled backwards, read forwards.
  const w = m + 1;
  const table = new Uint16Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] =
        a[start + i] === b[start + j]
          ? (table[(i + 1) * w + j + 1] as number) + 1
          : Math.max(table[(i + 1) * w + j] as number, table[i * w + j + 1] as number);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[start + i] === b[start + j]) {
      match[start + i] = start + j;
      i++;
      j++;
    } else if ((table[(i + 1) * w + j] as number) >= (table[i * w + j + 1] as number)) i++;
    else j++;
  }
  return match;
}
