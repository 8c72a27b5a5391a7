/**
 * Reads a git index file (versions 2 and 3) without git, for a hook that compares a writer's staged index with
 * its base: each entry's path, mode and blob id, in the index's own (sorted) order. The file may be hostile (a
 * confined writer can write it): it is read once, bounded, and every field is checked; anything this reader
 * does not handle — version 4, a split or sparse index, a conflict stage, an intent-to-add entry, paths out of
 * order — answers null and the caller asks git. Stat data and the trailing checksum are not looked at (git
 * refuses a corrupt index before any hook runs). Pure but for {@link readIndexFile}.
 */
import { readLooseFile } from './loose-object.js';

/** The entries of an index: `paths[i]` with `modes[i]` (git's octal spelling) and blob id `ids[i]`. */
export interface IndexEntries {
  /** Each path's bytes as a latin1 string: one character per byte, so strings sort as git sorts the bytes. */
  paths: string[];
  modes: string[];
  /** The raw ids, 20 bytes each, entry after entry (hex is made only for the entries that differ). */
  ids: Buffer;
}

/** Past this an index is left to git (~1 MiB holds ~12,000 entries). */
export const MAX_INDEX_BYTES = 64 * 1024 * 1024;

const ENTRY_FIXED = 62;
const EXTENDED = 0x4000;
const INTENT_TO_ADD = 0x2000;
const MODES: ReadonlyMap<number, string> = new Map([
  [0o100644, '100644'],
  [0o100755, '100755'],
  [0o120000, '120000'],
  [0o160000, '160000'],
]);
// Extensions that change which entries the file holds: a split index's link, a sparse index's directories.
const REFUSED_EXTENSIONS = new Set(['link', 'sdir']);

/**
 * Parses an index file's bytes; null when it is outside what this reader handles (see the module comment).
 * @example parseIndex(readFileSync('.git/index'))?.paths // ['a.md', 'notes/b.md']
 */
export function parseIndex(buf: Buffer): IndexEntries | null {
  if (buf.length < 12 + 20 || buf.toString('latin1', 0, 4) !== 'DIRC') return null;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  if ((version !== 2 && version !== 3) || count > buf.length / ENTRY_FIXED) return null;
  const out: IndexEntries = { paths: new Array<string>(count), modes: new Array<string>(count), ids: Buffer.allocUnsafe(count * 20) };
  const end = buf.length - 20;
  let pos = 12;
  let prev: Buffer | undefined;
  for (let i = 0; i < count; i++) {
    if (pos + ENTRY_FIXED > end) return null;
    const mode = MODES.get(buf.readUInt32BE(pos + 24));
    const flags = buf.readUInt16BE(pos + 60);
    const extended = (flags & EXTENDED) !== 0;
    if (mode === undefined || (flags >> 12) & 3 || (extended && version < 3)) return null;
    if (extended && buf.readUInt16BE(pos + 62) & INTENT_TO_ADD) return null;
    const nameStart = pos + ENTRY_FIXED + (extended ? 2 : 0);
    const nameEnd = buf.indexOf(0, nameStart);
    if (nameEnd < 0 || nameEnd >= end || nameEnd === nameStart) return null;
    const name = buf.subarray(nameStart, nameEnd);
    if ((flags & 0xfff) !== Math.min(name.length, 0xfff) || (prev !== undefined && Buffer.compare(prev, name) >= 0)) return null;
    prev = name;
    out.paths[i] = name.toString('latin1');
    out.modes[i] = mode;
    buf.copy(out.ids, i * 20, pos + 40, pos + 60);
    pos += (nameEnd - pos + 8) & ~7;
  }
  return extensionsAllowed(buf, pos, end) ? out : null;
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
