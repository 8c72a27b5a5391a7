/**
 * Reads the blobs search indexes, cheapest source first. A clean checkout holds most of HEAD's blobs, so the
 * work-tree file at one of a blob's paths is tried first and used only when its bytes hash to the blob id
 * (one read and one hash: no inflating, no process); the rest through the reader the prompt shares
 * (git/committed-read.ts: the loose object, checked against its id, else `cat-file --batch` in sized
 * batches). Whatever the source, the bytes indexed are exactly the blob's.
 */
import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import { closeSync, constants, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { readCommittedBlobs } from '../git/committed-read.js';
import { formatOfId } from '../git/object-format.js';
import type { GitRunner } from '../git/runner.js';
import type { BlobInput } from './store.js';
import { SEARCH_LIMITS } from './types.js';

/** Where search reads a repository. */
export interface RepoRef {
  git: GitRunner;
  memoryDir: string;
}

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
  if (rest.length === 0) return out;
  const limits = { maxBytes: SEARCH_LIMITS.maxFileBytes, sizes: known };
  const blobs = await readCommittedBlobs(repo.git, repo.memoryDir, rest, limits);
  for (const oid of rest) {
    const bytes = blobs.get(oid);
    out.push({ oid, bytes: bytes === undefined ? null : indexable(bytes) });
  }
  return out;
}
