/**
 * A markdown body as the merge sees it: top-level blocks, grouped into sections by headings (every heading
 * starts one, whatever its depth), with bullet lists taken apart into their items. Everything is a slice of
 * whole source lines: a node's text is its exact source and `gap` the exact blank text up to its next sibling,
 * so rendering an unchanged tree gives back the body byte for byte. The markdown parser only says which lines
 * each block spans; text is never re-serialised.
 */
import { MAX_MERGE_NODES } from './limits.js';
import { refuse } from './types.js';

/** The part of a markdown-it block token the merge reads: its kind, nesting and source lines [start, end). */
export interface BlockToken {
  type: string;
  map: [number, number] | null;
  level: number;
  nesting: number;
  markup: string;
}

/** Parses markdown into markdown-it's block tokens. */
export type ParseMarkdown = (text: string) => BlockToken[];

export type NodeKind = 'block' | 'heading' | 'item' | 'list' | 'section';

export interface MdNode {
  kind: NodeKind;
  /** What aligns versions: a leaf's own text, a section's heading, a list's bullet character. */
  key: string;
  /** The exact source (for containers: from the first child to the end of the last). */
  text: string;
  /** Lists and sections: their children (a section's first child is its heading). */
  children?: MdNode[];
  /** The source text between this node and its next sibling; null when it was the last one. */
  gap: string | null;
  /** Its container's separator, used when a node that was last gets a follower in the merge. */
  sep: string;
}

/** A whole body: blank text before the first block, the top-level nodes, and what follows the last. */
export interface MdDoc {
  lead: string;
  children: MdNode[];
  tail: string;
}

const BLANK_LINE = /^[ \t]*$/;

/** A block's lines [start, end), trailing blank lines trimmed; lists carry their items. */
interface Span {
  kind: 'block' | 'heading' | 'list';
  start: number;
  end: number;
  marker?: string;
  items?: Span[];
}

/** The body's lines and where each starts, for slicing whole lines. */
class Lines {
  readonly lines: string[];
  private readonly starts: number[] = [];
  constructor(readonly body: string) {
    this.lines = body.split('\n');
    let at = 0;
    for (const line of this.lines) {
      this.starts.push(at);
      at += line.length + 1;
    }
  }
  blank(i: number): boolean {
    return BLANK_LINE.test(this.lines[i] ?? '');
  }
  /** Offset where line `i` starts, and where line `i` ends (before its newline). */
  startOf(i: number): number {
    return this.starts[i] ?? this.body.length;
  }
  endOf(i: number): number {
    return this.startOf(i) + (this.lines[i]?.length ?? 0);
  }
  /** [start, end) without trailing blank lines; null when every line is blank. */
  trim(start: number, end: number): [number, number] | null {
    let e = Math.min(end, this.lines.length);
    while (e > start && this.blank(e - 1)) e--;
    let s = start;
    while (s < e && this.blank(s)) s++;
    return s < e ? [s, e] : null;
  }
  text(span: { start: number; end: number }): string {
    return this.body.slice(this.startOf(span.start), this.endOf(span.end - 1));
  }
  between(a: { end: number }, b: { start: number }): string {
    return this.body.slice(this.endOf(a.end - 1), this.startOf(b.start));
  }
}

function kindOf(type: string): Span['kind'] {
  if (type === 'heading_open') return 'heading';
  return type === 'bullet_list_open' ? 'list' : 'block';
}

/** Top-level spans from the tokens; bullet lists with their items. */
function tokenSpans(tokens: readonly BlockToken[], lines: Lines): Span[] {
  const spans: Span[] = [];
  let list: Span | null = null;
  for (const t of tokens) {
    if (t.nesting === -1) {
      if (t.level === 0) list = null;
      continue;
    }
    if (t.map === null) continue;
    const range = lines.trim(t.map[0], t.map[1]);
    if (range === null) continue;
    if (t.level === 0) {
      const span: Span = { kind: kindOf(t.type), start: range[0], end: range[1] };
      if (span.kind === 'list') [span.marker, span.items, list] = [t.markup, [], span];
      spans.push(span);
    } else if (t.level === 1 && list !== null && t.type === 'list_item_open') {
      list.items?.push({ kind: 'block', start: range[0], end: range[1] });
    }
  }
  return spans;
}

/**
 * Adds what no token covers: link reference definitions leave none, yet they are blocks of their own. Refuses
 * overlapping or out-of-order spans (never expected from the parser).
 */
function withUncovered(spans: readonly Span[], lines: Lines): Span[] {
  const out: Span[] = [];
  let at = 0;
  const fill = (upTo: number): void => {
    const range = lines.trim(at, upTo);
    if (range) out.push({ kind: 'block', start: range[0], end: range[1] });
  };
  for (const span of spans) {
    if (span.start < at) refuse('structure', '', 'blocks that overlap');
    fill(span.start);
    out.push(span);
    at = span.end;
  }
  fill(lines.lines.length);
  return out;
}

/** Separator text between two siblings: blank by construction, else the body is not taken apart. */
function gapBetween(lines: Lines, a: Span, b: Span): string {
  const gap = lines.between(a, b);
  if (!/^[ \t\n]*$/.test(gap)) refuse('structure', '', 'text between blocks that belongs to no block');
  return gap;
}

/** Sets each child's gap from the spans, and every child's `sep` to the container's habit. */
function link(children: MdNode[], spans: readonly Span[], lines: Lines, fallback: string): void {
  for (let i = 0; i < children.length; i++) {
    const next = spans[i + 1];
    (children[i] as MdNode).gap = next ? gapBetween(lines, spans[i] as Span, next) : null;
  }
  const sep = children.length >= 2 ? ((children[children.length - 2] as MdNode).gap ?? fallback) : fallback;
  for (const c of children) c.sep = sep;
}

class Counter {
  private n = 0;
  tick(): void {
    if (++this.n > MAX_MERGE_NODES) refuse('too_large', '', `more than ${MAX_MERGE_NODES} blocks`);
  }
}

function leaf(kind: NodeKind, text: string, count: Counter): MdNode {
  count.tick();
  return { kind, key: `${kind}:${text}`, text, gap: null, sep: '' };
}

function node(span: Span, lines: Lines, count: Counter): MdNode {
  if (span.kind !== 'list') return leaf(span.kind, lines.text(span), count);
  const items = span.items ?? [];
  const children = items.map((s) => leaf('item', lines.text(s), count));
  link(children, items, lines, '\n');
  count.tick();
  return { kind: 'list', key: `list:${span.marker ?? ''}`, text: lines.text(span), children, gap: null, sep: '' };
}

/** Groups top-level spans into preamble nodes and sections (a heading and what follows it up to the next). */
function group(spans: readonly Span[], lines: Lines, count: Counter): { nodes: MdNode[]; spans: Span[] } {
  const nodes: MdNode[] = [];
  const outer: Span[] = [];
  let section: { node: MdNode; spans: Span[] } | null = null;
  const close = (): void => {
    if (section === null) return;
    link(section.node.children as MdNode[], section.spans, lines, '\n\n');
    const span: Span = {
      kind: 'block',
      start: (section.spans[0] as Span).start,
      end: (section.spans.at(-1) as Span).end,
    };
    section.node.text = lines.text(span);
    outer.push(span);
    section = null;
  };
  for (const span of spans) {
    const n = node(span, lines, count);
    if (n.kind === 'heading') {
      close();
      count.tick();
      section = {
        node: { kind: 'section', key: `section:${n.text}`, text: '', children: [n], gap: null, sep: '' },
        spans: [span],
      };
      nodes.push(section.node);
    } else if (section !== null) {
      (section.node.children as MdNode[]).push(n);
      section.spans.push(span);
    } else {
      nodes.push(n);
      outer.push(span);
    }
  }
  close();
  return { nodes, spans: outer };
}

/**
 * Takes a body (normalised: LF, no BOM) apart. Throws a merge conflict for what it will not merge.
 * @example buildDoc('- a\n- b\n', parse).children[0].children.length === 2
 */
export function buildDoc(body: string, parse: ParseMarkdown): MdDoc {
  let tokens: BlockToken[];
  try {
    tokens = parse(body);
  } catch (err) {
    refuse(
      'unsupported',
      '',
      `the markdown parser failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    );
  }
  const lines = new Lines(body);
  const count = new Counter();
  const { nodes, spans } = group(withUncovered(tokenSpans(tokens, lines), lines), lines, count);
  link(nodes, spans, lines, '\n\n');
  const first = spans[0];
  const last = spans.at(-1);
  if (first === undefined || last === undefined) return { lead: body, children: [], tail: '' };
  return {
    lead: body.slice(0, lines.startOf(first.start)),
    children: nodes,
    tail: body.slice(lines.endOf(last.end - 1)),
  };
}

/**
 * The children's text joined with their separators (a node that was last takes its container's `sep`).
 * @example renderChildren(doc.children)
 */
export function renderChildren(children: readonly MdNode[]): string {
  let out = '';
  children.forEach((c, i) => {
    out += c.text;
    if (i < children.length - 1) out += c.gap ?? c.sep;
  });
  return out;
}

/** A whole body's text. */
export function renderDoc(doc: MdDoc): string {
  return `${doc.lead}${renderChildren(doc.children)}${doc.tail}`;
}

/**
 * The shape of a tree: every node's key, containers as brackets around their children. Two docs with the same
 * outline hold the same blocks in the same places (used to check a merged text parses back into what the
 * merge meant).
 * @example outline(buildDoc('# A\n- x\n', parse).children) // ['section:# A{', 'heading:# A', 'list:-{', 'item:- x', '}', '}']
 */
export function outline(children: readonly MdNode[], out: string[] = []): string[] {
  for (const c of children) {
    if (!c.children) {
      out.push(c.key);
      continue;
    }
    out.push(`${c.key}{`);
    outline(c.children, out);
    out.push('}');
  }
  return out;
}

/**
 * How often each leaf and each section occurs in a tree, wherever it is.
 * @example tally(buildDoc('- a\n- a\n', parse).children).get('item:- a') === 2
 */
export function tally(children: readonly MdNode[], out = new Map<string, number>()): Map<string, number> {
  for (const c of children) {
    if (c.kind !== 'list') out.set(c.key, (out.get(c.key) ?? 0) + 1);
    if (c.children) tally(c.children, out);
  }
  return out;
}
