/**
 * The only frontmatter parser and renderer. The memory tool, the pre-commit hook, the prompt compiler and
 * the patch applier all read memory files through here, so they cannot disagree about what a file means.
 *
 * Parsing is real YAML (the `yaml` package). Because loading that package costs ~50 ms and most
 * frontmatter is a handful of `key: plain value` lines, a strict fast path handles exactly that subset
 * and everything else is handed to YAML (loaded synchronously, on first need). A property test pins the
 * fast path to YAML's own answer.
 */
import { createRequire } from 'node:module';
import { MemoryError } from '../errors.js';

export type FrontmatterData = Record<string, unknown>;

/** Structural split of a memory file into its frontmatter text and body. */
export type SplitResult =
  { kind: 'none'; body: string } | { kind: 'unclosed' } | { kind: 'ok'; yamlText: string; body: string };

export interface ParsedMemoryFile {
  data: FrontmatterData;
  body: string;
}

/** Keys a memory markdown file may carry (SKILL.md has its own set). */
export const ALLOWED_KEYS = ['description', 'read_only', 'limit'] as const;
/** Keys a skills/<name>/SKILL.md may carry (Agent Skills format). */
export const SKILL_KEYS = ['name', 'description', 'license', 'allowed-tools', 'metadata', 'compatibility'] as const;

/** Strips a UTF-8 BOM and turns CRLF / lone CR into LF. */
export function normalizeText(text: string): string {
  const noBom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return noBom.includes('\r') ? noBom.replace(/\r\n?/g, '\n') : noBom;
}

/**
 * Splits `---` frontmatter from the body (after normalising BOM/CRLF).
 * @example splitFrontmatter('---\ndescription: x\n---\nhello').kind === 'ok'
 */
export function splitFrontmatter(raw: string): SplitResult {
  const text = normalizeText(raw);
  if (!(text === '---' || text.startsWith('---\n'))) return { kind: 'none', body: text };
  const start = text.indexOf('\n') + 1;
  if (start === 0) return { kind: 'unclosed' };
  let pos = start;
  while (pos <= text.length) {
    const end = text.indexOf('\n', pos);
    const line = end === -1 ? text.slice(pos) : text.slice(pos, end);
    if (line.trimEnd() === '---') {
      const body = end === -1 ? '' : text.slice(end + 1);
      return { kind: 'ok', yamlText: text.slice(start, pos), body };
    }
    if (end === -1) break;
    pos = end + 1;
  }
  return { kind: 'unclosed' };
}

const FAST_KEY = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$/;
// A plain scalar YAML reads as the same string: no indicator first, no ": " or " #" inside, no trailing ':'.
const FAST_PLAIN = /^[^\s\-?:,[\]{}#&*!|>'"%@`](?:[^:#]|:(?=\S)|(?<=\S)#)*$/;
const FAST_RESERVED =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9].*|\.[0-9].*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)|<<)$/;

function fastParse(yamlText: string): FrontmatterData | undefined {
  const data: FrontmatterData = {};
  for (const line of yamlText.split('\n')) {
    if (line.trim() === '') continue;
    const m = FAST_KEY.exec(line);
    if (!m) return undefined;
    const key = m[1] as string;
    const value = (m[2] ?? '').replace(/[ \t]+$/, '');
    if (Object.hasOwn(data, key)) return undefined; // let YAML report the duplicate
    if (value === '') data[key] = null;
    else if (value === 'true' || value === 'false') data[key] = value === 'true';
    else if (/^(?:0|[1-9][0-9]{0,14})$/.test(value)) data[key] = Number(value);
    else if (FAST_RESERVED.test(value) || !FAST_PLAIN.test(value)) return undefined;
    else data[key] = value;
  }
  return data;
}

let yamlModule: { parse: (text: string, options?: object) => unknown } | undefined;
function loadYaml(): NonNullable<typeof yamlModule> {
  yamlModule ??= createRequire(import.meta.url)('yaml') as NonNullable<typeof yamlModule>;
  return yamlModule;
}

/**
 * Parses frontmatter YAML text into a mapping. Throws FRONTMATTER_INVALID for YAML errors or non-mappings.
 * @example parseFrontmatterYaml('description: notes\nlimit: 10') // { description: 'notes', limit: 10 }
 */
export function parseFrontmatterYaml(yamlText: string): FrontmatterData {
  const fast = fastParse(yamlText);
  if (fast) return fast;
  if (yamlText.trim() === '') return {};
  let value: unknown;
  try {
    value = loadYaml().parse(yamlText, { prettyErrors: false, uniqueKeys: true });
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new MemoryError('FRONTMATTER_INVALID', `frontmatter is not valid YAML: ${reason}`, { cause: err });
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new MemoryError('FRONTMATTER_INVALID', 'frontmatter must be a YAML mapping of key: value');
  }
  return value as FrontmatterData;
}

/**
 * Parses a memory file; throws FRONTMATTER_INVALID when it has no (closed) frontmatter.
 * @example parseMemoryFile('---\ndescription: x\n---\nbody').data.description === 'x'
 */
export function parseMemoryFile(raw: string): ParsedMemoryFile {
  const split = splitFrontmatter(raw);
  if (split.kind === 'none') throw new MemoryError('FRONTMATTER_INVALID', 'missing frontmatter (must start with ---)');
  if (split.kind === 'unclosed') {
    throw new MemoryError('FRONTMATTER_INVALID', 'frontmatter opened but never closed (missing closing ---)');
  }
  return { data: parseFrontmatterYaml(split.yamlText), body: split.body };
}

/** Parses without throwing: `null` when the text has no valid frontmatter. */
export function tryParseMemoryFile(raw: string): ParsedMemoryFile | null {
  try {
    return parseMemoryFile(raw);
  } catch {
    return null;
  }
}

// The only values that leave a file writable once `read_only` is present (any case, surrounding blanks ignored).
const EXPLICIT_FALSE: ReadonlySet<string> = new Set(['false', 'no', 'off', '0']);

/**
 * True when a parsed `read_only` value means "protected". Fails closed: once the key is present, anything but
 * an explicit false (`false`, `no`, `off`, `0`, in any case) protects — `yes`, `on`, `1`, an empty value, a list.
 * `undefined` (the key is absent) does not.
 * @example isReadOnlyValue('yes') === true; isReadOnlyValue('Off') === false; isReadOnlyValue(undefined) === false
 */
export function isReadOnlyValue(value: unknown): boolean {
  if (value === undefined || value === false || value === 0) return false;
  if (typeof value === 'string') return !EXPLICIT_FALSE.has(value.trim().toLowerCase());
  return true;
}

/**
 * True when a raw `read_only` value (text after `read_only:` on a line YAML could not parse) protects: the
 * same rule as {@link isReadOnlyValue}, after dropping a trailing `# comment` and surrounding quotes.
 * @example isRawReadOnlyValue(' "off" # operator') === false; isRawReadOnlyValue(' yes') === true
 */
export function isRawReadOnlyValue(raw: string): boolean {
  const value = raw
    .replace(/\s+#.*$/, '')
    .trim()
    .replace(/^(["'])(.*)\1$/, '$2');
  return isReadOnlyValue(value);
}

/** The description as a trimmed string, or '' when absent / not a scalar. */
export function descriptionOf(data: FrontmatterData): string {
  const d = data['description'];
  if (typeof d === 'string') return d.trim();
  if (typeof d === 'number' || typeof d === 'boolean') return String(d);
  return '';
}

/** Collapses a description to one line (newlines and runs of whitespace become one space). */
export function singleLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

function renderScalar(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value))
    return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
  if (typeof value === 'boolean' || typeof value === 'number') return String(value);
  const s = String(value);
  if (fastParse(`k: ${s}`)?.['k'] === s) return s;
  return JSON.stringify(s); // JSON strings are valid YAML double-quoted scalars
}

/** One `key: value` line: a key that is not a plain name is quoted, so no key can break the block's shape. */
function renderEntry(key: string, value: unknown): string {
  const k = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) ? key : JSON.stringify(key);
  if (value === null) return `${k}:`; // an empty value stays empty (never the string "null")
  // Mappings and lists as JSON, which YAML reads as the same flow collection.
  return `${k}: ${typeof value === 'object' ? JSON.stringify(value) : renderScalar(value)}`;
}

/**
 * Renders a memory file: every key of `data` in its order (nothing the validator accepts is ever dropped),
 * the description on one line, then the body verbatim. Throws INVALID_ARGUMENT for a blank description.
 * @example renderMemoryFile({ description: 'Notes' }, 'hi\n') === '---\ndescription: Notes\n---\nhi\n'
 */
export function renderMemoryFile(data: FrontmatterData, body: string): string {
  const description = singleLine(descriptionOf(data));
  if (description === '') throw new MemoryError('INVALID_ARGUMENT', "'description' must not be empty");
  return renderFrontmatter({ ...data, description }, body);
}

/** Renders arbitrary frontmatter keys in the given order (`undefined` values are left out). */
export function renderFrontmatter(data: FrontmatterData, body: string): string {
  const lines = ['---'];
  for (const [key, value] of Object.entries(data)) if (value !== undefined) lines.push(renderEntry(key, value));
  lines.push('---');
  return `${lines.join('\n')}\n${body}`;
}

const TOP_KEY = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|$)/;

/** Line spans [start, end) of each top-level `key:` entry of a frontmatter text, or null when it is not that plain. */
function entrySpans(lines: readonly string[]): Map<string, [number, number]> | null {
  const spans = new Map<string, [number, number]>();
  let current: string | undefined;
  lines.forEach((line, i) => {
    const key = TOP_KEY.exec(line)?.[1];
    if (key !== undefined) {
      spans.set((current = key), [i, i + 1]);
    } else if (line.startsWith('#')) {
      current = undefined; // a comment of its own, kept where it is
    } else if (line === '' || /^[ \t-]/.test(line)) {
      const span = current === undefined ? undefined : spans.get(current);
      if (span && line.trim() !== '')
        span[1] = i + 1; // blank lines stay put, between entries
      else if (!span && line.trim() !== '') spans.set('\0', [i, i]); // content outside any entry
    } else {
      spans.set('\0', [i, i]); // a quoted or complex key: not plain
    }
  });
  return spans.has('\0') ? null : spans;
}

/**
 * `text` (a normalised memory file: LF, no BOM, closed frontmatter) with the frontmatter keys in `updates`
 * set (`undefined` removes a key). Every other key keeps its place, its value and its exact text (comments
 * too); a new key goes first. When the frontmatter is not plain enough to edit line by line, it is rendered
 * again from its parsed data (order and values kept). Throws FRONTMATTER_INVALID when there is none.
 * @example setFrontmatterKeys('---\nname: x\ndescription: old\n---\nbody\n', [['description', 'new']])
 *   // '---\nname: x\ndescription: new\n---\nbody\n'
 */
export function setFrontmatterKeys(text: string, updates: ReadonlyArray<readonly [string, unknown]>): string {
  const { data, body } = parseMemoryFile(text);
  const split = splitFrontmatter(text) as Extract<SplitResult, { kind: 'ok' }>;
  const changed = new Map(updates);
  const expected: FrontmatterData = {};
  for (const [key, value] of updates) if (!Object.hasOwn(data, key) && value !== undefined) expected[key] = value;
  for (const [key, value] of Object.entries(data)) {
    const next = changed.has(key) ? changed.get(key) : value;
    if (next !== undefined) expected[key] = next;
  }
  const lines = split.yamlText.split('\n');
  const spans = entrySpans(lines);
  if (spans !== null) {
    const replaced = new Map<number, string | null>();
    for (const [key, value] of updates) {
      const span = spans.get(key);
      if (span === undefined) continue;
      for (let i = span[0]; i < span[1]; i++)
        replaced.set(i, i === span[0] && value !== undefined ? renderEntry(key, value) : null);
    }
    const added = updates
      .filter(([key, value]) => !spans.has(key) && value !== undefined)
      .map(([key, value]) => renderEntry(key, value));
    const kept = lines.flatMap((line, i) =>
      replaced.has(i) ? (replaced.get(i) === null ? [] : [replaced.get(i) as string]) : [line],
    );
    const yamlText = [...added, ...kept].join('\n');
    try {
      if (JSON.stringify(parseFrontmatterYaml(yamlText)) === JSON.stringify(expected))
        return `---\n${yamlText}${text.slice(4 + split.yamlText.length)}`;
    } catch {
      // rendered below
    }
  }
  return renderFrontmatter(expected, body);
}
