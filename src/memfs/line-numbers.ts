/**
 * How gitmem counts lines, the one rule for `insert_line`, the lines an AMBIGUOUS_MATCH names, the numbered
 * previews of apply-patch mismatches, `view` and search hits: lines of the whole file (frontmatter included),
 * 1-based, after the text is normalised (a BOM is not text; CRLF and a lone CR end a line, like LF); a final
 * line end does not start another line, so an empty file has no lines. A numbered line reads like Anthropic's
 * memory tool shows it: the number right-aligned in six columns, a tab, the line. Pure.
 */
import { normalizeText } from '../blocks/frontmatter.js';

const NUMBER_WIDTH = 6;

/**
 * The lines of a file's text (raw or normalised), without their line ends.
 * @example fileLines('a\r\nb\rc\n') // ['a', 'b', 'c']; fileLines('\n') // ['']; fileLines('') // []
 */
export function fileLines(text: string): string[] {
  const normal = normalizeText(text);
  if (normal === '') return [];
  return (normal.endsWith('\n') ? normal.slice(0, -1) : normal).split('\n');
}

/**
 * How many lines a text has (the same count as `fileLines(text).length`, without building the lines).
 * @example lineCount('a\nb\n') === 2; lineCount('a\r\nb') === 2; lineCount('') === 0
 */
export function lineCount(text: string): number {
  const normal = normalizeText(text);
  if (normal === '') return 0;
  let n = 1;
  for (let i = normal.indexOf('\n'); i !== -1; i = normal.indexOf('\n', i + 1)) n++;
  return normal.endsWith('\n') ? n - 1 : n;
}

/**
 * The 1-based line of each offset into a NORMALISED text (offsets sorted ascending), for at most `max` of
 * them; one pass over the text.
 * @example lineNumbersAt('a\nb\nb', [2, 4], 20) // [2, 3]
 */
export function lineNumbersAt(text: string, offsets: readonly number[], max: number): number[] {
  const lines: number[] = [];
  let line = 1;
  let pos = 0;
  for (const offset of offsets.slice(0, max)) {
    for (let nl = text.indexOf('\n', pos); nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) line++;
    pos = offset;
    lines.push(line);
  }
  return lines;
}

/**
 * The lines holding matches at `offsets` (sorted ascending) of a NORMALISED text, each line once however many
 * matches it holds: the first `max` of them, and how many lines hold a match in all. One pass over the text.
 * @example matchedLines('x x\ny\nx', [0, 2, 6], 20) // { lines: [1, 3], count: 2 }
 */
export function matchedLines(
  text: string,
  offsets: readonly number[],
  max: number,
): { lines: number[]; count: number } {
  const lines: number[] = [];
  let count = 0;
  let last = 0;
  for (const line of lineNumbersAt(text, offsets, offsets.length)) {
    if (line === last) continue;
    last = line;
    count++;
    if (lines.length < max) lines.push(line);
  }
  return { lines, count };
}

/**
 * One numbered line as every view shows it.
 * @example numberedLine(12, 'text') === '    12\ttext'
 */
export function numberedLine(n: number, line: string): string {
  return `${String(n).padStart(NUMBER_WIDTH, ' ')}\t${line}`;
}

/**
 * `text` with each line numbered (`     1\tfirst line`), lines joined by LF.
 * @example numberLines('a\r\nb\n') === '     1\ta\n     2\tb'
 */
export function numberLines(text: string): string {
  return fileLines(text)
    .map((line, i) => numberedLine(i + 1, line))
    .join('\n');
}
