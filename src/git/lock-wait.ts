/**
 * The runner's waits on a held git lock (index.lock, a ref lock, config.lock): which commands may simply run
 * again, how long to wait, and when a lock is stale rather than contended. Apart from runner.ts because it is
 * one policy with its own clock; it never spawns git (runner.ts stays the only place that does).
 */
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { lockPathOf } from './classify.js';
import type { GitCommandError } from './git-error.js';

/**
 * Commands that take their lock before they change anything, so a run that failed on a held lock changed
 * nothing and may simply run again once the other git process (an editor's `git status`, a shell commit,
 * a `git config` writer, a concurrent gc) lets go.
 */
const LOCK_WAITING = new Set([
  'update-index',
  'update-ref',
  'read-tree',
  'reset',
  'rm',
  'add',
  'commit',
  'symbolic-ref',
  'config',
  'branch',
  'checkout',
]);
/** First waits: a commit or a status holds its lock for milliseconds. Then about every LOCK_POLL_MS. */
const LOCK_WAITS_MS = [5, 10, 20, 40, 80, 150];
const LOCK_POLL_MS = 120;
/**
 * A lock file that stays the same file this long is stale or held by one long operation: report it. One
 * that keeps changing (pollers taking it in turn) is live contention and is waited for up to LOCK_CAP_MS.
 */
const LOCK_STALE_MS = 1_500;
const LOCK_CAP_MS = 10_000;

/** What the lock waits of one run have seen so far. */
export interface LockWaits {
  count: number;
  startedAt: number;
  /** The lock file's identity (inode + mtime) at the last failure, and since when it has been that. */
  lastSeen?: string;
  sameSince: number;
}

function lockIdentity(cwd: string, text: string): string {
  const path = lockPathOf(text);
  if (path === undefined) return 'unknown';
  try {
    const st = statSync(isAbsolute(path) ? path : join(cwd, path));
    return `${st.ino}:${st.mtimeMs}`;
  } catch {
    return 'gone'; // released between git's attempt and ours: the other process is moving
  }
}

/** Waits before the next try when `err` is a held lock still worth waiting for; false otherwise. */
export async function waitedForLock(
  err: GitCommandError,
  args: readonly string[],
  w: LockWaits,
  cwd: string,
  signal?: AbortSignal,
): Promise<boolean> {
  if (err.kind !== 'locked' || !LOCK_WAITING.has(args[0] ?? '') || signal?.aborted) return false;
  const now = Date.now();
  const seen = lockIdentity(cwd, err.stderr);
  if (seen !== w.lastSeen || seen === 'gone') [w.lastSeen, w.sameSince] = [seen, now];
  if (now - w.sameSince >= LOCK_STALE_MS || now - w.startedAt >= LOCK_CAP_MS) return false;
  // Jittered, so a retry does not fall into step with a poller's own period.
  const delay = LOCK_WAITS_MS[w.count++] ?? LOCK_POLL_MS / 2 + Math.floor(Math.random() * LOCK_POLL_MS);
  // A real timer even when the runner's `sleep` is stubbed: the other process needs wall time to let go.
  await new Promise((r) => setTimeout(r, delay));
  return true;
}
