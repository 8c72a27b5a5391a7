/**
 * After the operation lease is taken over from a dead holder, git's own lock files that holder left behind
 * (index.lock, HEAD.lock, ref locks) would make the next write fail. This removes those, and only those,
 * with the private index directory a write killed under an earlier version left (garbage, never read).
 */
import { readdirSync, rmSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { removeFile } from './lease-file.js';

/**
 * The private index directory `gitmem-index-<pid>-<hex>` a write killed under an earlier version may have left
 * (its index update was once made there, aside): still removed, so an upgraded memory does not keep it.
 */
export const ASIDE_INDEX_PREFIX = 'gitmem-index-';

/** Files git locks while it mutates the primary checkout of a repository. */
function candidateLocks(commonDir: string): string[] {
  const out = ['index.lock', 'HEAD.lock', 'ORIG_HEAD.lock', 'packed-refs.lock', 'config.lock'].map((f) =>
    join(commonDir, f),
  );
  const walk = (dir: string, depth: number): void => {
    if (depth > 6) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.name.endsWith('.lock')) out.push(p);
    }
  };
  walk(join(commonDir, 'refs', 'heads'), 0);
  return out;
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function mtimeOf(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

export interface StaleGitLockOptions {
  /** Only locks created at or after this time (the dead holder's start) are considered its leftovers. */
  sinceMs: number;
  /** A leftover younger than this may belong to an orphaned git child still finishing; wait for it. */
  minAgeMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Removes git lock files a dead lease holder left in `commonDir`; returns the removed paths.
 * Must be called while holding the lease (so no gitmem writer can own those locks).
 * @example await clearStaleGitLocks('/a/memory/.git', { sinceMs: Date.parse(holder.startedAt) })
 */
export async function clearStaleGitLocks(commonDir: string, o: StaleGitLockOptions): Promise<string[]> {
  const now = o.now ?? Date.now;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const minAge = o.minAgeMs ?? 2_000;
  const removed: string[] = [];
  for (const path of candidateLocks(commonDir)) {
    for (;;) {
      const mtime = mtimeOf(path);
      if (mtime === null || mtime < o.sinceMs - 1_000) break;
      if (now() - mtime >= minAge) {
        try {
          if (removeFile(path)) removed.push(path);
        } catch {
          // not a file (a directory planted under a lock's name): git cannot use it either way
        }
        break;
      }
      await sleep(25);
    }
  }
  // Such a directory is garbage: no write of this version makes one, and git never reads it.
  for (const name of safeList(commonDir)) {
    if (!name.startsWith(ASIDE_INDEX_PREFIX)) continue;
    const path = join(commonDir, name);
    try {
      rmSync(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // unremovable: git never reads it
    }
  }
  return removed;
}
