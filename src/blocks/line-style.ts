/**
 * Keeps a file's own line endings and BOM through an edit or a merge. Memory-tool commands and merges work on
 * normalised text (no BOM, LF); this puts the result back in the original's style: lines the edit did not
 * touch keep their exact terminators, the changed region takes the file's most common one, and a BOM stays.
 * Linear time.
 */

const TERMINATOR = /\r\n|\r|\n/g;

function splitLines(text: string): { lines: string[]; terms: string[] } {
  const lines: string[] = [];
  const terms: string[] = [];
  let last = 0;
  for (const m of text.matchAll(TERMINATOR)) {
    lines.push(text.slice(last, m.index));
    terms.push(m[0]);
    last = m.index + m[0].length;
  }
  lines.push(text.slice(last));
  return { lines, terms };
}

function dominant(terms: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best = '\n';
  let most = 0;
  for (const [t, n] of counts) if (n > most) [best, most] = [t, n];
  return best;
}

/**
 * `edited` (normalised text derived from `original`) in `original`'s line endings and BOM.
 * @example restyle('\ufeffa\r\nb\r\n', 'a\nB\nc\n') === '\ufeffa\r\nB\r\nc\r\n'
 */
export function restyle(original: string, edited: string): string {
  const bom = original.charCodeAt(0) === 0xfeff;
  const source = bom ? original.slice(1) : original;
  if (!source.includes('\r')) return bom ? `\ufeff${edited}` : edited;
  const o = splitLines(source);
  const e = edited.split('\n');
  const max = Math.min(o.lines.length, e.length);
  let prefix = 0;
  while (prefix < max && o.lines[prefix] === e[prefix]) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && o.lines[o.lines.length - 1 - suffix] === e[e.length - 1 - suffix]) suffix++;
  const fill = dominant(o.terms);
  const shift = o.lines.length - e.length;
  let out = bom ? '\ufeff' : '';
  for (let j = 0; j < e.length; j++) {
    out += e[j];
    if (j === e.length - 1) break;
    const fromOriginal = j < prefix ? j : j >= e.length - suffix ? j + shift : -1;
    out += fromOriginal >= 0 ? (o.terms[fromOriginal] ?? fill) : fill;
  }
  return out;
}
