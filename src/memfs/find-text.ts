/**
 * Substring search in linear time. The engine's `indexOf` (and `split`) degrades to about text × pattern on
 * periodic inputs — a 20,000-character needle of `a`s in 2 MB of 10,000-`a` lines took ~10 s here — and a
 * hostile call controls both. Short needles keep the native search (its worst case is bounded by the needle
 * length); longer ones use Knuth–Morris–Pratt. Pure.
 */

/** Needles up to this length use the native search. */
const NATIVE_MAX = 32;

function failureTable(p: string): Int32Array {
  const f = new Int32Array(p.length);
  let k = 0;
  for (let i = 1; i < p.length; i++) {
    while (k > 0 && p.charCodeAt(i) !== p.charCodeAt(k)) k = f[k - 1] as number;
    if (p.charCodeAt(i) === p.charCodeAt(k)) k++;
    f[i] = k;
  }
  return f;
}

/** Start offsets of non-overlapping matches of `needle` in `text` from `from`, at most `limit` of them. */
function search(text: string, needle: string, from: number, limit: number): number[] {
  const out: number[] = [];
  if (needle === '') return out;
  if (needle.length <= NATIVE_MAX) {
    for (
      let i = text.indexOf(needle, from);
      i !== -1 && out.length < limit;
      i = text.indexOf(needle, i + needle.length)
    )
      out.push(i);
    return out;
  }
  const f = failureTable(needle);
  const m = needle.length;
  let k = 0;
  for (let i = from; i < text.length && out.length < limit; i++) {
    const c = text.charCodeAt(i);
    while (k > 0 && c !== needle.charCodeAt(k)) k = f[k - 1] as number;
    if (c === needle.charCodeAt(k)) k++;
    if (k === m) {
      out.push(i - m + 1);
      k = 0; // non-overlapping: the next match starts after this one
    }
  }
  return out;
}

/**
 * Start offsets of every non-overlapping match, left to right.
 * @example findAll('abab', 'ab') // [0, 2]
 */
export function findAll(text: string, needle: string): number[] {
  return search(text, needle, 0, Infinity);
}

/**
 * The first match at or after `from`, or -1.
 * @example findFirst('xxab', 'ab') === 2
 */
export function findFirst(text: string, needle: string, from = 0): number {
  return search(text, needle, from, 1)[0] ?? -1;
}

/**
 * `text` with every match at `offsets` (from findAll) replaced by `replacement`.
 * @example replaceAt('abab', 'ab', [0, 2], 'x') === 'xx'
 */
export function replaceAt(text: string, needle: string, offsets: readonly number[], replacement: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const o of offsets) {
    parts.push(text.slice(last, o), replacement);
    last = o + needle.length;
  }
  parts.push(text.slice(last));
  return parts.join('');
}
