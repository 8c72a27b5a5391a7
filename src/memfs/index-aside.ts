/**
 * A write's index update made aside, so it runs while the clean check still does instead of after it. The
 * write takes git's own `index.lock` (created exclusively, as git creates it: no git command writes the index
 * while it is held, and a `git status` holding it already makes this step give way), copies the index and
 * runs `update-index --index-info` on the copy; the publish renames the copy over the index. The copy starts
 * from the index as it is under the lock, so what the rename installs is that index with exactly the write's
 * entries set: the same result as `update-index` on the index itself, and nothing another git wrote is lost.
 * A write that is refused (or dies) never renames it: the index is the one it found. What a killed writer
 * leaves (`index.lock`, the copy, the copy's own lock) is git's lock cleanup's (lease takeover) or is
 * replaced by the next write, which holds the lease as this one did.
 */
import { closeSync, copyFileSync, existsSync, fstatSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { updateIndexInfoOp, type IndexInfoEntry } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';

export interface IndexAside {
  /** Settles once the copy holds the write's entries (rejects with git's error). */
  ready: Promise<void>;
  /** Renames the copy over the index (after `ready`); the lock stays held until `release`. */
  publish(): void;
  /** Drops the copy and lets go of the lock (once `ready` settled); safe to call more than once. */
  release(): Promise<void>;
}

/** Takes `index.lock` as git does; the lock's inode, or null when something else holds it (or it cannot be made). */
function takeIndexLock(lock: string): number | null {
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o644);
  } catch {
    return null;
  }
  try {
    return fstatSync(fd).ino;
  } finally {
    closeSync(fd);
  }
}

/**
 * Starts the update aside; undefined when it cannot (no index yet, the lock held by another process, the copy
 * not made): the write then updates the index in place after the check, as git would.
 * @example const aside = startIndexAside(git, '/mem', '/mem/.git', entries); …; aside?.publish(); await aside?.release()
 */
export function startIndexAside(git: GitRunner, memoryDir: string, gitDir: string, entries: readonly IndexInfoEntry[]): IndexAside | undefined {
  const index = join(gitDir, 'index');
  const lock = join(gitDir, 'index.lock');
  const copy = join(gitDir, 'gitmem-index');
  if (!existsSync(index)) return undefined;
  const ino = takeIndexLock(lock);
  if (ino === null) return undefined;
  const unlock = (): void => {
    try {
      if (statSync(lock).ino === ino) rmSync(lock, { force: true }); // ours still: nobody else may remove git's lock
    } catch {
      // already gone
    }
  };
  try {
    rmSync(`${copy}.lock`, { force: true }); // a killed writer's (this one holds the lease and index.lock)
    copyFileSync(index, copy);
  } catch {
    rmSync(copy, { force: true });
    unlock();
    return undefined;
  }
  const ready = git.exec(updateIndexInfoOp(entries), { cwd: memoryDir, env: { GIT_INDEX_FILE: copy } });
  ready.catch(() => undefined); // awaited by the publish or by release
  let released = false;
  return {
    ready,
    publish: () => renameSync(copy, index),
    release: async () => {
      if (released) return;
      released = true;
      await ready.catch(() => undefined);
      rmSync(copy, { force: true });
      rmSync(`${copy}.lock`, { force: true });
      unlock();
    },
  };
}
