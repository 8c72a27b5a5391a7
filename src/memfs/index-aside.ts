/**
 * A write's index update made aside, so it runs while the clean check still does instead of after it: the
 * index is hard-linked to a private name (the same file: its timestamp, which git's racy-entry rule compares
 * with every file's, stays the index's own) and `update-index --index-info` runs on that name, where git
 * writes its result as a new file. The publish takes git's own `index.lock` (created exclusively, as git
 * takes it) for an instant, renames the result over the index only if the index still holds the very bytes
 * it was made from (its size and trailing checksum), and lets go. Anything else — another git holding the
 * lock, a `git add` in between, an index that is not a plain file — leaves the index to be updated in place,
 * exactly as without this. No lock is held while the check runs, so the user's git is never kept waiting.
 * What a killed writer leaves (its private file and that file's lock) goes with the lease takeover.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, linkSync, lstatSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { updateIndexInfoOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { ASIDE_INDEX_PREFIX } from '../git/stale-locks.js';


export interface IndexAside {
  /** Settles once the private file holds the write's entries (rejects with git's error). */
  ready: Promise<void>;
  /** Puts it in place when the index is still the one it was made from; false when the caller must update in place. */
  publish(): boolean;
  /** Removes the private file (once `ready` settled); safe to call more than once, never throws. */
  release(): Promise<void>;
}

/** An index file's size and trailing checksum (its last 64 bytes: any hash git uses fits), or null. */
function fingerprint(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = fstatSync(fd);
    const tail = Buffer.alloc(Math.min(64, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return `${size}:${tail.toString('hex')}`;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // cleanup of a private file: what is left goes with the next lease takeover
  }
}

/** Under index.lock for an instant: renames `from` over the index when the index is still `source`. */
function swapUnderLock(gitDir: string, from: string, source: string): boolean {
  const lock = join(gitDir, 'index.lock');
  let ino: number;
  try {
    const fd = openSync(lock, 'wx', 0o644);
    ino = fstatSync(fd).ino;
    closeSync(fd);
  } catch {
    return false; // another git holds it (or it cannot be made): in place, after it
  }
  try {
    const index = join(gitDir, 'index');
    if (!lstatSync(index).isFile() || fingerprint(index) !== source) return false;
    renameSync(from, index);
    return true;
  } catch {
    return false;
  } finally {
    quietly(() => {
      if (statSync(lock).ino === ino) rmSync(lock); // ours still
    });
  }
}

/**
 * Starts the update aside; undefined when it cannot (no index yet, an index that is not a plain file, a file
 * system without hard links): the write then updates the index in place.
 * @example const aside = startIndexAside(git, '/mem', '/mem/.git', entries); …; if (!aside?.publish()) …
 */
export function startIndexAside(git: GitRunner, memoryDir: string, gitDir: string, entries: readonly IndexInfoEntry[]): IndexAside | undefined {
  const index = join(gitDir, 'index');
  const copy = join(gitDir, `${ASIDE_INDEX_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  try {
    if (!lstatSync(index).isFile()) return undefined; // a link: git's in-place update follows it, the rename would not
    linkSync(index, copy);
  } catch {
    return undefined;
  }
  const source = fingerprint(copy);
  if (source === null || !lstatSync(copy).isFile()) {
    quietly(() => rmSync(copy, { force: true }));
    return undefined;
  }
  const ready = git.exec(updateIndexInfoOp(entries), { cwd: memoryDir, env: { GIT_INDEX_FILE: copy } });
  ready.catch(() => undefined); // awaited by the publish or by release
  return {
    ready,
    publish: () => swapUnderLock(gitDir, copy, source),
    release: async () => {
      await ready.catch(() => undefined);
      quietly(() => rmSync(copy, { force: true }));
      quietly(() => rmSync(`${copy}.lock`, { force: true }));
    },
  };
}
