/**
 * Race-safe file operations inside the memory repository: no path is ever resolved through a symbolic
 * link, and a link swapped in at any moment is refused instead of followed.
 *
 * Each directory is opened once, component by component, with O_DIRECTORY | O_NOFOLLOW relative to its
 * parent, and every later operation names its target relative to that open directory. Node has no openat,
 * so on Linux the parent is named through `/proc/self/fd/<fd>/<name>`: the kernel resolves the magic link
 * to the directory already opened (whatever its name is now), so only `<name>` is looked up, never
 * following a final link (O_NOFOLLOW, mkdir, rename, unlink and rmdir do not follow it). A file is written
 * to a fresh temp file (O_CREAT | O_EXCL | O_NOFOLLOW) in the verified directory and renamed within it.
 * Without /proc (macOS, BSD) each operation re-checks the chain with lstat before and after, comparing it
 * to the directories opened first: a swap is then refused, but a swap lasting only between the two checks
 * cannot be ruled out there.
 *
 * One RepoFs serves one call (plan, write, rollback) and must be closed; the directories it opened stay
 * the ones it writes to, so a rollback restores the very directories the write changed.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { fsyncFd } from '../git/durable.js';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { errnoOf, fsError, linkRefusal } from './fs-errors.js';
import {
  CREATE_TEMP,
  hasProcFd,
  kindOf,
  nameOf,
  OPEN_DIR,
  OPEN_READ,
  parentOf,
  readAll,
  tryUnlink,
  type EntryInfo,
  type EntryKind,
} from './repo-fs-primitives.js';

export type { EntryInfo, EntryKind } from './repo-fs-primitives.js';

const { O_RDONLY, O_DIRECTORY } = constants;

/** Prefix of the temp files a write creates next to its target (swept by crash recovery). */
export const TEMP_PREFIX = '.gitmem-tmp-';
let tempCounter = 0;

/**
 * Race-safe access to one repository for the length of one call.
 * @example const fs = new RepoFs('/m'); try { fs.writeFile('notes/a.md', Buffer.from('x')) } finally { fs.close() }
 */
export class RepoFs {
  private readonly dirs = new Map<string, { fd: number; dev: number; ino: number }>();
  private readonly proc: boolean;
  /** `procFd: false` forces the lstat-checking fallback (tests run it on Linux too). */
  constructor(
    readonly root: string,
    opts: { procFd?: boolean } = {},
  ) {
    this.proc = opts.procFd ?? hasProcFd();
  }

  /** Closes every directory it opened. */
  close(): void {
    for (const d of this.dirs.values()) {
      try {
        closeSync(d.fd);
      } catch {
        // already closed
      }
    }
    this.dirs.clear();
  }

  /** The name to hand a syscall for `name` inside the opened directory `dir`. */
  private at(dir: string, name: string): string {
    const d = this.dirs.get(dir);
    if (d === undefined) throw new MemoryError('INTERNAL', `directory ${dir || '.'} was not opened`);
    if (this.proc) return `/proc/self/fd/${d.fd}/${name}`;
    this.recheck(dir);
    return join(this.root, dir, name);
  }

  /** Without /proc: every component of `dir` must still be the directory opened first (not a link). */
  private recheck(dir: string): void {
    let rel = '';
    for (const part of dir === '' ? [] : dir.split('/')) {
      rel = rel === '' ? part : `${rel}/${part}`;
      const st = lstatSync(join(this.root, rel), { throwIfNoEntry: false });
      const opened = this.dirs.get(rel);
      if (!st || st.isSymbolicLink() || !opened || st.dev !== opened.dev || st.ino !== opened.ino)
        throw linkRefusal(rel);
    }
  }

  /**
   * Opens repo-relative directory `rel` ('' = the root) without following links; null when it (or a
   * parent) does not exist and `create` is false. A link or a file on the way is a typed refusal.
   */
  dir(rel: string, create = false): number | null {
    const known = this.dirs.get(rel);
    if (known) return known.fd;
    if (rel === '') return this.remember('', openSync(this.root, O_RDONLY | O_DIRECTORY));
    const parent = parentOf(rel);
    if (this.dir(parent, create) === null) return null;
    let fd = this.openChildDir(parent, rel);
    if (fd === null && create) {
      try {
        mkdirSync(this.at(parent, nameOf(rel)));
      } catch (err) {
        if (errnoOf(err) !== 'EEXIST') throw fsError(err, rel);
      }
      fd = this.openChildDir(parent, rel);
      if (fd === null)
        throw new MemoryError('IO_ERROR', `${rel} vanished while it was being created`, { data: { path: rel } });
    }
    return fd === null ? null : this.remember(rel, fd);
  }

  private remember(rel: string, fd: number): number {
    const st = fstatSync(fd);
    this.dirs.set(rel, { fd, dev: st.dev, ino: st.ino });
    return fd;
  }

  private openChildDir(parent: string, rel: string): number | null {
    const path = this.at(parent, nameOf(rel));
    try {
      return openSync(path, OPEN_DIR);
    } catch (err) {
      const errno = errnoOf(err);
      if (errno === 'ENOENT') return null;
      if (errno === 'ELOOP' || errno === 'ENOTDIR') {
        const st = lstatSync(path, { throwIfNoEntry: false });
        if (!st) return null;
        if (st.isSymbolicLink()) throw linkRefusal(rel);
        throw new MemoryError('INVALID_PATH', `${rel} is a file, not a directory`, { data: { path: rel } });
      }
      throw fsError(err, rel);
    }
  }

  /** What is at `rel` (never following a link); null when absent. */
  info(rel: string): EntryInfo | null {
    const parent = parentOf(rel);
    if (this.dir(parent) === null) return null;
    let st: Stats | undefined;
    try {
      st = lstatSync(this.at(parent, nameOf(rel)), { throwIfNoEntry: false });
    } catch (err) {
      throw fsError(err, rel);
    }
    return st ? { kind: kindOf(st), mode: st.mode & 0o7777, size: st.size } : null;
  }

  /**
   * The bytes of regular file `rel` (at most `limit` of them when given); null when absent. A link, a
   * directory or a device is refused.
   */
  readFile(rel: string, limit = Infinity): Buffer | null {
    const parent = parentOf(rel);
    if (this.dir(parent) === null) return null;
    let fd: number;
    try {
      fd = openSync(this.at(parent, nameOf(rel)), OPEN_READ);
    } catch (err) {
      if (errnoOf(err) === 'ENOENT') return null;
      if (errnoOf(err) === 'ELOOP') throw linkRefusal(rel);
      throw fsError(err, rel);
    }
    try {
      const st = fstatSync(fd);
      if (st.isDirectory())
        throw new MemoryError('INVALID_PATH', `${rel} is a directory, not a memory file`, { data: { path: rel } });
      if (!st.isFile()) throw new MemoryError('INVALID_PATH', `${rel} is not a regular file`, { data: { path: rel } });
      return readAll(fd, Math.min(st.size, limit), limit, rel);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Replaces (or creates) `rel` with `data` atomically: temp file in the verified directory, then a rename
   * within it. `mode` (permission bits) is set exactly when given; otherwise the umask decides.
   */
  writeFile(rel: string, data: Buffer, mode?: number, sync = false): void {
    const parent = parentOf(rel);
    this.dir(parent, true);
    const temp = this.at(parent, `${TEMP_PREFIX}${process.pid}-${++tempCounter}`);
    let fd: number;
    try {
      fd = openSync(temp, CREATE_TEMP, mode ?? 0o666);
    } catch (err) {
      throw fsError(err, rel);
    }
    try {
      try {
        for (let off = 0; off < data.length;) off += writeSync(fd, data, off);
        if (mode !== undefined) fchmodSync(fd, mode);
        if (sync) fsyncSync(fd); // on disk before the rename makes it the file
      } finally {
        closeSync(fd);
      }
      renameSync(temp, this.at(parent, nameOf(rel)));
    } catch (err) {
      tryUnlink(temp);
      throw fsError(err, rel);
    }
  }

  /**
   * Replaces (or creates) `rel` with the finished file `src` (outside the work tree, on the same file
   * system) in one rename into the verified directory. Errors are left as the system's (EXDEV: another file
   * system), for the caller to fall back on writeFile.
   */
  moveIn(rel: string, src: string): void {
    const parent = parentOf(rel);
    this.dir(parent, true);
    renameSync(src, this.at(parent, nameOf(rel)));
  }

  /**
   * Flushes the entries of every directory on the way to each of `rels` (renames, unlinks, new and removed
   * directories), through the directories this view opened; one fsync per directory, all at once.
   */
  async syncDirsOf(rels: readonly string[]): Promise<void> {
    const dirs = new Set<string>(['']);
    for (const rel of rels) {
      for (let d = parentOf(rel); d !== ''; d = parentOf(d)) dirs.add(d);
    }
    const fds = [...dirs].flatMap((d) => {
      const known = this.dirs.get(d);
      return known ? [known.fd] : [];
    });
    await Promise.all(fds.map((fd) => fsyncFd(fd))); // at once: the disk overlaps them
  }

  /** Removes file `rel` (a link is removed as a link, never followed); absent is fine. */
  unlink(rel: string): void {
    const parent = parentOf(rel);
    if (this.dir(parent) === null) return;
    try {
      unlinkSync(this.at(parent, nameOf(rel)));
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT') throw fsError(err, rel);
    }
  }

  /** Removes `dir` and then each parent while they are empty (stops at the first that is not, or the root). */
  pruneEmptyDirs(dir: string): void {
    for (let d = dir; d !== ''; d = parentOf(d)) {
      if (this.dir(parentOf(d)) === null) return;
      try {
        rmdirSync(this.at(parentOf(d), nameOf(d)));
      } catch {
        return; // not empty, not a directory, or already gone: stop climbing
      }
      const opened = this.dirs.get(d);
      if (opened) closeSync(opened.fd);
      this.dirs.delete(d);
    }
  }

  /** The entries of directory `rel` (names as raw bytes, links not followed); null when absent. */
  list(rel: string): Array<{ name: Buffer; kind: EntryKind }> | null {
    const fd = this.dir(rel);
    if (fd === null) return null;
    const path = this.proc ? `/proc/self/fd/${fd}` : (this.recheck(rel), join(this.root, rel));
    try {
      return readdirSync(path, { withFileTypes: true, encoding: 'buffer' }).map((e) => ({
        name: e.name,
        kind: kindOf(e),
      }));
    } catch (err) {
      throw fsError(err, rel);
    }
  }
}
