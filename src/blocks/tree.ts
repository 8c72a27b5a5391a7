/**
 * Renders the memory repository as a box-drawing tree with per-directory and global caps, so an
 * agent sees what exists beyond its in-context blocks without the listing ever blowing up the prompt.
 */
import { singleLine } from './frontmatter.js';
import type { TreeLimits } from './tree-limits.js';

/** One file to show: a repo-relative path (`notes/a.md`) and an optional one-line description. */
export interface TreeEntry {
  path: string;
  description?: string;
}

export interface RenderTreeOptions {
  /** First line of the tree; default `/memory/`. */
  root?: string;
  /** Directory paths shown even when empty (e.g. `['system']`). */
  alwaysShow?: string[];
}

/** What the layout needs of a node: shared by this file's one-shot tree and the incremental one (tree-model.ts). */
export interface LayoutNode {
  name: string;
  dir: boolean;
  description?: string;
}

interface Node extends LayoutNode {
  children: Map<string, Node>;
}

/** Longest description kept on a file line (in characters, the ellipsis included). */
const MAX_TREE_DESCRIPTION = 200;

// A fixed locale keeps the order (and so the prompt bytes) the same on every machine.
// Created on first use: building ICU formatters costs ~15 ms, which a CLI write that never renders a tree
// should not pay at start-up.
let collator: Intl.Collator | undefined;
const compareNames = (a: string, b: string): number => (collator ??= new Intl.Collator('en')).compare(a, b);
const formatCount = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
// Control characters (a newline in a file name would break the tree's one-entry-per-line shape).
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/g;

// A path needing none of segmentsOf's repairs (the usual case: a clean git path) is split as it is.
// eslint-disable-next-line no-control-regex
const NEEDS_REPAIR = /[\\\u0000-\u001f\u007f]|(?:^|\/)\.?(?:\/|$)/;
// Leaves share one empty map until a child appears (a repository of 50,000 files makes 50,000 leaves).
const NO_CHILDREN: Map<string, Node> = new Map();

/**
 * Whether a path is taken as it is (no repair, not a directory entry): the only paths tree-model.ts keeps
 * incrementally; any other makes it render from scratch.
 */
export function isPlainTreePath(path: string): boolean {
  return !NEEDS_REPAIR.test(path) && !path.endsWith('/');
}

/** The description a file line shows, or undefined when it shows none. */
export function shownDescription(description: string | undefined): string | undefined {
  return description !== undefined && description.trim() !== '' ? description : undefined;
}

function segmentsOf(path: string): string[] {
  if (!NEEDS_REPAIR.test(path)) return path.split('/');
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .map((s) => s.replace(CONTROL_CHARS, ' '));
}

function child(parent: Node, name: string, dir: boolean): Node {
  let node = parent.children.get(name);
  if (node === undefined) {
    node = { name, dir, children: dir ? new Map() : NO_CHILDREN };
    if (parent.children === NO_CHILDREN) parent.children = new Map();
    parent.children.set(name, node);
  } else if (dir && !node.dir) {
    node.dir = true; // a name used both as a file and as a directory is shown as the directory
    if (node.children === NO_CHILDREN) node.children = new Map();
  }
  return node;
}

function buildTree(entries: readonly TreeEntry[], alwaysShow: readonly string[]): Node {
  const root: Node = { name: '', dir: true, children: new Map() };
  const addDir = (segments: string[]): Node => segments.reduce((node, s) => child(node, s, true), root);
  for (const dir of alwaysShow) addDir(segmentsOf(dir));
  for (const entry of entries) {
    const segments = segmentsOf(entry.path);
    const last = segments.pop();
    if (last === undefined) continue;
    const parent = addDir(segments);
    if (entry.path.endsWith('/')) {
      child(parent, last, true);
      continue;
    }
    const leaf = child(parent, last, false);
    const description = shownDescription(entry.description);
    if (description !== undefined) leaf.description = description;
  }
  return root;
}

/** The sibling order: directories first, then the fixed `en` collation, then code units (a total order). */
export function compareNodes(a: LayoutNode, b: LayoutNode): number {
  if (a.dir !== b.dir) return a.dir ? -1 : 1;
  const byLocale = compareNames(a.name, b.name);
  if (byLocale !== 0) return byLocale;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function countNodes(node: Node): number {
  let total = 0;
  for (const c of node.children.values()) total += 1 + countNodes(c);
  return total;
}

/**
 * Shortens a description to one line of at most `max` characters (ending in `…` when cut).
 * @example clipDescription('a\nb') === 'a b'
 */
export function clipDescription(text: string, max = MAX_TREE_DESCRIPTION): string {
  const line = singleLine(text);
  const chars = Array.from(line);
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}

function nodeLabel(node: LayoutNode): string {
  if (node.dir) return `${node.name}/`;
  return node.description === undefined ? node.name : `${node.name} — ${clipDescription(node.description)}`;
}

/** A node's children in sibling order (the caller's array is only read). */
export type SortedKids<N extends LayoutNode> = (node: N) => readonly N[];

function* walk<N extends LayoutNode>(node: N, kidsOf: SortedKids<N>, prefix: string, cap: number): Generator<string> {
  const kids = kidsOf(node);
  const shown = Math.min(kids.length, cap);
  const hidden = kids.length - shown;
  for (let i = 0; i < shown; i += 1) {
    const kid = kids[i] as N;
    const last = i === shown - 1 && hidden === 0;
    yield `${prefix}${last ? '└── ' : '├── '}${nodeLabel(kid)}`;
    if (kid.dir) yield* walk(kid, kidsOf, `${prefix}${last ? '    ' : '│   '}`, cap);
  }
  if (hidden > 0) yield `${prefix}└── … (${formatCount(hidden)} more entries)`;
}

function truncationNotice(shown: number, total: number): string {
  const omitted = Math.max(1, total - shown);
  return `[Tree truncated: showing ${formatCount(shown)} of ${formatCount(total)} entries. ${formatCount(omitted)} omitted.]`;
}

/** Pops rendered lines until the truncation notice fits both caps (or only the root line is left). */
function appendNotice(lines: string[], chars: number, total: number, limits: TreeLimits): void {
  let length = chars;
  for (;;) {
    const notice = truncationNotice(lines.length - 1, total);
    if (lines.length + 1 <= limits.maxLines && length + 1 + notice.length <= limits.maxChars) {
      lines.push(notice);
      return;
    }
    if (lines.length <= 1) return;
    length -= (lines.pop() as string).length + 1;
  }
}

/**
 * Renders entries as a tree: directories first, then names (fixed `en` collation, code-unit tie-break); at
 * most `maxChildrenPerDir` children per directory followed by `… (N more entries)`; the whole text within
 * `maxLines` lines and `maxChars` characters, ending in `[Tree truncated: showing X of Y entries. Z omitted.]`
 * when cut. A file line may carry its description after ` — ` (one line, clipped to ~200 characters).
 * @example renderTree([{ path: 'notes/a.md', description: 'Ideas' }], DEFAULT_TREE_LIMITS, { alwaysShow: ['system'] })
 *   // '/memory/\n├── notes/\n│   └── a.md — Ideas\n└── system/'
 */
export function renderTree(entries: TreeEntry[], limits: TreeLimits, options: RenderTreeOptions = {}): string {
  const tree = buildTree(entries, options.alwaysShow ?? []);
  const kidsOf = (node: Node): Node[] => [...node.children.values()].sort(compareNodes);
  return layoutTree(tree, kidsOf, () => countNodes(tree), limits, options.root ?? '/memory/');
}

/**
 * The bounded text of a tree given its root, each node's sorted children and its node count (asked only
 * when the text is cut): the one layout of renderTree and of the incremental tree (tree-model.ts).
 */
export function layoutTree<N extends LayoutNode>(
  root: N,
  kidsOf: SortedKids<N>,
  total: () => number,
  limits: TreeLimits,
  rootLine: string,
): string {
  const cap = Math.max(1, Math.floor(limits.maxChildrenPerDir));
  const lines = [rootLine];
  let chars = rootLine.length;
  let truncated = false;
  for (const line of walk(root, kidsOf, '', cap)) {
    if (lines.length + 1 > limits.maxLines || chars + 1 + line.length > limits.maxChars) {
      truncated = true;
      break;
    }
    lines.push(line);
    chars += 1 + line.length;
  }
  if (truncated) appendNotice(lines, chars, total(), limits);
  return lines.join('\n');
}
