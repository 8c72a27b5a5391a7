/**
 * Where in a file a hit is: the line matching most of the query (a phrase counts more than a word), and a
 * snippet of it. Lines are counted by the tool's one rule (memfs/line-numbers.ts), as `view` numbers them.
 */
import { splitFrontmatter } from '../blocks/frontmatter.js';
import { fileLines, lineCount } from '../memfs/line-numbers.js';
import type { QueryItem } from './query.js';
import { wordSpans } from './text.js';
import { SEARCH_LIMITS } from './types.js';

type Span = { word: string; start: number; end: number };

function wordMatches(item: QueryItem, word: string, w: string): boolean {
  return item.prefix ? w.startsWith(word) : w === word;
}

/** Where the item first occurs among the line's words (index into `spans`), or -1. */
function findItem(item: QueryItem, spans: readonly Span[]): number {
  const n = item.words.length;
  for (let i = 0; i + n <= spans.length; i++) {
    let ok = true;
    for (let k = 0; k < n && ok; k++)
      ok = wordMatches({ ...item, prefix: item.prefix && k === n - 1 }, item.words[k] ?? '', spans[i + k]?.word ?? '');
    if (ok) return i;
  }
  return -1;
}

function lineScore(items: readonly QueryItem[], spans: readonly Span[]): { score: number; first: number } {
  let score = 0;
  let first = -1;
  for (const item of items) {
    const at = findItem(item, spans);
    if (at < 0) continue;
    score += item.words.length > 1 ? 1 + item.words.length : 1;
    const start = spans[at]?.start ?? 0;
    if (first < 0 || start < first) first = start;
  }
  return { score, first };
}

/** At most `SEARCH_LIMITS.snippetChars` characters of `line`, around offset `at`. */
export function snippetOf(line: string, at: number): string {
  const text = line.trim() === '' ? '' : line;
  const max = SEARCH_LIMITS.snippetChars;
  if (text.length <= max) return text.trim();
  const start = Math.max(0, Math.min(at - Math.floor(max / 4), text.length - max));
  const cut = text.slice(start, start + max).trim();
  return `${start > 0 ? '…' : ''}${cut}${start + max < text.length ? '…' : ''}`;
}

/** The first line of the body (after the frontmatter) that has any text, as a fallback position. */
function firstBodyLine(lines: readonly string[], text: string): number {
  const split = splitFrontmatter(text);
  const skip = split.kind === 'ok' ? lines.length - lineCount(split.body) : 0;
  for (let i = skip; i < lines.length; i++) if ((lines[i] ?? '').trim() !== '') return i;
  return Math.min(skip, Math.max(0, lines.length - 1));
}

/**
 * The best line for `items` in `text` (ties: the earliest), or the first body line when no line matches.
 * @example bestLine('---\ndescription: d\n---\nalpha\nbeta gamma\n', [{ words: ['gamma'], prefix: false }]) // { line: 5, snippet: 'beta gamma' }
 */
export function bestLine(text: string, items: readonly QueryItem[]): { line: number; snippet: string } {
  const lines = fileLines(text);
  let best = { index: -1, score: 0, first: 0 };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.length === 0) continue;
    const { score, first } = lineScore(items, wordSpans(line));
    if (score > best.score) best = { index: i, score, first };
  }
  const index = best.index >= 0 ? best.index : firstBodyLine(lines, text);
  return { line: index + 1, snippet: snippetOf(lines[index] ?? '', best.index >= 0 ? best.first : 0) };
}
