/**
 * The cross-process half of the operation lease: a lock file created with O_EXCL in the common git dir,
 * holding its owner (pid, host, start time, token); its mtime is the heartbeat. Synchronous on purpose:
 * each call is a single small syscall, far cheaper than a trip through the libuv thread pool.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';

/** Who holds (or held) a lease. `heartbeatAt` is the lock file's mtime, refreshed while the holder runs. */
export interface LeaseHolder {
  pid: number;
  /** The holder process's start time (see processStartTime), so a reused pid is not mistaken for it. */
  pidStart?: string;
  hostname: string;
  startedAt: string;
  heartbeatAt: string;
  purpose: string;
  token: string;
}

/** What is on disk at a lock path right now. */
export interface LockFileState {
  /** null when the file exists but its content is not (yet) a holder record. */
  holder: LeaseHolder | null;
  mtimeMs: number;
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Creates the lock file exclusively; false when it already exists.
 * @example tryCreateLockFile('/repo/.git/gitmem-operation.lock', holder) // true the first time
 */
export function tryCreateLockFile(path: string, holder: Omit<LeaseHolder, 'heartbeatAt'>): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (err) {
    if (errnoCode(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify(holder));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Reads the lock file; null when there is none.
 * @example readLockFile(path)?.holder?.pid
 */
export function readLockFile(path: string): LockFileState | null {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    const text = readFileSync(path, 'utf8');
    return { holder: parseHolder(text, mtimeMs), mtimeMs };
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    throw err;
  }
}

function parseHolder(text: string, mtimeMs: number): LeaseHolder | null {
  try {
    const v = JSON.parse(text) as Partial<LeaseHolder>;
    if (typeof v.pid !== 'number' || typeof v.token !== 'string') return null;
    return {
      pid: v.pid,
      ...(typeof v.pidStart === 'string' ? { pidStart: v.pidStart } : {}),
      hostname: String(v.hostname ?? ''),
      startedAt: String(v.startedAt ?? ''),
      heartbeatAt: new Date(mtimeMs).toISOString(),
      purpose: String(v.purpose ?? ''),
      token: v.token,
    };
  } catch {
    return null;
  }
}

/** Refreshes the heartbeat (mtime). Best-effort: a vanished file is the caller's problem at release. */
export function touchLockFile(path: string, nowMs: number): void {
  try {
    const t = new Date(nowMs);
    utimesSync(path, t, t);
  } catch {
    // ignored: release notices a stolen or missing lock
  }
}

/**
 * Removes the lock file only when it still carries `token` (never someone else's lock).
 * @example releaseLockFile(path, holder.token) // true when it was ours
 */
export function releaseLockFile(path: string, token: string): boolean {
  const state = readLockFile(path);
  if (state?.holder?.token !== token) return false;
  return removeFile(path);
}

/** unlink that treats "already gone" as success. */
export function removeFile(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw err;
  }
}

/** Why a lock is judged abandoned, or null when it must be respected. */
export type StaleReason = 'dead_holder' | 'stale_heartbeat' | 'unreadable';

/**
 * Decides whether a lock may be broken. On this host the pid decides: a holder whose process is gone (or
 * whose pid now belongs to a process started at another time) is dead, and a live holder is never judged
 * stale, however old its heartbeat — a long synchronous step stalls the heartbeat, not the holder's
 * writes. Only a holder on another host (whose pid cannot be checked) is judged by its heartbeat, older
 * than `staleMs`. A lock that stayed unreadable for 2 s belongs to a holder killed between create and write.
 * @example staleReason(state, { nowMs, staleMs: 20_000, hostname, isAlive }) === 'dead_holder'
 */
export function staleReason(
  state: LockFileState,
  o: {
    nowMs: number;
    staleMs: number;
    hostname: string;
    isAlive: (pid: number) => boolean;
    startOf?: (pid: number) => string | null;
  },
): StaleReason | null {
  const age = o.nowMs - state.mtimeMs;
  if (state.holder === null) return age > 2_000 ? 'unreadable' : null;
  const h = state.holder;
  if (h.hostname === o.hostname) {
    if (!o.isAlive(h.pid)) return 'dead_holder';
    const now = h.pidStart === undefined ? null : (o.startOf ?? processStartTime)(h.pid);
    return now !== null && now !== h.pidStart ? 'dead_holder' : null;
  }
  return age > o.staleMs ? 'stale_heartbeat' : null;
}

/**
 * When process `pid` started (clock ticks since boot, from /proc/<pid>/stat), or null where that cannot be
 * read (no /proc, no such process). Together with the pid it names one process, even after pid reuse.
 * @example processStartTime(process.pid) // '123456' on Linux
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

export { isProcessAlive } from '../process/run.js';

/**
 * Breaks an abandoned lock without racing other breakers: a short-lived `.recover` lock guards the
 * re-check-and-unlink, so a fresh lock created meanwhile by a third process is never removed.
 * Returns true when the stale lock is gone (by us or anyone).
 */
export function breakStaleLock(
  path: string,
  judged: LockFileState,
  o: { nowMs: number; hostname: string; pid: number; isAlive: (pid: number) => boolean },
): boolean {
  const guard = `${path}.recover`;
  const me = {
    pid: o.pid,
    hostname: o.hostname,
    startedAt: new Date(o.nowMs).toISOString(),
    purpose: 'recover',
    token: `recover-${o.pid}-${o.nowMs}`,
  };
  if (!tryCreateLockFile(guard, me)) {
    const other = readLockFile(guard);
    const abandoned =
      other !== null &&
      (o.nowMs - other.mtimeMs > 5_000 ||
        (other.holder !== null && other.holder.hostname === o.hostname && !o.isAlive(other.holder.pid)));
    if (abandoned) removeFile(guard);
    return false;
  }
  try {
    const now = readLockFile(path);
    if (now === null) return true;
    const same =
      now.holder === null
        ? judged.holder === null && now.mtimeMs === judged.mtimeMs
        : now.holder.token === judged.holder?.token;
    if (same) removeFile(path);
    return same;
  } finally {
    removeFile(guard);
  }
}
