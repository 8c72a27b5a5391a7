/**
 * `sync.integrator = lease`: with no separately run `gitmem integrate`, the first writer that takes the lease on
 * the remote integrates. After its own push (the write is acknowledged then, whatever follows), a writer reads
 * `refs/gitmem/lease` — a parentless commit whose message is the record (integrate-lease-record.ts) — and moves
 * it only with `git push --force-with-lease=refs/gitmem/lease:<what it read>`, so of two writers racing exactly
 * one wins. The holder runs the rounds of `gitmem integrate` (integrate-writers.ts) and pushes main together with
 * the record of that push (`--atomic`: a holder that lost the lease cannot move main, and the push rate holds
 * across holders), then releases. A writer that finds the lease held asks the holder for one more pass (it bumps
 * `pending`, which makes the holder's next compare-and-swap fail, so the holder looks again): every acknowledged
 * write is fetched by a pass that starts after it. A lease past its expiry, or not a record at all, is taken over.
 * Safety never rests on the lease: main only ever moves by fast-forward.
 */
import { randomBytes } from 'node:crypto';
import { GitCommandError } from '../git/runner.js';
import { integrateWriters, nextPushDelay, type IntegrateWritersResult } from './integrate-writers.js';
import { isHeld, recentPushes, type LeaseRecord } from './integrate-lease-record.js';
import { leaseCommit, pushLease, readLease, STALE, writeLease, type Seen } from './integrate-lease-ref.js';
import type { IntegrateInput } from './integrate-input.js';
import { contextFor, failedResult } from './outcome.js';
import { assertNoSecretsToPush } from './push-scan.js';
import { getOriginUrl } from './remote.js';
import type { LeaseIntegration } from './types.js';
import { syncWriterRef, type WriterSyncOptions, type WriterSyncResult } from './writer-refs.js';

/** A holder's lease lasts this long unless it pushes (each push renews it) or releases it. */
export const LEASE_TTL_MS = 60_000;
// Every lost compare-and-swap means another writer moved the lease (took, bumped or released it): progress, so
// a writer keeps trying well past a handful of losses before it gives up.
const ATTEMPTS = 20;
const MAX_PASSES = 4;

export interface LeaseSyncOptions extends WriterSyncOptions {
  pushesPerMinute: number;
  /** The longest a holder waits for a push slot of main (ms); past it the writes wait for the next holder. */
  maxWaitMs: number;
  /** Injected for tests. */
  ttlMs?: number;
  now?: () => number;
}

/**
 * The writer's sync (its own ref), then, when there is integration to do, one turn at the lease.
 * @example await syncWriterWithLease({ git, memoryDir, agent: 'a1', machine: 'm1', pushesPerMinute: 6, maxWaitMs: 15_000 })
 */
export async function syncWriterWithLease(opts: LeaseSyncOptions): Promise<WriterSyncResult> {
  const synced = await syncWriterRef(opts);
  if (synced.status !== 'pushed' && synced.status !== 'clean') return synced;
  let integration: LeaseIntegration;
  try {
    integration = await integrateUnderLease(opts, synced.status === 'pushed');
  } catch (err) {
    integration = { status: 'failed', summary: `integration: ${failedResult(opts.memoryDir, err).summary}` };
  }
  if (integration.status === 'idle') return { ...synced, integration };
  return { ...synced, integration, summary: `${synced.summary} ${integration.summary}` };
}

async function integrateUnderLease(opts: LeaseSyncOptions, pushedNew: boolean): Promise<LeaseIntegration> {
  const url = await getOriginUrl(opts.git, opts.memoryDir);
  if (url === null) return { status: 'idle', summary: '' };
  const ctx = contextFor(opts, url);
  const now = opts.now ?? Date.now;
  const holder = `${opts.agent}/${opts.machine}/${randomBytes(4).toString('hex')}`;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seen = await readLease(ctx);
    const r = seen.record;
    if (isHeld(r, now())) {
      // Someone integrates: a writer with nothing new leaves it; one that just pushed asks for one more pass.
      if (!pushedNew || !r) return { status: 'idle', summary: '' };
      const asked = await writeLease(ctx, seen.oid, { ...r, pending: r.pending + 1 });
      if (asked !== 'lost') {
        return {
          status: 'handed',
          holder: r.holder,
          summary: `The integration lease is held by ${r.holder}; it merges this ref next.`,
        };
      }
      continue;
    }
    // Nothing new here and nothing left undone: no lease to take (a clean sync costs one fetch).
    if (!pushedNew && seen.oid !== null && r?.state === 'released' && r.pending === 0)
      return { status: 'idle', summary: '' };
    if (!pushedNew && seen.oid === null) return { status: 'idle', summary: '' };
    const waiting = await deferIfNoSlot(opts, ctx, seen, pushedNew);
    if (waiting === 'lost') continue;
    if (waiting) return waiting;
    const ttl = opts.ttlMs ?? LEASE_TTL_MS;
    const mine: LeaseRecord = {
      holder,
      state: 'held',
      expires: now() + ttl,
      ttl,
      pushes: recentPushes(r?.pushes ?? [], [], now()),
      pending: 0,
    };
    const oid = await writeLease(ctx, seen.oid, mine);
    if (oid !== 'lost') return holdAndIntegrate(opts, ctx, { oid, record: mine });
    await (opts.sleep ?? defaultSleep)(50 + Math.floor((opts.random ?? Math.random)() * 100));
  }
  // A write this sync pushed must not look integrated when every try lost: say it waits for the next pass.
  if (pushedNew)
    return {
      status: 'deferred',
      summary:
        'The integration lease stayed contended; the next integration pass (any writer, or gitmem integrate) merges this ref.',
    };
  return { status: 'idle', summary: '' };
}

/**
 * When the pushes the lease records leave no slot for main within `maxWaitMs`, taking the lease would buy nothing:
 * the lease is left released with the writes marked pending (once) for whoever syncs after the slot opens.
 */
async function deferIfNoSlot(
  opts: LeaseSyncOptions,
  ctx: IntegrateInput,
  seen: Seen,
  pushedNew: boolean,
): Promise<LeaseIntegration | 'lost' | undefined> {
  const r = seen.record;
  const at = (opts.now ?? Date.now)();
  if (!r || nextPushDelay(recentPushes(r.pushes, [], at), opts.pushesPerMinute, at) <= opts.maxWaitMs) return undefined;
  const summary = 'The push rate leaves no slot for main now; the next sync after it opens integrates this ref.';
  if (r.state === 'released' && (r.pending > 0 || !pushedNew)) return { status: 'deferred', summary };
  const marked = await writeLease(ctx, seen.oid, { ...r, state: 'released', expires: at, pending: r.pending + 1 });
  return marked === 'lost' ? 'lost' : { status: 'deferred', summary };
}

const defaultSleep = (ms: number): Promise<void> => new Promise((res) => setTimeout(res, ms));

/**
 * Holding the lease: passes until one ends with nobody asking for more, then the release. A failure on the way
 * (the network gone) still tries to release, with the writes marked pending; else the lease simply expires.
 */
async function holdAndIntegrate(
  opts: LeaseSyncOptions,
  ctx: IntegrateInput,
  taken: { oid: string; record: LeaseRecord },
): Promise<LeaseIntegration> {
  const now = opts.now ?? Date.now;
  const holder = taken.record.holder;
  const state = { current: taken };
  const free = (pending: number): LeaseRecord => ({
    ...state.current.record,
    state: 'released',
    expires: now(),
    pending,
  });
  try {
    let last: IntegrateWritersResult | undefined;
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      const done = await onePass(opts, ctx, state.current);
      last = done.result;
      if (done.lease) state.current = done.lease;
      // A deferred round leaves the writes marked as waiting for whoever syncs next.
      const pending = last.status === 'deferred' ? state.current.record.pending + 1 : 0;
      if (!done.moved && (await writeLease(ctx, state.current.oid, free(pending))) !== 'lost')
        return outcome(holder, last);
      // The lease moved under us: asked for another pass (still ours), or taken over after expiring (stop).
      const seen = await readLease(ctx);
      if (seen.oid === null || seen.record?.holder !== holder || !isHeld(seen.record, now()))
        return outcome(holder, last);
      state.current = { oid: seen.oid, record: seen.record };
    }
    await writeLease(ctx, state.current.oid, free(state.current.record.pending + 1));
    return outcome(holder, last);
  } catch (err) {
    await writeLease(ctx, state.current.oid, free(state.current.record.pending + 1)).catch(() => undefined);
    throw err;
  }
}

/**
 * One round of `gitmem integrate` as the holder: first its own sync again (main may have moved since its push;
 * its ref is then rebased on it, so its own commits never come in twice), then the round with the lease's pushes
 * counted and main pushed atomically with the new record.
 */
async function onePass(
  opts: LeaseSyncOptions,
  ctx: IntegrateInput,
  held: { oid: string; record: LeaseRecord },
): Promise<{ result: IntegrateWritersResult; moved: boolean; lease?: { oid: string; record: LeaseRecord } }> {
  const now = opts.now ?? Date.now;
  const own = await syncWriterRef(opts);
  if (own.status !== 'pushed' && own.status !== 'clean') {
    const result: IntegrateWritersResult = {
      status: 'failed',
      summary: own.summary,
      writers: [],
      pushed: 0,
      waitedMs: 0,
    };
    return { result, moved: false };
  }
  let moved = false;
  let lease: { oid: string; record: LeaseRecord } | undefined;
  const push = async (c: IntegrateInput): Promise<GitCommandError | undefined> => {
    await assertNoSecretsToPush(c.git, c.memoryDir, c.signal);
    const at = now();
    const record: LeaseRecord = {
      ...held.record,
      expires: at + held.record.ttl,
      pushes: recentPushes(held.record.pushes, [at], at),
    };
    const oid = await leaseCommit(c, record);
    try {
      await pushLease(c, held.oid, oid, ['refs/heads/main:refs/heads/main']);
      lease = { oid, record };
      return undefined;
    } catch (err) {
      if (!(err instanceof GitCommandError)) throw err;
      if (STALE.test(`${err.stderr}\n${err.message}`) && !/non-fast-forward/.test(err.stderr)) moved = true;
      return err;
    }
  };
  const result = await integrateWriters({
    ...opts,
    pushes: () => held.record.pushes,
    push,
  });
  return { result, moved, ...(lease ? { lease } : {}) };
}

function outcome(holder: string, r: IntegrateWritersResult | undefined): LeaseIntegration {
  if (!r) return { status: 'failed', holder, summary: 'Integration under the lease: no pass ran.', pushed: 0 };
  return {
    status: r.status,
    holder,
    summary: `Integration under the lease (${holder}): ${r.summary}`,
    pushed: r.pushed,
  };
}
