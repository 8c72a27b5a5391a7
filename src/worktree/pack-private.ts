/**
 * The writer's new objects as a pack, built in-process for the common case: a few loose objects in its
 * private object directory whose commits sit directly on the base. Every object is read without following
 * links, inflated with a size cap and re-hashed here (so its name is its content), and the walk stops at
 * objects the private directory lacks (they are in the shared store, or `unpack-objects --strict` refuses
 * the links). Anything unusual — a pack or an alternates file in the private directory, a tag, SHA-256, a
 * commit whose history leaves the private objects anywhere but at the base, more than the caps — returns
 * null and the caller asks git (`pack-objects` + `rev-list`) instead, so this is a shortcut, never a rule.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { readLooseFile, verifyLoose } from '../git/loose-object.js';

/** Beyond these the walk gives up and git packs the objects. */
const MAX_OBJECTS = 2_000;
// Small: the walk runs on the caller's thread under the lease; git's pack-objects takes anything larger.
const MAX_BYTES = 4 * 1024 * 1024;

const TYPE_CODE = { commit: 1, tree: 2, blob: 3 } as const;
type ObjectType = keyof typeof TYPE_CODE;

/** One object read from the private directory: its type and content. */
export interface LooseObject {
  type: ObjectType;
  body: Buffer;
}

/** What the walk learnt: the private objects (re-hashed) and the commits among them (all descend from the base). */
export interface PrivateObjects {
  /** Every object the walk read from the private directory, by id. */
  objects: Map<string, LooseObject>;
  commitCount: number;
  /** The tree the tip commit records. */
  tipTree: string;
  /** The new blobs, by id (re-hashed): the merge's validator need not read them again. */
  blobs: Map<string, Buffer>;
}

/** The walk's objects as a pack git can take. */
export interface PrivatePack extends PrivateObjects {
  pack: Buffer;
  objectCount: number;
}

/** Inflates and checks one loose object against its name; null when the private directory does not hold it. */
function readLoose(objectsDir: string, id: string, budget: { bytes: number }): LooseObject | null {
  const raw = readLooseFile(join(objectsDir, id.slice(0, 2), id.slice(2)), budget.bytes);
  if (raw === null) return null;
  const { type, data } = verifyLoose(raw, id, budget.bytes);
  budget.bytes -= data.length;
  if (budget.bytes < 0) throw new Error('the private objects are too large');
  return { type, body: data };
}

/** The ids a commit names: its tree and its parents. */
function commitLinks(body: Buffer): { tree: string; parents: string[] } | null {
  const end = body.indexOf('\n\n');
  const lines = body.toString('latin1', 0, end < 0 ? body.length : end).split('\n');
  const tree = /^tree ([0-9a-f]{40})$/.exec(lines[0] ?? '')?.[1];
  const parents: string[] = [];
  for (const line of lines.slice(1)) {
    const p = /^parent ([0-9a-f]{40})$/.exec(line);
    if (p?.[1]) parents.push(p[1]);
    else break;
  }
  return tree ? { tree, parents } : null;
}

/** The ids a tree names (gitlinks name commits of other repositories: not walked). */
function treeLinks(body: Buffer): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < body.length) {
    const nul = body.indexOf(0, i);
    if (nul < 0 || nul + 21 > body.length) throw new Error('malformed tree');
    const mode = body.toString('latin1', i, body.indexOf(0x20, i));
    if (mode !== '160000') out.push(body.toString('hex', nul + 1, nul + 21));
    i = nul + 21;
  }
  return out;
}

/** Pack entry header: type and size as git's variable-length integer. */
function entryHeader(type: ObjectType, size: number): Buffer {
  const bytes: number[] = [];
  let c = (TYPE_CODE[type] << 4) | (size & 0x0f);
  let rest = Math.floor(size / 16);
  while (rest > 0) {
    bytes.push(c | 0x80);
    c = rest & 0x7f;
    rest = Math.floor(rest / 128);
  }
  bytes.push(c);
  return Buffer.from(bytes);
}

/**
 * The ids of the loose objects the private directory holds, when it holds nothing else (no pack, no
 * alternates; stray names in a fan-out directory, such as an interrupted write's temp file, are not objects);
 * null otherwise, or past MAX_OBJECTS. Listed once, so the walk never tries to open an object that is not
 * there (each miss costs a thrown error: a tree of 300 shared entries made the walk ~5 ms).
 */
function privateIds(objectsDir: string): Set<string> | null {
  const ids = new Set<string>();
  for (const name of readdirSync(objectsDir)) {
    if (name === 'pack' || name === 'info') {
      if (readdirSync(join(objectsDir, name)).length > 0) return null;
      continue;
    }
    if (!/^[0-9a-f]{2}$/.test(name)) return null;
    for (const rest of readdirSync(join(objectsDir, name))) if (/^[0-9a-f]{38}$/.test(rest)) ids.add(name + rest);
    if (ids.size > MAX_OBJECTS) return null;
  }
  return ids;
}

/**
 * The objects reachable from `tip` that the private directory holds, as a version-2 pack, when their commits
 * all descend from `base` inside it; null when git has to do it (see the module comment).
 * @example const p = buildPrivatePack(join(gitDir, 'objects'), tip, base); // { pack, objectCount, commitCount } | null
 */
export function buildPrivatePack(objectsDir: string, tip: string, base: string): PrivatePack | null {
  const walked = walkPrivateObjects(objectsDir, tip, base);
  return walked === null ? null : packPrivateObjects(walked);
}

/**
 * The objects reachable from `tip` that the private directory holds, read and re-hashed, when their commits
 * all descend from `base` inside it; null when git has to do it (see the module comment).
 * @example walkPrivateObjects(join(gitDir, 'objects'), tip, base)?.commitCount // 1
 */
export function walkPrivateObjects(objectsDir: string, tip: string, base: string): PrivateObjects | null {
  try {
    return walk(objectsDir, tip, base);
  } catch {
    return null; // anything odd (a corrupt or oversized object, a planted file): git's own import decides
  }
}

function walk(objectsDir: string, tip: string, base: string): PrivateObjects | null {
  const present = /^[0-9a-f]{40}$/.test(tip) ? privateIds(objectsDir) : null;
  if (present === null) return null;
  const budget = { bytes: MAX_BYTES };
  const found = new Map<string, LooseObject>();
  const todo: Array<{ id: string; commit: boolean }> = [{ id: tip, commit: true }];
  let commitCount = 0;
  let reachesBase = false;
  let tipTree = '';
  while (todo.length > 0) {
    const { id, commit } = todo.pop() as { id: string; commit: boolean };
    if (found.has(id)) continue;
    if (commit && id === base) {
      reachesBase = true;
      continue;
    }
    const obj = present.has(id) ? readLoose(objectsDir, id, budget) : null;
    if (obj === null) {
      if (commit) return null; // history that leaves the private objects elsewhere than at the base: ask git
      continue; // a tree or blob of the shared store
    }
    if (commit !== (obj.type === 'commit') || found.size >= MAX_OBJECTS) return null;
    found.set(id, obj);
    if (obj.type === 'commit') {
      const links = commitLinks(obj.body);
      if (links === null) return null;
      commitCount++;
      if (id === tip) tipTree = links.tree;
      todo.push({ id: links.tree, commit: false }, ...links.parents.map((p) => ({ id: p, commit: true })));
    } else if (obj.type === 'tree') {
      for (const child of treeLinks(obj.body)) todo.push({ id: child, commit: false });
    }
  }
  if (!reachesBase || tipTree === '') return null;
  const blobs = new Map<string, Buffer>();
  for (const [id, obj] of found) if (obj.type === 'blob') blobs.set(id, obj.body);
  return { objects: found, commitCount, tipTree, blobs };
}

/**
 * The walked objects as a version-2 pack (undeltified), with its trailing checksum.
 * @example packPrivateObjects(walked).pack.subarray(0, 4).toString() === 'PACK'
 */
export function packPrivateObjects(w: PrivateObjects): PrivatePack {
  const found = w.objects;
  const head = Buffer.alloc(12);
  head.write('PACK', 0, 'latin1');
  head.writeUInt32BE(2, 4);
  head.writeUInt32BE(found.size, 8);
  const parts: Buffer[] = [head];
  for (const obj of found.values()) parts.push(entryHeader(obj.type, obj.body.length), deflateSync(obj.body));
  const body = Buffer.concat(parts);
  return { ...w, pack: Buffer.concat([body, createHash('sha1').update(body).digest()]), objectCount: found.size };
}
