/**
 * How search reads words, in one place: documents, queries and the best-line finder fold text alike
 * (canonical decomposition, accents dropped, lower case) and split it into runs of letters and digits —
 * the same rule SQLite's `unicode61` tokenizer with `remove_diacritics 2` applies inside the index.
 */
import { descriptionOf, parseFrontmatterYaml, splitFrontmatter } from '../blocks/frontmatter.js';
import { INDEXED_EXTENSIONS } from './types.js';

const MARKS = /\p{M}+/gu;
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/**
 * Folds a word or text for comparison.
 * @example foldText('Élan CAFÉ') === 'elan cafe'
 */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(MARKS, '').toLowerCase();
}

/**
 * The folded words of a text, in order.
 * @example tokenize("L'été, 2024!") // ['l', 'ete', '2024']
 */
export function tokenize(text: string): string[] {
  return foldText(text).match(WORD) ?? [];
}

/** Words of a text with their offsets in the ORIGINAL string (for snippets). */
export function wordSpans(text: string): Array<{ word: string; start: number; end: number }> {
  const out: Array<{ word: string; start: number; end: number }> = [];
  for (const m of text.matchAll(/[\p{L}\p{N}\p{M}\p{Co}]+/gu)) {
    for (const word of tokenize(m[0])) out.push({ word, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * True for a tree entry search reads: a regular file named *.md, *.markdown or *.txt (any case).
 * Links and submodules are never read.
 */
export function isIndexablePath(path: string, mode: string): boolean {
  if (mode !== '100644' && mode !== '100755') return false;
  const lower = path.toLowerCase();
  return INDEXED_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** What the index holds of a file: its description (frontmatter) and its body (what follows it). */
export function indexFields(text: string): { description: string; body: string } {
  const split = splitFrontmatter(text);
  if (split.kind === 'none') return { description: '', body: split.body };
  if (split.kind === 'unclosed') return { description: '', body: text };
  return { description: yamlDescription(split.yamlText), body: split.body };
}

function yamlDescription(yamlText: string): string {
  try {
    return descriptionOf(parseFrontmatterYaml(yamlText));
  } catch {
    return ''; // invalid YAML: no description, the body is still searchable
  }
}

// Frontmatter is split from a decoded prefix of the file first (most end within a few hundred bytes); the
// rest of the file is never decoded to a JS string.
const PREFIXES = [512, 8192];
const CLOSING = Buffer.from('\n---\n', 'latin1');

/** The body's byte offset and the description when the prefix holds the whole frontmatter, else undefined. */
function fromPrefix(bytes: Buffer, size: number): { description: string; offset: number } | undefined {
  const head = bytes.toString('utf8', 0, size); // a character cut at the end lands in the body, never read here
  const split = splitFrontmatter(head);
  if (split.kind !== 'ok') return undefined;
  const cut = head.length - split.body.length;
  // The closing line must end inside the prefix (a cut `---` line might go on past it).
  if (cut === 0 || head.charCodeAt(cut - 1) !== 10) return undefined;
  return { description: yamlDescription(split.yamlText), offset: Buffer.byteLength(head.slice(0, cut)) };
}

/**
 * The same fields of a blob's bytes, the body as a slice of them when it is their exact tail (no BOM or CR
 * changes the text): SQLite then reads the bytes as they are, with no conversion to and from a JS string.
 */
export function indexValues(bytes: Buffer): { description: string; body: string | Buffer } {
  if (bytes[0] === 0xef || bytes.includes(13)) return indexFields(bytes.toString('utf8'));
  if (!(bytes.length === 3 || bytes[3] === 10) || bytes.toString('latin1', 0, 3) !== '---')
    return { description: '', body: bytes };
  // Most frontmatter closes at the first `---` line: decoding just that far is the cheapest prefix.
  const close = bytes.indexOf(CLOSING, 3);
  if (close > 0 && close < 8192) {
    const hit = fromPrefix(bytes, close + CLOSING.length);
    if (hit) return { description: hit.description, body: bytes.subarray(hit.offset) };
  }
  for (const size of PREFIXES) {
    if (size >= bytes.length) break;
    const hit = fromPrefix(bytes, size);
    if (hit) return { description: hit.description, body: bytes.subarray(hit.offset) };
  }
  const text = bytes.toString('utf8');
  const fields = indexFields(text);
  return { description: fields.description, body: bytes.subarray(bytes.length - Buffer.byteLength(fields.body)) };
}
