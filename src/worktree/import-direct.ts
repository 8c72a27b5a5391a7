/**
 * The writer's walked objects (pack-private.ts: read from its private directory, each re-hashed) stored in
 * the shared store without a git process, when every link they make is accounted for: each commit and tree
 * reads strictly (git/strict-objects.ts: a subset of what `unpack-objects --strict` accepts), each commit's
 * parents are the base or walked commits, and each tree entry is either exactly the base's entry at that
 * path (the base is in the store: its objects exist and have that type) or a walked object of the type its
 * mode names. Anything else — a base tree that is not loose, a symbolic link the writer added, a name or
 * header outside the subset — answers false and the caller hands the pack to `unpack-objects --strict`, as
 * before. The saving is that process (~3–5 ms of every worker cycle).
 */
import { ObjectBatch } from '../git/objects.js';
import { readLooseObject } from '../git/loose-object.js';
import {
  parseStrictCommit,
  parseStrictTree,
  typeOfMode,
  type StrictMode,
  type StrictTreeEntry,
} from '../git/strict-objects.js';
import type { LooseObject, PrivateObjects } from './pack-private.js';

/** Tree entries compared at most before the work goes to git (a writer that rewrote a huge directory). */
const MAX_ENTRIES = 20_000;

interface Check {
  objects: ReadonlyMap<string, LooseObject>;
  objectsDir: string;
  /** Base trees read so far (null: not readable here). */
  baseTrees: Map<string, Map<string, StrictTreeEntry> | null>;
  /** `tree:baseTree` pairs already accounted for. */
  done: Set<string>;
  budget: number;
}

/**
 * Stores `walked` in the shared store at `objectsDir` when its links are accounted for (see the module
 * comment); false when git has to decide instead (nothing was written then).
 * @example if (!storeWalkedObjects(walked, { base, objectsDir: join(commonDir, 'objects') })) await unpack(pack)
 */
export function storeWalkedObjects(walked: PrivateObjects, o: { base: string; objectsDir: string }): boolean {
  let accounted: boolean;
  try {
    accounted = linksAccountedFor(walked, o);
  } catch {
    accounted = false; // an unreadable base object: git decides
  }
  if (!accounted) return false;
  // Each object is written to a temp file and renamed in (git's own way): a crash leaves whole objects or none.
  const batch = new ObjectBatch(o.objectsDir, 'sha1');
  for (const obj of walked.objects.values()) batch.add(obj.type, obj.body);
  batch.store();
  return true;
}

function linksAccountedFor(walked: PrivateObjects, o: { base: string; objectsDir: string }): boolean {
  const base = readLooseObject(o.objectsDir, o.base);
  const baseTree = base?.type === 'commit' ? parseStrictCommit(base.data)?.tree : undefined;
  if (baseTree === undefined) return false;
  const check: Check = {
    objects: walked.objects,
    objectsDir: o.objectsDir,
    baseTrees: new Map(),
    done: new Set(),
    budget: MAX_ENTRIES,
  };
  for (const obj of walked.objects.values()) {
    if (obj.type !== 'commit') continue;
    const c = parseStrictCommit(obj.body);
    if (c === null) return false;
    if (!c.parents.every((p) => p === o.base || walked.objects.get(p)?.type === 'commit')) return false;
    if (c.tree !== baseTree && !treeAccountedFor(check, c.tree, baseTree)) return false;
  }
  return true;
}

/** Files (either file mode) with files, links with links, trees with trees: the same object, the same type. */
function sameKind(a: StrictMode, b: StrictMode): boolean {
  return a === b || (a !== '40000' && a !== '120000' && b !== '40000' && b !== '120000');
}

/** A walked tree read strictly, each entry as the base has it at that path or a walked object of its type. */
function treeAccountedFor(check: Check, id: string, baseId: string | undefined): boolean {
  const key = `${id}:${baseId ?? ''}`;
  if (check.done.has(key)) return true;
  const obj = check.objects.get(id);
  const entries = obj?.type === 'tree' ? parseStrictTree(obj.body) : null;
  const base = baseId === undefined ? new Map<string, StrictTreeEntry>() : baseEntries(check, baseId);
  if (entries === null || base === null) return false;
  check.budget -= entries.length;
  if (check.budget < 0) return false;
  for (const e of entries) {
    const b = base.get(e.name);
    if (b !== undefined && b.id === e.id && sameKind(b.mode, e.mode)) continue;
    const own = check.objects.get(e.id);
    // A link the writer added is left to git, which checks what it points to.
    if (own === undefined || own.type !== typeOfMode(e.mode) || e.mode === '120000') return false;
    if (own.type === 'tree' && !treeAccountedFor(check, e.id, b?.mode === '40000' ? b.id : undefined)) return false;
  }
  check.done.add(key);
  return true;
}

/** The base tree's entries by name, read loose from the shared store (re-hashed); null when it is not loose or not strict. */
function baseEntries(check: Check, id: string): Map<string, StrictTreeEntry> | null {
  if (check.baseTrees.has(id)) return check.baseTrees.get(id) ?? null;
  const obj = readLooseObject(check.objectsDir, id);
  const entries = obj?.type === 'tree' ? parseStrictTree(obj.data) : null;
  const byName = entries === null ? null : new Map(entries.map((e) => [e.name, e]));
  check.baseTrees.set(id, byName);
  return byName;
}
