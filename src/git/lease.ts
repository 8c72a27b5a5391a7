/**
 * The memory operation lease: every git-mutating operation on one memory repository runs inside it, so the
 * primary's tool writes, worker merges and reflection finalizes never interleave. An in-process FIFO queue
 * (keyed by the real common git dir, so worktrees share it) plus a cross-process O_EXCL lock file there.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from './common-dir.js';
import {
  breakStaleLock,
  isProcessAlive,
  processStartTime,
  readLockFile,
  releaseLockFile,
  staleReason,
  touchLockFile,
  tryCreateLockFile,
  type LeaseHolder,
} from './lease-file.js';
import { clearStaleGitLocks } from './stale-locks.js';

export type { LeaseHolder } from './lease-file.js';

/** Name of the lock file inside the common git dir. */
export const LEASE_FILE = 'gitmem-operation.lock';

export interface MemoryOperationOptions {
  /** Total time to wait for the lease (default 30 s), then LOCK_TIMEOUT naming the holder. */
  timeoutMs?: number;
  /** A heartbeat older than this means a holder on another host is gone (default 20 s); a live holder on this host is never broken. */
  staleMs?: number;
  /** How often the holder refreshes its heartbeat (default 2 s). */
  heartbeatMs?: number;
  /** Shown to waiters and in LOCK_TIMEOUT errors, e.g. `memory tool write`. */
  purpose?: string;
  signal?: AbortSignal;
  /** The repository's common git dir when the caller has it already (a handle finds it once, when it opens). */
  commonDir?: string;
  /** Test seams. */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  isAlive?: (pid: number) => boolean;
  hostname?: string;
  pid?: number;
  /** Called when an abandoned lease was taken over (for logging). */
  onRecovered?: (info: { holder: LeaseHolder | null; reason: string; removedGitLocks: string[] }) => void;
}

interface QueueState {
  tail: Promise<void>;
  current: { purpose: string; since: number } | null;
}

// Shared by every copy of this module in the process (the CLI ships more than one bundle), so "one caller
// per repository per process reaches the lock file" holds whichever copy a caller came through.
const shared = ((globalThis as Record<symbol, unknown>)[Symbol.for('gitmem.lease')] ??= {
  queues: new Map<string, QueueState>(),
  held: new AsyncLocalStorage<Map<string, { released: boolean }>>(),
}) as { queues: Map<string, QueueState>; held: AsyncLocalStorage<Map<string, { released: boolean }>> };
const { queues, held } = shared;

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `fn` while holding the operation lease of the repository containing `repoDir`. Re-entrant: a call
 * made from inside `fn` (same async context, same repository) runs directly instead of deadlocking.
 * @example await withMemoryOperation(memoryDir, () => commitWrite(...), { purpose: 'memory tool write' })
 */
export async function withMemoryOperation<T>(
  repoDir: string,
  fn: () => Promise<T> | T,
  opts: MemoryOperationOptions = {},
): Promise<T> {
  const key = opts.commonDir ?? resolveGitCommonDir(repoDir);
  const mine = held.getStore();
  if (mine?.get(key)?.released === false) return fn();
  const now = opts.now ?? Date.now;
  const deadline = now() + (opts.timeoutMs ?? 30_000);
  const purpose = opts.purpose ?? 'memory operation';
  const leaveQueue = await enterQueue(key, deadline, purpose, opts);
  const mark = { released: false };
  try {
    const release = await acquireLockFile(key, deadline, purpose, opts);
    try {
      const scope = new Map(mine ?? []);
      scope.set(key, mark);
      return await held.run(scope, fn);
    } finally {
      mark.released = true;
      release();
    }
  } finally {
    leaveQueue();
  }
}

/**
 * Who holds the lease of `repoDir` right now (cross-process view), or null.
 * @example readMemoryOperationHolder(memoryDir)?.pid
 */
export function readMemoryOperationHolder(repoDir: string): LeaseHolder | null {
  return readLockFile(join(resolveGitCommonDir(repoDir), LEASE_FILE))?.holder ?? null;
}

async function enterQueue(
  key: string,
  deadline: number,
  purpose: string,
  opts: MemoryOperationOptions,
): Promise<() => void> {
  const now = opts.now ?? Date.now;
  const state = queues.get(key) ?? { tail: Promise.resolve(), current: null };
  queues.set(key, state);
  const previous = state.tail;
  let leave!: () => void;
  const done = new Promise<void>((r) => (leave = r));
  state.tail = previous.then(() => done);
  const settled = state.tail;
  void settled.then(() => {
    if (queues.get(key)?.tail === settled) queues.delete(key);
  });
  const outcome = await raceTurn(previous, deadline - now(), opts.signal);
  if (outcome !== 'turn') {
    void previous.then(leave); // keep the chain intact: our slot passes straight through
    if (outcome === 'aborted')
      throw new MemoryError('ABORTED', `waiting for the memory operation lease on ${key} was aborted`);
    const holder = { pid: opts.pid ?? process.pid, inProcess: true, purpose: state.current?.purpose ?? 'unknown' };
    throw lockTimeout(key, holder, purpose);
  }
  state.current = { purpose, since: now() };
  return () => {
    state.current = null;
    leave();
  };
}

function raceTurn(
  turn: Promise<void>,
  waitMs: number,
  signal: AbortSignal | undefined,
): Promise<'turn' | 'timeout' | 'aborted'> {
  if (signal?.aborted) return Promise.resolve('aborted');
  return new Promise((resolve) => {
    const onAbort = (): void => finish('aborted');
    const timer = setTimeout(() => finish('timeout'), Math.max(0, waitMs));
    function finish(v: 'turn' | 'timeout' | 'aborted'): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => finish('turn'));
  });
}

async function acquireLockFile(
  commonDir: string,
  deadline: number,
  purpose: string,
  opts: MemoryOperationOptions,
): Promise<() => void> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? defaultSleep;
  const host = opts.hostname ?? osHostname();
  const pid = opts.pid ?? process.pid;
  // The in-process queue lets one caller at a time reach here, so a lock naming this very process is not
  // held by it: a leftover whose pid was reused by us (e.g. after a container restart).
  const isAlive = (p: number): boolean => p !== pid && (opts.isAlive ?? isProcessAlive)(p);
  const path = join(commonDir, LEASE_FILE);
  // Identifies this acquisition in the lock file; uniqueness, not secrecy (node:crypto would cost start-up time).
  const token = `${Date.now().toString(16)}${Math.random().toString(16).slice(2, 10)}`;
  const pidStart = processStartTime(pid);
  const me = {
    pid,
    ...(pidStart === null ? {} : { pidStart }),
    hostname: host,
    startedAt: new Date(now()).toISOString(),
    purpose,
    token,
  };
  let recovered: { holder: LeaseHolder | null; reason: string } | null = null;
  for (let attempt = 0; ; attempt++) {
    if (tryCreateLockFile(path, me)) break;
    const state = readLockFile(path);
    if (state !== null) {
      const reason = staleReason(state, { nowMs: now(), staleMs: opts.staleMs ?? 20_000, hostname: host, isAlive });
      if (reason !== null && breakStaleLock(path, state, { nowMs: now(), hostname: host, pid, isAlive })) {
        recovered = { holder: state.holder, reason };
        continue;
      }
      if (now() >= deadline) throw lockTimeout(commonDir, state.holder ?? { unreadable: true }, purpose);
    }
    if (opts.signal?.aborted)
      throw new MemoryError('ABORTED', `waiting for the memory operation lease on ${commonDir} was aborted`);
    await sleep(Math.min(25, 1 + attempt * 2) + Math.random() * 3);
  }
  if (recovered !== null) await afterRecovery(commonDir, recovered, opts);
  const beat = setInterval(() => touchLockFile(path, now()), opts.heartbeatMs ?? 2_000);
  beat.unref();
  return () => {
    clearInterval(beat);
    releaseLockFile(path, token);
  };
}

async function afterRecovery(
  commonDir: string,
  recovered: { holder: LeaseHolder | null; reason: string },
  opts: MemoryOperationOptions,
): Promise<void> {
  const since = recovered.holder ? Date.parse(recovered.holder.startedAt) : 0;
  const removedGitLocks = await clearStaleGitLocks(commonDir, {
    sinceMs: Number.isFinite(since) ? since : 0,
    now: opts.now,
    sleep: opts.sleep,
  });
  opts.onRecovered?.({ ...recovered, removedGitLocks });
}

function lockTimeout(repo: string, holder: Record<string, unknown> | LeaseHolder, purpose: string): MemoryError {
  const h = holder as Partial<LeaseHolder> & { inProcess?: boolean };
  const who =
    h.pid !== undefined
      ? `pid ${h.pid}${h.hostname ? ` on ${h.hostname}` : ''}${h.inProcess ? ' (this process)' : ''}`
      : 'an unreadable lock';
  const what = h.purpose ? ` for "${h.purpose}"` : '';
  const since = h.startedAt ? ` since ${h.startedAt}` : '';
  return new MemoryError(
    'LOCK_TIMEOUT',
    `timed out waiting for the memory operation lease on ${repo} (wanted for "${purpose}"): held by ${who}${what}${since}`,
    {
      data: { holder, repo },
    },
  );
}
