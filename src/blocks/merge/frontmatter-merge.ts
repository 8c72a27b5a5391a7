/**
 * Three-way merge of the frontmatter, field by field. When one side's whole block is the result it is kept
 * verbatim (its quoting, comments and order); otherwise ours' block is rewritten entry by entry: fields that
 * take theirs' value take theirs' exact lines, fields theirs added follow ours' in theirs' order, removed
 * fields go. Each entry is checked to parse on its own to exactly its field, and the rewritten block to
 * exactly the merged fields, so a merge never changes what a field means; anything else is a conflict.
 */
import { parseFrontmatterYaml, type FrontmatterData } from '../frontmatter.js';
import { refuse } from './types.js';

/** One side's frontmatter: the whole block (`---` lines included) and its YAML text, or null when it has none. */
export interface FrontmatterBlock {
  block: string;
  yaml: string;
}

/**
 * Structural equality of parsed YAML values (order of map keys does not matter).
 * @example sameValue({ a: [1] }, { a: [1] }) === true
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

function parse(yaml: string, side: string): FrontmatterData {
  try {
    return parseFrontmatterYaml(yaml);
  } catch (err) {
    return refuse('frontmatter_invalid', `frontmatter (${side})`, err instanceof Error ? err.message : String(err));
  }
}

/** Top-level entries: each starts at a line in column 0 that is not a comment; what follows belongs to it. */
function entries(yaml: string, data: FrontmatterData): { head: string; byKey: Map<string, string>; order: string[] } {
  const lines = yaml.split(/(?<=\n)/);
  let head = '';
  const chunks: string[] = [];
  for (const line of lines) {
    const starts = /^[^\s#]/.test(line);
    if (starts) chunks.push(line);
    else if (chunks.length > 0) chunks[chunks.length - 1] += line;
    else head += line;
  }
  const byKey = new Map<string, string>();
  const order: string[] = [];
  for (const chunk of chunks) {
    let one: FrontmatterData;
    try {
      one = parseFrontmatterYaml(chunk);
    } catch {
      return refuse('frontmatter_complex', 'frontmatter');
    }
    const keys = Object.keys(one);
    const key = keys[0];
    if (keys.length !== 1 || key === undefined || byKey.has(key) || !sameValue(one[key], data[key]))
      refuse('frontmatter_complex', 'frontmatter');
    byKey.set(key, chunk);
    order.push(key);
  }
  if (order.length !== Object.keys(data).length) refuse('frontmatter_complex', 'frontmatter');
  return { head, byKey, order };
}

/** The merged fields, in ours' order then theirs' new ones; a field changed two ways is a conflict. */
function mergeFields(b: FrontmatterData, o: FrontmatterData, t: FrontmatterData): FrontmatterData {
  const merged: FrontmatterData = {};
  const keys = [...new Set([...Object.keys(o), ...Object.keys(t), ...Object.keys(b)])];
  for (const key of keys) {
    const [vb, vo, vt] = [b[key], o[key], t[key]];
    const [ib, io, it] = [Object.hasOwn(b, key), Object.hasOwn(o, key), Object.hasOwn(t, key)];
    const same = (x: unknown, hx: boolean, y: unknown, hy: boolean): boolean => hx === hy && (!hx || sameValue(x, y));
    let pick: 'o' | 't';
    if (same(vo, io, vt, it) || same(vt, it, vb, ib)) pick = 'o';
    else if (same(vo, io, vb, ib)) pick = 't';
    else return refuse('field', `frontmatter: ${key}`);
    if (pick === 'o' ? io : it) merged[key] = pick === 'o' ? vo : vt;
  }
  return merged;
}

/**
 * Merges three frontmatter blocks (null = the side has none). Returns the merged block (null: none).
 * @example mergeFrontmatter(base, ours, theirs) // '---\ndescription: x\nlimit: 10\n---\n'
 */
export function mergeFrontmatter(
  b: FrontmatterBlock | null,
  o: FrontmatterBlock | null,
  t: FrontmatterBlock | null,
): FrontmatterBlock | null {
  if (o?.block === t?.block) return o;
  if (o?.block === b?.block) return t;
  if (t?.block === b?.block) return o;
  if (o === null || t === null) return refuse('frontmatter_removed', 'frontmatter');
  const [db, dO, dT] = [b === null ? {} : parse(b.yaml, 'base'), parse(o.yaml, 'ours'), parse(t.yaml, 'theirs')];
  const merged = mergeFields(db, dO, dT);
  if (sameValue(merged, dO)) return o;
  if (sameValue(merged, dT)) return t;
  const mine = entries(o.yaml, dO);
  const other = entries(t.yaml, dT);
  let yaml = mine.head;
  for (const key of mine.order) {
    if (!Object.hasOwn(merged, key)) continue;
    yaml += sameValue(merged[key], dO[key]) ? (mine.byKey.get(key) as string) : (other.byKey.get(key) as string);
  }
  for (const key of other.order)
    if (!Object.hasOwn(dO, key) && Object.hasOwn(merged, key)) yaml += other.byKey.get(key) as string;
  if (yaml !== '' && !yaml.endsWith('\n')) refuse('frontmatter_complex', 'frontmatter');
  if (!sameValue(parse(yaml, 'merged'), merged)) refuse('frontmatter_complex', 'frontmatter');
  const close = o.block.slice(4 + o.yaml.length);
  return { block: `---\n${yaml}${close}`, yaml };
}
