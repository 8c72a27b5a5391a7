/**
 * Reads the blobs search indexes, cheapest source first. A clean checkout holds most of HEAD's blobs, so the
 * work-tree file at one of a blob's paths is tried first and used only when its bytes hash to the blob id
 * (one read and one hash: no inflating, no process); then the loose object (what gitmem's writes leave,
 * checked against its id too); then git itself (`cat-file --batch`, in sized batches). Whatever the
 * source, the bytes indexed are exactly the blob's.
 */
import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import { closeSync, constants, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { catFileBatchRawOp } from '../git/commands/plumbing.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { formatOfId } from '../git/object-format.js';
import { readLooseObject } from '../git/loose-object.js';
import type { GitOp } from '../git/runner.js';
import type { BlobInput } from './store.js';
import type { RepoRef } from './tree-read.js';
import { SEARCH_LIMITS } from './types.js';

/** The bytes search indexes, or null (too large, NUL bytes, not UTF-8). */
export function indexable(bytes: Buffer): Buffer | null {
  return bytes.length <= SEARCH_LIMITS.maxFileBytes && !bytes.includes(0) && isUtf8(bytes) ? bytes : null;
}

// O_NONBLOCK: a FIFO planted in the work tree never hangs a search; O_NOFOLLOW: a link is not read.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** False for a path that could leave the work tree (`..`, `.`, empty or absolute components). */
function staysInside(path: string): boolean {
  return !path.startsWith('/') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

// Room for git's object header (`blob <size>\0`, at most 18 bytes) before the bytes read.
const HEAD_ROOM = 32;

/** One scratch buffer per read of many files: the header room, the largest indexed file, and one byte to spot a larger one. */
function scratch(): Buffer {
  return Buffer.allocUnsafe(HEAD_ROOM + SEARCH_LIMITS.maxFileBytes + 1);
}

/**
 * The work-tree file at `path` when it is exactly blob `oid`, else undefined (absent, changed, too large,
 * not readable). No stat: whatever the path is (a FIFO, a device, a directory), at most the largest indexed
 * size plus one byte is read without blocking, and only bytes that hash to the blob id are the blob.
 */
function fromWorkTree(
  root: string,
  path: string,
  oid: string,
  size: number | undefined,
  buf: Buffer,
): Buffer | undefined {
  const format = formatOfId(oid);
  if (format === undefined || !staysInside(path)) return undefined;
  let fd: number;
  try {
    fd = openSync(join(root, path), OPEN_FLAGS);
  } catch {
    return undefined;
  }
  try {
    // One read: a regular file fills it up to its end; a short read of anything else fails the hash below.
    const n = readSync(fd, buf, HEAD_ROOM, buf.length - HEAD_ROOM, null);
    if (n > SEARCH_LIMITS.maxFileBytes || (size !== undefined && n !== size)) return undefined;
    // git's object header right before the bytes: one hash over both.
    const header = `blob ${n}\0`;
    buf.write(header, HEAD_ROOM - header.length, 'latin1');
    if (hash(format, buf.subarray(HEAD_ROOM - header.length, HEAD_ROOM + n)) !== oid) return undefined; // an edit, a filter, a race
    return Buffer.from(buf.subarray(HEAD_ROOM, HEAD_ROOM + n));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

// Past this many ids, the object store's fan-out directories are listed once instead of failing one open per
// packed object.
const LIST_LOOSE_ABOVE = 256;

/** The loose object ids among `oids` (a listing of the fan-out directories), or null to try each. */
function looseIds(objectsDir: string, oids: readonly string[]): Set<string> | null {
  if (oids.length <= LIST_LOOSE_ABOVE) return null;
  const out = new Set<string>();
  let fanout: string[];
  try {
    fanout = readdirSync(objectsDir).filter((d) => /^[0-9a-f]{2}$/.test(d));
  } catch {
    return out;
  }
  for (const dir of fanout) {
    try {
      for (const name of readdirSync(join(objectsDir, dir))) out.add(`${dir}${name}`);
    } catch {
      // removed by a concurrent gc: its objects are packed now
    }
  }
  return out;
}

/** `cat-file --batch-check`: each object's size (-1 when missing). */
function sizesOp(ids: readonly string[]): GitOp<number[]> {
  return {
    args: ['cat-file', '--batch-check'],
    input: ids.map((id) => `${id}\n`).join(''),
    parse: (r) =>
      r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (l.endsWith(' missing') ? -1 : Number(l.split(' ')[2]))),
  };
}

// One cat-file call reads at most this much (the runner's output cap is far above it).
const BATCH_BYTES = 24 * 1024 * 1024;

/** Blobs read from git in sized batches; a blob too large or missing is recorded as not indexable. */
async function fromGit(
  repo: RepoRef,
  oids: readonly string[],
  known: ReadonlyMap<string, number> | undefined,
  out: BlobInput[],
): Promise<void> {
  const unsized = oids.filter((oid) => !known?.has(oid));
  const checked = unsized.length > 0 ? await repo.git.exec(sizesOp(unsized), { cwd: repo.memoryDir }) : [];
  const sizes = new Map<string, number>(unsized.map((oid, i): [string, number] => [oid, checked[i] ?? -1]));
  let batch: string[] = [];
  let bytes = 0;
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    const objects = await repo.git.exec(catFileBatchRawOp(batch), { cwd: repo.memoryDir });
    batch.forEach((oid, i) => {
      const o = objects[i];
      out.push({ oid, bytes: o?.type === 'blob' ? indexable(o.data) : null });
    });
    [batch, bytes] = [[], 0];
  };
  for (const oid of oids) {
    const size = known?.get(oid) ?? sizes.get(oid) ?? -1;
    if (size < 0 || size > SEARCH_LIMITS.maxFileBytes) {
      out.push({ oid, bytes: null });
      continue;
    }
    if (bytes + size > BATCH_BYTES) await flush();
    batch.push(oid);
    bytes += size;
  }
  await flush();
}

/**
 * Contents of blobs to index. `pathOf` names one path of each blob in the tree being indexed (its work-tree
 * file is tried first); `known` sizes, when given, skip large blobs unread and save a git call.
 * @example await readBlobs(repo, ['4b82…'], new Map([['4b82…', 'notes/a.md']]))
 */
export async function readBlobs(
  repo: RepoRef,
  oids: readonly string[],
  pathOf: ReadonlyMap<string, string>,
  known?: ReadonlyMap<string, number>,
): Promise<BlobInput[]> {
  const objectsDir = join(resolveGitCommonDir(repo.memoryDir), 'objects');
  const out: BlobInput[] = [];
  const rest: string[] = [];
  const buf = scratch();
  for (const oid of oids) {
    const size = known?.get(oid);
    if (size !== undefined && size > SEARCH_LIMITS.maxFileBytes) {
      out.push({ oid, bytes: null });
      continue;
    }
    const path = pathOf.get(oid);
    const bytes = path === undefined ? undefined : fromWorkTree(repo.memoryDir, path, oid, size, buf);
    if (bytes) out.push({ oid, bytes: indexable(bytes) });
    else rest.push(oid);
  }
  const loose = looseIds(objectsDir, rest);
  const packed: string[] = [];
  for (const oid of rest) {
    const obj = loose === null || loose.has(oid) ? readLooseObject(objectsDir, oid) : undefined;
    if (obj?.type === 'blob') out.push({ oid, bytes: indexable(obj.data) });
    else packed.push(oid);
  }
  await fromGit(repo, packed, known, out);
  return out;
}
