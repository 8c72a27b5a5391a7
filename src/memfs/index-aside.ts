/**
 * A write's index update made aside, so it runs while the clean check still does instead of after it: the
 * index is hard-linked into a private directory (the same file: its timestamp, which git's racy-entry rule
 * compares with every file's, stays the index's own; held open, so its inode number stays taken) and
 * `update-index --index-info` runs on the link, where git writes its result as a new file. The publish takes
 * git's own `index.lock` (created exclusively, as git takes it) for an instant, renames the result over the
 * index only if the index is still that very file with the same bytes (size and trailing checksum), and lets
 * go. Anything else — another git holding the lock, a `git add` in between, an index that is not a plain
 * file, a file system that cannot link — leaves the index to be updated in place, exactly as without this. No
 * lock is held while the check runs, so the user's git is never kept waiting. A killed writer's directory
 * goes with the lease takeover (git/stale-locks.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { updateIndexInfoOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { ASIDE_INDEX_PREFIX } from '../git/stale-locks.js';

export interface IndexAside {
  /** Settles once the private link holds the write's entries (rejects with git's error). */
  ready: Promise<void>;
  /** Puts it in place when the index is still the one it was made from; false when the caller must update in place. */
  publish(): boolean;
  /** Removes the private directory (once `ready` settled); safe to call more than once, never throws. */
  release(): Promise<void>;
}

/** An index file's size and trailing checksum (its last 64 bytes: any hash git uses fits), or null. */
function fingerprint(fd: number): string | null {
  try {
    const { size } = fstatSync(fd);
    const tail = Buffer.alloc(Math.min(64, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return `${size}:${tail.toString('hex')}`;
  } catch {
    return null;
  }
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // cleanup of the private directory: what is left goes with the next lease takeover
  }
}

/** The index as it was linked: its file (held open, so its inode number cannot be reused) and its bytes' fingerprint. */
interface Source {
  fd: number;
  dev: number;
  ino: number;
  print: string;
}

/** True when `.git/index` is still the very file the aside was made from (git replaces it by rename, never in place). */
function unchanged(index: string, source: Source): boolean {
  const now = lstatSync(index);
  if (!now.isFile() || now.dev !== source.dev || now.ino !== source.ino) return false;
  const fd = openSync(index, 'r');
  try {
    return fingerprint(fd) === source.print; // and no tool rewrote it in place
  } finally {
    closeSync(fd);
  }
}

/** Takes `index.lock` as git does: its identity, or null when another git holds it (or it cannot be made). */
function takeLock(lock: string): { dev: number; ino: number; ctimeMs: number } | null {
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o644);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd);
  } catch {
    quietly(() => rmSync(lock)); // made here a moment ago: nobody else holds it
    return null;
  } finally {
    quietly(() => closeSync(fd));
  }
}

/** Under index.lock for an instant: renames `from` over the index when the index is still `source`. */
function swapUnderLock(gitDir: string, from: string, source: Source): boolean {
  const lock = join(gitDir, 'index.lock');
  const mine = takeLock(lock);
  if (mine === null) return false; // in place, after whoever holds it
  try {
    if (!unchanged(join(gitDir, 'index'), source)) return false;
    renameSync(from, join(gitDir, 'index'));
    return true;
  } catch {
    return false;
  } finally {
    quietly(() => {
      const now = statSync(lock);
      // Ours still (git's own message tells users to remove a lock by hand; another git may hold a new one).
      if (now.dev === mine.dev && now.ino === mine.ino && now.ctimeMs === mine.ctimeMs) rmSync(lock);
    });
  }
}

/** Links the index into a private directory and opens it; null when it cannot (the write then updates in place). */
function linkSource(index: string, dir: string, copy: string): Source | null {
  let fd: number | undefined;
  try {
    if (!lstatSync(index).isFile()) return null; // a link: git's in-place update follows it, the rename would not
    mkdirSync(dir, { mode: 0o700 });
    linkSync(index, copy);
    fd = openSync(copy, 'r');
    const st = fstatSync(fd);
    const print = fingerprint(fd);
    const same = lstatSync(index);
    // A file system that copies instead of linking, or an index replaced meanwhile: not the same file.
    if (print !== null && st.nlink >= 2 && same.dev === st.dev && same.ino === st.ino)
      return { fd, dev: st.dev, ino: st.ino, print };
  } catch {
    // not linked: in place
  }
  if (fd !== undefined) quietly(() => closeSync(fd as number));
  return null;
}

/**
 * Starts the update aside; undefined when it cannot (no index yet, an index that is not a plain file, a file
 * system without hard links): the write then updates the index in place.
 * @example const aside = startIndexAside(git, '/mem', '/mem/.git', entries); …; if (!aside?.publish()) …
 */
export function startIndexAside(
  git: GitRunner,
  memoryDir: string,
  gitDir: string,
  entries: readonly IndexInfoEntry[],
): IndexAside | undefined {
  const index = join(gitDir, 'index');
  // A private directory: if anything removes it meanwhile (a lease takeover's cleanup), git cannot write its
  // result there and the write updates in place, instead of git starting an index from nothing.
  const dir = join(gitDir, `${ASIDE_INDEX_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const copy = join(dir, 'index');
  const source = linkSource(index, dir, copy);
  if (source === null) {
    quietly(() => rmSync(dir, { recursive: true, force: true }));
    return undefined;
  }
  const ready = git.exec(updateIndexInfoOp(entries), { cwd: memoryDir, env: { GIT_INDEX_FILE: copy } });
  ready.catch(() => undefined); // awaited by the publish or by release
  let open = true;
  return {
    ready,
    publish: () => swapUnderLock(gitDir, copy, source),
    release: async () => {
      await ready.catch(() => undefined);
      if (!open) return;
      open = false;
      quietly(() => closeSync(source.fd));
      quietly(() => rmSync(dir, { recursive: true, force: true }));
    },
  };
}
