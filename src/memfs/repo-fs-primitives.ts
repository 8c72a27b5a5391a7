/**
 * The low-level pieces RepoFs (repo-fs.ts) is built from: the open flags, whether /proc/self/fd can name an
 * opened directory, path splitting, what an entry is, the bounded read loop and a quiet unlink. Apart so
 * repo-fs.ts holds only the race-safe class.
 */
import { constants, existsSync, readSync, unlinkSync, type Stats } from 'node:fs';
import { fsError } from './fs-errors.js';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
// O_NONBLOCK: opening a FIFO planted in the work tree must not hang the writer under the lease.
export const OPEN_DIR = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
export const OPEN_READ = O_RDONLY | O_NOFOLLOW | O_NONBLOCK;
export const CREATE_TEMP = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW;

let procFd: boolean | undefined;
/** Whether /proc/self/fd can name an opened directory (Linux); asked once per process. */
export function hasProcFd(): boolean {
  procFd ??= process.platform === 'linux' && existsSync('/proc/self/fd');
  return procFd;
}

export type EntryKind = 'file' | 'dir' | 'link' | 'other';

/** An existing entry, as lstat sees it. */
export interface EntryInfo {
  kind: EntryKind;
  /** Permission bits (e.g. 0o755). */
  mode: number;
  size: number;
}

/** The parent ('' = the root) and the last component of a repo-relative path. */
export const parentOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
export const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
/** What an entry is, from lstat or a directory listing (a link is never followed). */
export const kindOf = (st: Pick<Stats, 'isSymbolicLink' | 'isDirectory' | 'isFile'>): EntryKind =>
  st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';

/** The bytes of open file `fd`, to its end or `limit`, whichever comes first. */
export function readAll(fd: number, expected: number, limit: number, rel: string): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    // One read of the expected size (+1 to see the end), then 64 KiB at a time if the file grew.
    const chunk = Buffer.allocUnsafe(Math.min(limit - total, Math.max(expected - total + 1, 65_536)));
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      throw fsError(err, rel);
    }
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** Removes `path`; already gone is fine (a failed write's temp file). */
export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
