/**
 * Writes an etc view (etc-view.ts plans it) into a fresh private directory, and tells whether a sandbox still
 * uses one. A copy is taken only from the file the plan looked at (same device, inode, size and times), read
 * through a descriptor that follows no link and never blocks, capped in size, and written with exclusive
 * creation inside a directory nobody else can have touched (a fresh `mkdtemp` in the private runtime dir).
 */
import {
  chmodSync, closeSync, constants as fsConstants, fchmodSync, fstatSync, futimesSync, lstatSync, mkdirSync, mkdtempSync,
  openSync, readFileSync, readSync, rmSync, symlinkSync, writeSync, type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchPrefix } from '../process/runtime-dir.js';

/** The scratch kind of a view directory (`etcview-<pidns>-<pid>-XXXXXX`, swept once its process is dead). */
export const ETC_VIEW_KIND = 'etcview';

/** What a view holds at a path relative to its root: a copy, an empty mount point, or a link. */
export type EtcViewEntry =
  | { rel: string; kind: 'copy'; from: string; stamp: string }
  | { rel: string; kind: 'dir' | 'file' }
  | { rel: string; kind: 'link'; target: string };

/** A written view: its directory, and the copy bwrap's init locks (`rel`) with its id as /proc/locks names it. */
export interface WrittenView {
  dir: string;
  lock: { rel: string; id: string };
}

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_WRONLY, O_CREAT, O_EXCL } = fsConstants;

/**
 * What the freshness check compares: a regular file's identity, size, times, and the bits that decide who may
 * read it (an edit, a replacement or a chmod changes one of them).
 * @example stampOf(lstatSync('/etc/passwd')) // '64768:1234:1340:1733…:1733…:33188:0'
 */
export function stampOf(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}:${st.uid}`;
}

/** Up to `max + 1` bytes (one more than the file should hold: a file that grew shows it). */
function readCapped(fd: number, max: number): Buffer {
  const buf = Buffer.allocUnsafe(max + 1);
  let n = 0;
  for (let got = -1; got !== 0 && n <= max; n += got) got = readSync(fd, buf, n, buf.length - n, n);
  return buf.subarray(0, n);
}

function writeAll(fd: number, data: Buffer): void {
  for (let off = 0; off < data.length; ) off += writeSync(fd, data, off, data.length - off);
}

/** Copies `from` to the new file `to` if it is still the file stamped `stamp`; throws otherwise. */
function copyStamped(from: string, to: string, stamp: string, max: number): void {
  const src = openSync(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  try {
    const st = fstatSync(src);
    if (!st.isFile() || stampOf(st) !== stamp || st.size > max) throw new Error(`${from} changed`);
    const data = readCapped(src, st.size);
    // Rewritten in place while read: the copy could mix versions, so give up (the next launch plans afresh).
    if (data.length !== st.size || stampOf(fstatSync(src)) !== stamp) throw new Error(`${from} changed while copied`);
    const dst = openSync(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o400);
    try {
      writeAll(dst, data);
      // Readable (it was, or it would not be copied), never writable, executable where the source is.
      fchmodSync(dst, 0o444 | (st.mode & 0o111));
      futimesSync(dst, st.atime, st.mtime);
    } finally {
      closeSync(dst);
    }
  } finally {
    closeSync(src);
  }
}

function makeEntry(dir: string, e: EtcViewEntry, max: number): void {
  const to = join(dir, e.rel);
  if (e.kind === 'copy') copyStamped(e.from, to, e.stamp, max);
  else if (e.kind === 'link') symlinkSync(e.target, to);
  else if (e.kind === 'dir') mkdirSync(to, { mode: 0o755 });
  else closeSync(openSync(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o444));
}

/** The directories a view needs: its root, each entry's parents, and its mount points that are directories. */
function directoriesOf(entries: readonly EtcViewEntry[]): string[] {
  const dirs = new Set<string>(['.']);
  for (const e of entries) {
    if (e.kind === 'dir') dirs.add(e.rel);
    for (let d = dirname(e.rel); d !== '.'; d = dirname(d)) dirs.add(d);
  }
  return [...dirs];
}

/**
 * Writes `entries` (no entry inside another one: etc-view.ts checks) into a new directory under `parent`;
 * throws, leaving nothing behind, when a source changed since it was stamped or anything else fails.
 * @example writeView('/run/user/1000/gitmem-1000', [{ rel: 'passwd', kind: 'copy', from: '/etc/passwd', stamp }], 1 << 20)
 */
export function writeView(parent: string, entries: readonly EtcViewEntry[], max: number): WrittenView {
  const dir = mkdtempSync(join(parent, scratchPrefix(ETC_VIEW_KIND)));
  try {
    const made = new Set(['.']);
    for (const e of entries) {
      const up = dirname(e.rel);
      if (!made.has(up)) mkdirSync(join(dir, up), { recursive: true, mode: 0o755 });
      made.add(up);
      makeEntry(dir, e, max);
    }
    // As bwrap makes the directories it needs (whatever the umask); the parent dir keeps the view private.
    for (const d of directoriesOf(entries)) chmodSync(join(dir, d), 0o755);
    const first = entries.find((e) => e.kind === 'copy');
    if (first === undefined) throw new Error('an etc view needs a copied file');
    return { dir, lock: { rel: first.rel, id: lockId(lstatSync(join(dir, first.rel))) } };
  } catch (err) {
    removeView(dir);
    throw err;
  }
}

/**
 * A file's device and inode as /proc/locks prints them (`maj:min:ino`, the numbers of the device in hex).
 * @example lockId(lstatSync(path)) // 'fe:00:2148115'
 */
export function lockId(st: Stats): string {
  // glibc's dev_t layout (what Node reports): the minor's low byte, the major's low 12 bits, then the high parts.
  const dev = BigInt(st.dev);
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  const hex = (n: bigint): string => n.toString(16).padStart(2, '0');
  return `${hex(major)}:${hex(minor)}:${st.ino}`;
}

/**
 * The files some process holds a lock on (ids as {@link lockId}); undefined when /proc/locks cannot be read
 * (then every view counts as in use).
 */
export function lockedFiles(): Set<string> | undefined {
  try {
    const ids = readFileSync('/proc/locks', 'utf8').matchAll(/\s([0-9a-f]+:[0-9a-f]+:\d+)\s/g);
    return new Set([...ids].map((m) => m[1] as string));
  } catch {
    return undefined;
  }
}

/** Removes a view directory (best effort: a leftover is swept once this process is gone). */
export function removeView(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true });
  } catch {
    // housekeeping only
  }
}
