/**
 * The memory tree kept between commits: entries are set and removed one path at a time (a commit's diff), each
 * directory keeps its children in sibling order, and the node count is kept as it moves, so rendering a new
 * commit costs what changed plus the bounded text — not the repository's size. Renders byte-identically to
 * renderTree over the same entries (tree.ts holds the one layout; tree-model.test.ts compares the two). A path
 * renderTree would repair (a backslash, a control character, an empty or `.` segment) or a directory entry
 * is kept aside, and while one is present the text is rendered from scratch.
 */
import {
  compareNodes,
  isPlainTreePath,
  layoutTree,
  renderTree,
  shownDescription,
  type LayoutNode,
  type TreeEntry,
} from './tree.js';
import type { TreeLimits } from './tree-limits.js';

interface ModelNode extends LayoutNode {
  parent: ModelNode | undefined;
  /** A file entry names this node (shown as a directory anyway while it has children or is pinned). */
  file: boolean;
  /** Always shown as a directory (`alwaysShow`), never removed. */
  pinned: boolean;
  /** Made with the first child (a repository of 50,000 files has 50,000 leaves). */
  children: Map<string, ModelNode> | undefined;
  /**
   * The children in sibling order (compareNodes), kept in step with `children` once made; made when the
   * node is first rendered (a directory never shown is never sorted).
   */
  sorted: ModelNode[] | undefined;
}

function newNode(name: string, parent: ModelNode | undefined): ModelNode {
  return { name, dir: false, parent, file: false, pinned: false, children: undefined, sorted: undefined };
}

/** Where `node` sits (or would sit) in `list`, by binary search on the total sibling order. */
function indexIn(list: readonly ModelNode[], node: LayoutNode): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareNodes(list[mid] as ModelNode, node) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function unlink(node: ModelNode): void {
  const siblings = (node.parent as ModelNode).sorted;
  if (siblings === undefined) return;
  const at = indexIn(siblings, node);
  if (siblings[at] === node) siblings.splice(at, 1);
}

function link(node: ModelNode): void {
  const siblings = (node.parent as ModelNode).sorted;
  if (siblings !== undefined) siblings.splice(indexIn(siblings, node), 0, node);
}

const NONE: readonly ModelNode[] = [];
const sortedKids = (node: ModelNode): readonly ModelNode[] =>
  node.children === undefined ? NONE : (node.sorted ??= [...node.children.values()].sort(compareNodes));

/** A tree of entries that moves by single paths; see the file comment. */
export class TreeModel {
  private readonly root = newNode('', undefined);
  private count = 0;
  /** Every entry: path → description shown (undefined: none). */
  private readonly entries = new Map<string, string | undefined>();
  /** The entries renderTree would repair: while any is present, rendering starts from scratch. */
  private readonly irregular = new Set<string>();

  constructor(private readonly alwaysShow: readonly string[] = []) {
    for (const dir of alwaysShow) {
      if (!isPlainTreePath(dir) || dir === '') {
        this.irregular.add(`\0${dir}`);
        continue;
      }
      const node = this.nodeAt(dir.split('/'));
      node.pinned = true;
      this.refresh(node);
    }
  }

  /** Adds or replaces the entry at `path`. */
  set(path: string, description?: string): void {
    const shown = shownDescription(description);
    this.delete(path);
    this.entries.set(path, shown);
    if (!isPlainTreePath(path)) {
      this.irregular.add(path);
      return;
    }
    const node = this.nodeAt(path.split('/'));
    node.file = true;
    if (shown !== undefined) node.description = shown;
    else delete node.description;
    this.refresh(node);
  }

  /** Removes the entry at `path` (nothing when absent). */
  delete(path: string): void {
    if (!this.entries.delete(path)) return;
    if (this.irregular.delete(path)) return;
    let node: ModelNode | undefined = this.root;
    for (const segment of path.split('/')) node = node?.children?.get(segment);
    if (node === undefined || node === this.root) return;
    node.file = false;
    delete node.description;
    this.refresh(node);
  }

  /** The text renderTree would give for the current entries. */
  render(limits: TreeLimits, rootLine = '/memory/'): string {
    if (this.irregular.size > 0) {
      const entries: TreeEntry[] = [];
      for (const [path, description] of this.entries)
        entries.push(description === undefined ? { path } : { path, description });
      return renderTree(entries, limits, { root: rootLine, alwaysShow: [...this.alwaysShow] });
    }
    return layoutTree(this.root, sortedKids, () => this.count, limits, rootLine);
  }

  /** The node at `segments`, creating the missing ones (each placed among its siblings). */
  private nodeAt(segments: readonly string[]): ModelNode {
    let node = this.root;
    for (const segment of segments) {
      let next = node.children?.get(segment);
      if (next === undefined) {
        next = newNode(segment, node);
        (node.children ??= new Map()).set(segment, next);
        this.count += 1;
        link(next);
        this.refresh(node);
      }
      node = next;
    }
    return node;
  }

  /**
   * Brings a node's shape up to date after a change to it: a directory while it has children or is pinned;
   * gone when it is neither that nor a file (then its parent is refreshed in turn); re-placed among its
   * siblings when it turns between file and directory (the order puts directories first).
   */
  private refresh(node: ModelNode): void {
    if (node === this.root) return;
    const parent = node.parent as ModelNode;
    const dir = node.pinned || (node.children !== undefined && node.children.size > 0);
    if (!dir && !node.file) {
      unlink(node);
      parent.children?.delete(node.name);
      this.count -= 1;
      this.refresh(parent);
      return;
    }
    if (dir === node.dir) return;
    unlink(node);
    node.dir = dir;
    link(node);
  }
}
