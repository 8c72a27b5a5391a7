/**
 * Three-way merge of one container's children (the top level, a section, a list). Each side is aligned with
 * the base by key; what a side changed becomes hunks (a base range replaced by the side's nodes, or nodes
 * inserted between two base nodes) and in-place edits of containers matched by key (merged recursively when
 * both sides edited them). The rules, in order:
 *  - hunks of the two sides that overlap conflict, unless they are the same change;
 *  - a hunk that removes or replaces a container the other side edited conflicts;
 *  - an insertion strictly inside the other side's replaced range conflicts;
 *  - insertions at the same place are combined: ours first, then theirs, dropping theirs' copies of what ours
 *    added and merging containers both added under the same key; what remains on both sides must be list
 *    items or sections, anything else (two paragraphs written at one place) conflicts;
 * (merge-text.ts then checks that no block or section appears more often than on either side.)
 */
import { alignKeys } from './lcs.js';
import { renderChildren, type MdNode } from './structure.js';
import { refuse } from './types.js';

interface Hunk {
  start: number;
  end: number;
  nodes: MdNode[];
}

interface SideChanges {
  /** base index → the side's node (only for nodes the side kept). */
  kept: Map<number, MdNode>;
  /** Slot p (before base node p) → nodes inserted there. */
  inserts: Map<number, MdNode[]>;
  /** Non-empty base ranges the side replaced (possibly by nothing), in order. */
  hunks: Hunk[];
  /** base index → the side's version of a container it changed in place. */
  edits: Map<number, MdNode>;
}

function sideChanges(base: readonly MdNode[], side: readonly MdNode[], where: string): SideChanges {
  const match = alignKeys(
    base.map((n) => n.key),
    side.map((n) => n.key),
    where,
  );
  const out: SideChanges = { kept: new Map(), inserts: new Map(), hunks: [], edits: new Map() };
  let prevBase = -1;
  let prevSide = -1;
  for (let i = 0; i <= base.length; i++) {
    const j = i === base.length ? side.length : (match[i] as number);
    if (j < 0) continue;
    const nodes = side.slice(prevSide + 1, j);
    if (prevBase + 1 < i) out.hunks.push({ start: prevBase + 1, end: i, nodes });
    else if (nodes.length > 0) out.inserts.set(i, nodes);
    if (i < base.length) {
      const mine = side[j] as MdNode;
      out.kept.set(i, mine);
      if (mine.text !== (base[i] as MdNode).text) out.edits.set(i, mine);
    }
    prevBase = i;
    prevSide = j;
  }
  return out;
}

/** A short, one-line name for a node in conflict messages. */
export function describe(node: MdNode | undefined): string {
  if (node === undefined) return 'the end';
  const first = (node.kind === 'section' ? node.key.slice('section:'.length) : node.text).split('\n')[0] ?? '';
  return first.length > 40 ? `${first.slice(0, 39)}…` : first;
}

function at(where: string, node: MdNode | undefined): string {
  return where === '' ? describe(node) : `${where} > ${describe(node)}`;
}

const sameNodes = (a: readonly MdNode[], b: readonly MdNode[]): boolean =>
  a.length === b.length && a.every((n, i) => n.text === (b[i] as MdNode).text);

/** Refuses overlapping hunks that are not the same change; returns theirs' hunks that repeat ours'. */
function checkHunks(base: readonly MdNode[], o: SideChanges, t: SideChanges, where: string): Set<Hunk> {
  const repeated = new Set<Hunk>();
  let j = 0;
  for (const ho of o.hunks) {
    while (j < t.hunks.length && (t.hunks[j] as Hunk).end <= ho.start) j++;
    for (let k = j; k < t.hunks.length && (t.hunks[k] as Hunk).start < ho.end; k++) {
      const ht = t.hunks[k] as Hunk;
      if (ht.start === ho.start && ht.end === ho.end && sameNodes(ht.nodes, ho.nodes)) repeated.add(ht);
      else
        refuse(
          ho.nodes.length === 0 || ht.nodes.length === 0 ? 'delete_edit' : 'edit',
          at(where, base[Math.max(ho.start, ht.start)]),
        );
    }
  }
  for (const [mine, other] of [
    [o, t],
    [t, o],
  ] as const) {
    for (const h of mine.hunks) {
      for (let i = h.start; i < h.end; i++)
        if (other.edits.has(i)) refuse(h.nodes.length === 0 ? 'delete_edit' : 'edit', at(where, base[i]));
    }
    for (const p of mine.inserts.keys()) {
      const inside = other.hunks.find((h) => h.start < p && p < h.end);
      if (inside) refuse(inside.nodes.length === 0 ? 'delete_edit' : 'edit', at(where, base[p]));
    }
  }
  return repeated;
}

const COMBINABLE: ReadonlySet<MdNode['kind']> = new Set(['item', 'section']);

/** Insertions of both sides at one place (see the module comment). */
function combineInserts(
  ours: readonly MdNode[] | undefined,
  theirs: readonly MdNode[] | undefined,
  where: string,
  next: MdNode | undefined,
): MdNode[] {
  if (!ours?.length) return [...(theirs ?? [])];
  if (!theirs?.length) return [...ours];
  const rest = [...theirs];
  let oursOwn = 0;
  const out = ours.map((o) => {
    const same = rest.findIndex((t) => t.text === o.text);
    if (same >= 0) return (rest.splice(same, 1), o);
    const twin = o.children ? rest.findIndex((t) => t.children && t.key === o.key) : -1;
    if (twin >= 0) return mergeContainer(null, o, rest.splice(twin, 1)[0] as MdNode, where);
    oursOwn++;
    return o;
  });
  if (oursOwn > 0 && rest.length > 0 && ![...ours, ...rest].every((n) => COMBINABLE.has(n.kind)))
    refuse('insert', at(where, next));
  return [...out, ...rest];
}

/**
 * Merges the children of one container; throws a merge conflict when the sides cannot be combined.
 * @example mergeChildren(base.children, ours.children, theirs.children, '')
 */
export function mergeChildren(
  base: readonly MdNode[],
  ours: readonly MdNode[],
  theirs: readonly MdNode[],
  where: string,
): MdNode[] {
  const o = sideChanges(base, ours, where);
  const t = sideChanges(base, theirs, where);
  const repeated = checkHunks(base, o, t, where);
  const starts = new Map<number, Hunk>();
  for (const h of [...o.hunks, ...t.hunks.filter((x) => !repeated.has(x))]) starts.set(h.start, h);
  const out: MdNode[] = [];
  for (let p = 0; ;) {
    out.push(...combineInserts(o.inserts.get(p), t.inserts.get(p), where, base[p]));
    if (p >= base.length) break;
    const hunk = starts.get(p);
    if (hunk) {
      out.push(...hunk.nodes);
      p = hunk.end;
      continue;
    }
    const [eo, et] = [o.edits.get(p), t.edits.get(p)];
    if (eo && et) out.push(eo.text === et.text ? eo : mergeContainer(base[p] as MdNode, eo, et, where));
    else out.push(eo ?? et ?? (o.kept.get(p) as MdNode));
    p++;
  }
  return out;
}

/**
 * Merges two versions of one container (a section or a list matched by key; `base` null when both sides added
 * it). The result keeps ours' separator to its next sibling.
 */
export function mergeContainer(base: MdNode | null, ours: MdNode, theirs: MdNode, where: string): MdNode {
  if (!ours.children || !theirs.children || (base !== null && !base.children)) refuse('edit', at(where, ours));
  const children = mergeChildren(
    base?.children ?? [],
    ours.children,
    theirs.children,
    ours.kind === 'section' ? at(where, ours) : where,
  );
  return { ...ours, children, text: renderChildren(children) };
}
