/**
 * The paths two commits differ in, and a commit's files, read from loose objects only (no git process):
 * equal subtrees are skipped by id, so a one-file write costs a few tree reads whatever the repository's size.
 * Undefined as soon as an object is packed, unverifiable or the change is large — the caller then asks git
 * (`diff-tree`, `ls-tree`). Search and the prompt's read cache both move their path maps with it. A fast
 * path (`objectReads` in fast-paths.ts): with the switch off neither walk answers.
 */
import { isUtf8 } from 'node:buffer';
import { fastPath } from '../fast-paths.js';
import { looseObjectAt } from './loose-object.js';
import { parseTree, type TreeItem } from './objects.js';

/** Which files a caller keeps (e.g. search: indexable text; the prompt: every blob). */
export type KeepFile = (path: string, mode: string) => boolean;

/** How a path map moves between two commits: paths set to a blob id, paths removed. */
export interface TreeDelta {
  kind: 'delta';
  set: Map<string, string>;
  removed: string[];
}

// Past this many changed paths git's diff is as fast, and the walk stays bounded.
const MAX_CHANGES = 2_000;

class NotLoose extends Error {}

function treeItems(objectsDir: string, id: string): Map<string, TreeItem> {
  const obj = looseObjectAt(objectsDir, id);
  if (obj?.type !== 'tree') throw new NotLoose();
  const out = new Map<string, TreeItem>();
  for (const item of parseTree(obj.data)) {
    const raw = item.raw ?? Buffer.from(item.name);
    if (isUtf8(raw)) out.set(raw.toString('utf8'), item); // a name that is not UTF-8: never reported
  }
  return out;
}

function rootTree(objectsDir: string, commit: string): string {
  const obj = looseObjectAt(objectsDir, commit);
  const tree = obj?.type === 'commit' ? /^tree ([0-9a-f]{40})\n/.exec(obj.data.toString('latin1'))?.[1] : undefined;
  if (!tree) throw new NotLoose();
  return tree;
}

const isTree = (item: TreeItem | undefined): boolean => item?.mode === '40000';

interface Walk {
  objectsDir: string;
  keep: KeepFile;
  set: Map<string, string>;
  removed: string[];
}

function note(w: Walk): void {
  if (w.set.size + w.removed.length > MAX_CHANGES) throw new NotLoose();
}

/** Every file under a tree that disappears (its paths leave the map). */
function removeAll(w: Walk, prefix: string, id: string): void {
  for (const [name, item] of treeItems(w.objectsDir, id)) {
    if (isTree(item)) removeAll(w, `${prefix}${name}/`, item.id);
    else w.removed.push(`${prefix}${name}`);
    note(w);
  }
}

function compare(w: Walk, prefix: string, a: Map<string, TreeItem>, b: Map<string, TreeItem>): void {
  for (const [name, before] of a) {
    if (b.has(name)) continue;
    if (isTree(before)) removeAll(w, `${prefix}${name}/`, before.id);
    else w.removed.push(`${prefix}${name}`);
    note(w);
  }
  for (const [name, after] of b) {
    const before = a.get(name);
    if (before && before.id === after.id && before.mode === after.mode) continue;
    const path = `${prefix}${name}`;
    if (isTree(after)) {
      if (before && !isTree(before)) w.removed.push(path);
      compare(
        w,
        `${path}/`,
        before && isTree(before) ? treeItems(w.objectsDir, before.id) : new Map(),
        treeItems(w.objectsDir, after.id),
      );
    } else {
      if (before && isTree(before)) removeAll(w, `${path}/`, before.id);
      if (w.keep(path, after.mode)) w.set.set(path, after.id);
      else w.removed.push(path);
    }
    note(w);
  }
}

/**
 * The map change from commit `from` to commit `to`, or undefined when git must be asked.
 * @example diffLoose('/mem/.git/objects', headBefore, headAfter, keep) // { kind: 'delta', set: Map { 'notes/a.md' => '4b82…' }, removed: [] }
 */
export function diffLoose(objectsDir: string, from: string, to: string, keep: KeepFile): TreeDelta | undefined {
  return fastPath('objectReads', () => walkDiff(objectsDir, from, to, keep));
}

function walkDiff(objectsDir: string, from: string, to: string, keep: KeepFile): TreeDelta | undefined {
  try {
    const w: Walk = { objectsDir, keep, set: new Map(), removed: [] };
    const [a, b] = [rootTree(objectsDir, from), rootTree(objectsDir, to)];
    if (a !== b) compare(w, '', treeItems(objectsDir, a), treeItems(objectsDir, b));
    return { kind: 'delta', set: w.set, removed: w.removed };
  } catch (err) {
    if (err instanceof NotLoose) return undefined;
    throw err;
  }
}

function listInto(w: Walk, prefix: string, id: string, out: Map<string, string>, depth: number): void {
  if (depth > 64) throw new NotLoose();
  for (const [name, item] of treeItems(w.objectsDir, id)) {
    const path = `${prefix}${name}`;
    if (isTree(item)) listInto(w, `${path}/`, item.id, out, depth + 1);
    else if (w.keep(path, item.mode)) out.set(path, item.id);
  }
}

/**
 * A commit's indexable files (path → blob id) from loose trees, or undefined when git must be asked.
 * @example listLoose('/mem/.git/objects', head, keep)?.get('notes/a.md') // '4b82…'
 */
export function listLoose(objectsDir: string, commit: string, keep: KeepFile): Map<string, string> | undefined {
  return fastPath('objectReads', () => walkList(objectsDir, commit, keep));
}

function walkList(objectsDir: string, commit: string, keep: KeepFile): Map<string, string> | undefined {
  try {
    const out = new Map<string, string>();
    listInto({ objectsDir, keep, set: new Map(), removed: [] }, '', rootTree(objectsDir, commit), out, 0);
    return out;
  } catch (err) {
    if (err instanceof NotLoose) return undefined;
    throw err;
  }
}
