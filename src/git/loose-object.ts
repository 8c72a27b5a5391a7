/**
 * Reading loose objects without git, safely on a directory anyone may have filled (a confined writer's private
 * store): only a plain file of bounded size is read (never through a link, never a FIFO or device), and an
 * object counts only when its bytes hash to its name. Callers fall back to git for anything else. Reading one
 * is a fast path (`objectReads` in fast-paths.ts): with the switch off {@link readLooseObject} never answers.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type * as Zlib from 'node:zlib';
import { fastPath } from '../fast-paths.js';
import { formatOfId } from './object-format.js';
import { objectId } from './objects.js';

/** Past this a loose object is left to git (inflated size; its file is smaller still). */
const MAX_LOOSE_BYTES = 64 * 1024 * 1024;

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = constants;

/**
 * A loose object file's bytes (or another small file a confined writer could have planted: its index, its
 * HEAD): null when there is no such file; throws when there is one that cannot be used (a link, not a regular
 * file, larger than `max`).
 * @example readLooseFile('/m/.git/objects/4b/825d…', 1 << 20) // Buffer (still deflated)
 */
export function readLooseFile(path: string, max: number): Buffer | null {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NONBLOCK | (O_NOFOLLOW ?? 0));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`unusable object file ${path}`, { cause: err });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) throw new Error(`unusable object file ${path}`);
    const buf = Buffer.allocUnsafe(st.size);
    return buf.subarray(0, readSync(fd, buf, 0, st.size, 0));
  } finally {
    closeSync(fd);
  }
}

/**
 * The object a loose file's deflated bytes hold, checked against its id (type, size, hash); throws when they
 * do not hold it or inflate past `max`.
 * @example verifyLoose(readLooseFile(path, max), id, max).type === 'tree'
 */
export function verifyLoose(raw: Buffer, id: string, max: number): { type: 'blob' | 'tree' | 'commit'; data: Buffer } {
  const format = formatOfId(id);
  if (format === undefined) throw new Error(`${JSON.stringify(id)} is not an object id`);
  const { inflateSync } = process.getBuiltinModule('node:zlib') as typeof Zlib;
  const all = inflateSync(raw, { maxOutputLength: max + 64 });
  const nul = all.indexOf(0);
  const header = /^(blob|tree|commit) (\d+)$/.exec(all.toString('latin1', 0, Math.max(0, nul)));
  const data = all.subarray(nul + 1);
  if (nul < 0 || header === null || Number(header[2]) !== data.length)
    throw new Error(`object ${id} is not a commit, tree or blob`);
  const type = header[1] as 'blob' | 'tree' | 'commit';
  if (objectId(type, data, format) !== id) throw new Error(`object ${id} does not match its name`);
  return { type, data };
}

/**
 * Reads a loose object and checks its id; undefined when it is not stored loose (packed, absent), does not
 * verify, or is not a plain file of bounded size — callers then ask git. Lets the read side (the committed
 * reader: prompt, search, `read`) read recent commits without starting a process.
 * @example readLooseObject('/m/.git/objects', head)?.type === 'commit'
 */
export function readLooseObject(
  objectsDir: string,
  id: string,
  maxBytes = MAX_LOOSE_BYTES,
): { type: string; data: Buffer } | undefined {
  return fastPath('objectReads', () => looseObjectAt(objectsDir, id, maxBytes));
}

/** {@link readLooseObject} outside the seam: for the loose tree walk (loose-tree.ts), entered through it already. */
export function looseObjectAt(
  objectsDir: string,
  id: string,
  maxBytes = MAX_LOOSE_BYTES,
): { type: string; data: Buffer } | undefined {
  if (formatOfId(id) === undefined) return undefined;
  try {
    const raw = readLooseFile(join(objectsDir, id.slice(0, 2), id.slice(2)), maxBytes);
    return raw === null ? undefined : verifyLoose(raw, id, maxBytes);
  } catch {
    return undefined;
  }
}
