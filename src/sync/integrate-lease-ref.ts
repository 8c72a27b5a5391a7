/**
 * The remote lease ref itself (`refs/gitmem/lease`): reading it (a record, or not one: counts as expired),
 * writing a record as a parentless commit, and moving it only by compare-and-swap. Apart from
 * integrate-lease.ts, which decides when to take, bump, hold and release it.
 */
import { GitCommandError } from '../git/runner.js';
import { identityConfig, SYSTEM_IDENTITY } from '../identity.js';
import { renderLease, parseLease, type LeaseRecord } from './integrate-lease-record.js';
import { runOpts, type IntegrateInput } from './integrate-input.js';
import { pushRefused } from './writer-refs.js';

export const LEASE_REF = 'refs/gitmem/lease';
/** Where a writer keeps the lease commit it last fetched (never pushed). */
const SEEN_REF = 'refs/gitmem/lease-remote';
const NO_RETRY = { attempts: 1, baseDelayMs: 0 };
/** What git says when a compare-and-swap of a ref lost: another writer moved it first. */
export const STALE = /stale info|cannot lock ref|incorrect old value|failed to update ref/i;

/** The remote's lease as last read: its commit id (null: none) and record (undefined: not a record). */
export interface Seen {
  oid: string | null;
  record: LeaseRecord | undefined;
}

/**
 * What the remote's lease says now: its commit id (null: no lease) and record (undefined: not a record — a blob,
 * a tree, a huge or garbled message — which counts as expired).
 */
export async function readLease(ctx: IntegrateInput): Promise<Seen> {
  const args = ['fetch', '--no-tags', '--no-write-fetch-head', '--refmap=', 'origin', `+${LEASE_REF}:${SEEN_REF}`];
  try {
    await ctx.git.run(args, runOpts(ctx, true));
  } catch (err) {
    if (err instanceof GitCommandError && err.kind === 'missing_remote_ref') return { oid: null, record: undefined };
    throw err;
  }
  const oid = (await ctx.git.run(['rev-parse', '--verify', SEEN_REF], runOpts(ctx))).stdout.trim();
  const type = (await ctx.git.run(['cat-file', '-t', oid], runOpts(ctx))).stdout.trim();
  if (type !== 'commit') return { oid, record: undefined };
  const size = Number((await ctx.git.run(['cat-file', '-s', oid], runOpts(ctx))).stdout.trim());
  if (!(size <= 16_384)) return { oid, record: undefined };
  const text = (await ctx.git.run(['cat-file', 'commit', oid], runOpts(ctx))).stdout;
  const cut = text.indexOf('\n\n');
  return { oid, record: cut < 0 ? undefined : parseLease(text.slice(cut + 2)) };
}

/** A parentless commit with the empty tree whose message is the record. */
export async function leaseCommit(ctx: IntegrateInput, record: LeaseRecord): Promise<string> {
  const tree = (await ctx.git.run(['mktree'], { ...runOpts(ctx), input: '' })).stdout.trim();
  const args = ['commit-tree', tree, '-m', renderLease(record)];
  return (await ctx.git.run(args, { ...runOpts(ctx), config: identityConfig(SYSTEM_IDENTITY) })).stdout.trim();
}

/**
 * Compare-and-swap of the remote lease: from `expected` (null: there is none) to a commit of `record`. 'lost'
 * when another writer moved it first; a refusal by the server is PUSH_FAILED naming the ref.
 */
export async function writeLease(
  ctx: IntegrateInput,
  expected: string | null,
  record: LeaseRecord,
): Promise<string | 'lost'> {
  const oid = await leaseCommit(ctx, record);
  try {
    await pushLease(ctx, expected, oid, []);
    return oid;
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    const text = `${err.stderr}\n${err.message}`;
    if (STALE.test(text)) return 'lost';
    throw err.kind === 'other' ? pushRefused(LEASE_REF, text, err) : err;
  }
}

export async function pushLease(
  ctx: IntegrateInput,
  expected: string | null,
  oid: string,
  also: string[],
): Promise<void> {
  const args = [
    'push',
    '--quiet',
    ...(also.length > 0 ? ['--atomic'] : []),
    `--force-with-lease=${LEASE_REF}:${expected ?? ''}`,
    'origin',
    ...also,
    `${oid}:${LEASE_REF}`,
  ];
  // Not retried: a retry after a push that did land would find its own commit and call the lease lost.
  await ctx.git.run(args, { ...runOpts(ctx, true), retry: NO_RETRY });
}
