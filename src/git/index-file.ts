/**
 * Reads a git index file (versions 2 and 3) without git, for a hook that compares a writer's staged index with
 * its base: each entry's path, mode and blob id, in the index's own (sorted) order. The file may be hostile (a
 * confined writer can write it): it is read once, bounded, and every field is checked; anything this reader
 * does not handle — version 4, a split or sparse index, a conflict stage, an intent-to-add entry, paths out of
 * order — answers null and the caller asks git. Stat data and the trailing checksum are not looked at (git
 * refuses a corrupt index before any hook runs). Pure but for {@link readIndexFile}.
 */
import { readLooseFile } from './loose-object.js';

/**
 * The entries of an index, as offsets into its bytes (nothing is decoded until asked: a walk over two indexes
 * of 10,000 entries allocates nothing per entry): entry `i`'s name is `buf[nameStart[i], nameEnd[i])`, its
 * blob id `buf[idAt[i], idAt[i] + 20)`, its mode `INDEX_MODES[mode[i]]`.
 */
export interface IndexEntries {
  buf: Buffer;
  count: number;
  /** Where each entry starts, and (last) where the entries end: runs of entries compare as byte ranges. */
  start: Int32Array;
  nameStart: Int32Array;
  nameEnd: Int32Array;
  idAt: Int32Array;
  mode: Uint8Array;
}

/** Past this an index is left to git (~1 MiB holds ~12,000 entries). */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/** The modes an entry may have, as git spells them (the index of each is what `IndexEntries.mode` holds). */
export const INDEX_MODES = ['100644', '100755', '120000', '160000'] as const;

const ENTRY_FIXED = 62;
const EXTENDED = 0x4000;
const INTENT_TO_ADD = 0x2000;
const MODE_CODES: ReadonlyMap<number, number> = new Map([
  [0o100644, 0],
  [0o100755, 1],
  [0o120000, 2],
  [0o160000, 3],
]);
// Extensions that change which entries the file holds: a split index's link, a sparse index's directories.
const REFUSED_EXTENSIONS = new Set(['link', 'sdir']);

/**
 * Compares `a[as, ae)` with `b[bs, be)` bytewise (negative, 0, positive), in plain JS: names are short, and a
 * native call per comparison costs more than the loop.
 */
export function compareBytes(a: Buffer, as: number, ae: number, b: Buffer, bs: number, be: number): number {
  const n = Math.min(ae - as, be - bs);
  for (let k = 0; k < n; k++) {
    const d = (a[as + k] as number) - (b[bs + k] as number);
    if (d !== 0) return d;
  }
  return ae - as - (be - bs);
}

/** Entry `i`'s path (UTF-8, as git prints it). */
export function entryPath(e: IndexEntries, i: number): string {
  return e.buf.toString('utf8', e.nameStart[i], e.nameEnd[i]);
}

/**
 * Parses an index file's bytes; null when it is outside what this reader handles (see the module comment).
 * @example const e = parseIndex(readFileSync('.git/index')); e && entryPath(e, 0) // 'a.md'
 */
export function parseIndex(buf: Buffer): IndexEntries | null {
  if (buf.length < 12 + 20 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  if ((version !== 2 && version !== 3) || count > buf.length / ENTRY_FIXED) return null;
  const e: IndexEntries = { buf, count, start: new Int32Array(count + 1), nameStart: new Int32Array(count), nameEnd: new Int32Array(count), idAt: new Int32Array(count), mode: new Uint8Array(count) };
  const end = buf.length - 20;
  let pos = 12;
  for (let i = 0; i < count; i++) {
    if (pos + ENTRY_FIXED > end) return null;
    const mode = MODE_CODES.get(buf.readUInt32BE(pos + 24));
    const flags = buf.readUInt16BE(pos + 60);
    const extended = (flags & EXTENDED) !== 0;
    if (mode === undefined || (flags >> 12) & 3 || (extended && version < 3)) return null;
    if (extended && buf.readUInt16BE(pos + 62) & INTENT_TO_ADD) return null;
    const start = pos + ENTRY_FIXED + (extended ? 2 : 0);
    const length = flags & 0xfff;
    const stop = length < 0xfff ? start + length : buf.indexOf(0, start + 0xfff);
    // One NUL right after the name and none in it; names in strictly increasing order (so stage 0 only, once).
    if (length === 0 || stop < 0 || stop >= end || buf[stop] !== 0 || buf.indexOf(0, start) !== stop) return null;
    if (i > 0 && compareBytes(buf, e.nameStart[i - 1] as number, e.nameEnd[i - 1] as number, buf, start, stop) >= 0) return null;
    e.start[i] = pos;
    e.nameStart[i] = start;
    e.nameEnd[i] = stop;
    e.idAt[i] = pos + 40;
    e.mode[i] = mode;
    pos += (stop - pos + 8) & ~7;
  }
  e.start[count] = pos;
  return extensionsAllowed(buf, pos, end) ? e : null;
}

/** True when the extensions after the entries are well formed and none changes which entries the file holds. */
function extensionsAllowed(buf: Buffer, pos: number, end: number): boolean {
  while (pos < end) {
    if (pos + 8 > end) return false;
    const sig = buf.toString('latin1', pos, pos + 4);
    const size = buf.readUInt32BE(pos + 4);
    if (REFUSED_EXTENSIONS.has(sig) || pos + 8 + size > end) return false;
    pos += 8 + size;
  }
  return pos === end;
}

/**
 * Reads and parses the index at `path`: a plain file of bounded size, never through a link; null when it
 * cannot be read that way or parsed (see {@link parseIndex}).
 * @example readIndexFile(join(gitDir, 'index'))
 */
export function readIndexFile(path: string): IndexEntries | null {
  try {
    const buf = readLooseFile(path, MAX_INDEX_BYTES);
    return buf === null ? null : parseIndex(buf);
  } catch {
    return null; // a link, a FIFO, too large: git decides
  }
}
