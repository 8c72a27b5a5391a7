/**
 * How the memory tool counts lines, the one rule for `insert_line`, the lines an AMBIGUOUS_MATCH names and
 * the numbered previews of apply-patch mismatches: lines of the whole file (frontmatter included), 1-based,
 * after line endings are normalised (CRLF and a lone CR end a line, like LF); a final newline does not start
 * another line. A numbered line reads like `view` and Anthropic's memory tool show it: the number
 * right-aligned in six columns, a tab, the line. Pure.
 */

/**
 * How many lines a normalised text has.
 * @example lineCount('a\nb\n') === 2; lineCount('a\nb') === 2; lineCount('') === 0
 */
export function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/**
 * The 1-based line of each offset (sorted ascending), for at most `max` of them; one pass over the text.
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
 * `text` with each line numbered (`     1\tfirst line`); a final newline is not a line.
 * @example numberLines('a\nb\n') === '     1\ta\n     2\tb'
 */
export function numberLines(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (text === '') return '';
  return body.split('\n').map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');
}
