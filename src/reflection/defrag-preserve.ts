/**
 * The content-preservation check of a defragmentation: every line of text in the memory before the run must
 * still be somewhere in the memory after it — in any file, at any place — so a model may move, merge and
 * reword structure but never delete a fact silently. Pure: it compares two `path → text` maps.
 *
 * What counts as the same line (so restructuring is not a drop): a markdown file's frontmatter is ignored (descriptions are
 * rewritten on purpose); headings are structure, not facts; whitespace, case, list/quote/heading markers and
 * the targets of links (`[[path]]`, `[text](path)`: a move renames them) are normalised away; a line that now
 * sits inside a longer line (two bullets joined into one sentence) is kept.
 */
import { normalizeText, splitFrontmatter } from '../blocks/frontmatter.js';

/** One line of the before-tree that is nowhere in the after-tree. */
export interface DroppedLine {
  path: string;
  /** 1-based line number in the before-file (frontmatter included, so it matches `gitmem show`). */
  line: number;
  text: string;
}

export interface PreservationReport {
  /** Lines checked (non-blank, non-heading body lines of the before-tree). */
  checked: number;
  /** How many were not found (all of them, even past the listing cap). */
  droppedCount: number;
  /** The first dropped lines, at most {@link MAX_LISTED}. */
  dropped: DroppedLine[];
}

/** At most this many dropped lines are listed (the count is always exact). */
export const MAX_LISTED = 50;
/** Substring searches are bounded: lines past this many inexact ones count as dropped without a search. */
const MAX_SUBSTRING_SEARCHES = 2_000;

/**
 * One line as the check compares it; '' for a line that carries no fact (blank, a heading, a fence, a rule).
 * @example normalizeFactLine('  - **Prefers** tabs  ') === '**prefers** tabs'
 * @example normalizeFactLine('## Tools') === ''
 */
export function normalizeFactLine(line: string): string {
  let s = line.trim();
  if (/^#{1,6}(\s|$)/.test(s) || /^(?:```|~~~)/.test(s)) return ''; // headings, code fences
  s = s.replace(/^(?:>\s*)+/, '');
  s = s.replace(/^(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, '');
  s = s.replace(/\[\[[^\]\n]*\]\]/g, '[[]]').replace(/\]\([^)\n]*\)/g, ']()');
  s = s.replace(/\s+/g, ' ').trim().toLowerCase();
  if (/^[-=*_`~|:.\s]*$/.test(s)) return ''; // rules, fences, table separators
  return s;
}

/** Body lines of a file (a markdown file's frontmatter skipped), with their 1-based line numbers in the whole file. */
function bodyLines(path: string, text: string): { line: number; raw: string }[] {
  const lines = normalizeText(text).split('\n');
  let skip = 0;
  if (path.endsWith('.md') && splitFrontmatter(text).kind === 'ok')
    skip = lines.findIndex((l, i) => i > 0 && l.trimEnd() === '---') + 1;
  return lines.slice(skip).map((raw, i) => ({ line: skip + i + 1, raw }));
}

/**
 * The lines of `before` that `after` no longer holds anywhere.
 * @example checkPreservation(new Map([['a.md', 'x\ny\n']]), new Map([['b.md', 'y\n- x\n']])).droppedCount === 0
 */
export function checkPreservation(before: Map<string, string>, after: Map<string, string>): PreservationReport {
  const afterLines = new Set<string>();
  for (const [path, text] of after)
    for (const { raw } of bodyLines(path, text)) {
      const n = normalizeFactLine(raw);
      if (n !== '') afterLines.add(n);
    }
  const corpus = [...afterLines].join('\n');
  let checked = 0;
  let searches = 0;
  const dropped: DroppedLine[] = [];
  let droppedCount = 0;
  for (const [path, text] of [...before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const { line, raw } of bodyLines(path, text)) {
      const n = normalizeFactLine(raw);
      if (n === '') continue;
      checked++;
      if (afterLines.has(n)) continue;
      if (searches++ < MAX_SUBSTRING_SEARCHES && corpus.includes(n)) continue;
      droppedCount++;
      if (dropped.length < MAX_LISTED) dropped.push({ path, line, text: raw.trim() });
    }
  }
  return { checked, droppedCount, dropped };
}
