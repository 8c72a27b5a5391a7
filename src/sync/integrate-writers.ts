/**
 * `gitmem integrate`: the one integrator of `sync.mode = writer-refs`. It brings main up to date with origin (the
 * same validated pull as `sync`), fetches every `refs/heads/writers/*`, and for each writer tip main lacks:
 * checks its commits with the validator, protected list and secret scan (incoming.ts — a breaking tip is not
 * merged, it is kept on `gitmem/rejected/<time>` and reported), merges it (the markdown-aware merge driver runs
 * as in any git merge; a true conflict is aborted and the tip kept on `gitmem/conflict/<time>`), then pushes main
 * once per round, no more often than the configured pushes per minute.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation } from '../git/lease.js';
import { GitCommandError } from '../git/runner.js';
import { validateMove } from '../hooks/validate-move.js';
import { identityConfig, SYSTEM_IDENTITY } from '../identity.js';
import { checkIncoming } from './incoming.js';
import { integrateRemote } from './integrate.js';
import { REMOTE_MAIN, runOpts, type IntegrateInput } from './integrate-input.js';
import { failedResult, prepareSync, pushMain } from './outcome.js';
import { recentPushes } from './integrate-lease-record.js';
import { CONFLICT_BRANCH_PREFIX, createUniqueRef } from './refs.js';
import type { SyncOptions, SyncResult } from './types.js';
import { DEFAULT_PUSHES_PER_MINUTE, pushRefused, WRITER_REF_PREFIX } from './writer-refs.js';

/** Where fetched writer tips live on the integrator (never pushed back). */
const FETCHED_PREFIX = 'refs/gitmem/writers/';
const PUSH_LOG = 'gitmem-integrate-pushes.json';

export interface IntegrateWritersOptions extends SyncOptions {
  pushesPerMinute?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Pushes of main recorded elsewhere (the integration lease), counted with this checkout's own. */
  pushes?: () => readonly number[];
  /** A wait for a push slot longer than this (ms) is not taken: the round ends `deferred`, nothing pushed. */
  maxWaitMs?: number;
  /** Ends a wait for a push slot early (a stopping `integrate --watch`): the round ends `deferred`, merges undone. */
  stop?: AbortSignal;
  /** How main is pushed (default: pushMain); the lease pushes main and its own record in one atomic push. */
  push?: (ctx: IntegrateInput) => Promise<GitCommandError | undefined>;
}

export interface WriterOutcome {
  /** `writers/<agent>/<machine>`. */
  writer: string;
  tip: string;
  outcome: 'merged' | 'rejected' | 'conflict';
  keptBranch?: string;
  problems?: string[];
  conflictPaths?: string[];
}

export interface IntegrateWritersResult {
  /** `deferred`: the push rate left no slot within `maxWaitMs`; nothing merged stays, nothing pushed. */
  status: 'integrated' | 'clean' | 'failed' | 'deferred';
  summary: string;
  writers: WriterOutcome[];
  /** Commits pushed to main by this round. */
  pushed: number;
  /** Milliseconds waited to keep under the push rate. */
  waitedMs: number;
  /** The pull of main, when it did not end clean (its own status: rejected, conflict, push_failed...). */
  pull?: SyncResult;
}

/**
 * One integration round.
 * @example const r = await integrateWriters({ git, memoryDir, pushesPerMinute: 6 })
 */
export async function integrateWriters(opts: IntegrateWritersOptions): Promise<IntegrateWritersResult> {
  const empty = { writers: [], pushed: 0, waitedMs: 0 };
  if (pushDelay(opts) > (opts.maxWaitMs ?? Infinity)) return { ...empty, status: 'deferred', summary: DEFERRED };
  const prepared = await prepareSync(opts, true);
  if ('done' in prepared) return { ...empty, status: 'failed', summary: prepared.done.summary, pull: prepared.done };
  const { ctx } = prepared;
  try {
    const pulled = await integrateRemote(ctx, prepared.hint, prepared.fetched);
    if (pulled.outcome === 'rejected' || pulled.outcome === 'conflict') {
      const summary = `main could not be brought up to date with the remote (${pulled.outcome}); nothing integrated`;
      return { ...empty, status: 'failed', summary };
    }
    await ctx.git.run(
      ['fetch', '--no-tags', '--prune', '--refmap=', 'origin', `+${WRITER_REF_PREFIX}*:${FETCHED_PREFIX}*`],
      runOpts(ctx, true),
    );
    const lease = { purpose: 'integrate', signal: ctx.signal };
    const before = (await ctx.git.run(['rev-parse', 'HEAD'], runOpts(ctx))).stdout.trim();
    const writers = await withMemoryOperation(ctx.memoryDir, () => mergeWriters(ctx), lease);
    const ahead =
      Number((await ctx.git.run(['rev-list', '--count', 'HEAD', '--not', REMOTE_MAIN], runOpts(ctx))).stdout.trim()) ||
      0;
    if (ahead === 0) return { ...empty, writers, status: 'clean', summary: describe(writers, 0) };
    const waitedMs = await waitForPushSlot(opts);
    // The merges are redone from the writer refs next round: local main goes back to where it was.
    const undo = () => ctx.git.run(['reset', '--hard', '--quiet', before], runOpts(ctx));
    if (waitedMs < 0) {
      await withMemoryOperation(ctx.memoryDir, undo, lease);
      return { ...empty, writers, status: 'deferred', summary: DEFERRED };
    }
    const failure = await (opts.push ?? ((c: IntegrateInput) => pushMain(c, false)))(ctx);
    if (failure) {
      await withMemoryOperation(ctx.memoryDir, undo, lease);
      throw failure.kind === 'non_fast_forward' ? failure : pushRefused('refs/heads/main', failure.stderr, failure);
    }
    recordPush(ctx.memoryDir, Date.now());
    return { writers, pushed: ahead, waitedMs, status: 'integrated', summary: describe(writers, ahead) };
  } catch (err) {
    const failed = failedResult(opts.memoryDir, err);
    return { ...empty, status: 'failed', summary: failed.summary, pull: failed };
  }
}

function describe(writers: WriterOutcome[], pushed: number): string {
  const n = (o: WriterOutcome['outcome']): number => writers.filter((w) => w.outcome === o).length;
  return `${n('merged')} writer ref(s) merged, ${n('rejected')} rejected, ${n('conflict')} kept on a conflict branch; pushed ${pushed} commit(s) to main.`;
}

/** Under the lease: each fetched writer tip that main lacks, validated then merged (or kept). */
async function mergeWriters(ctx: IntegrateInput): Promise<WriterOutcome[]> {
  const refs = await ctx.git.run(['for-each-ref', '--format=%(objectname) %(refname)', FETCHED_PREFIX], runOpts(ctx));
  const out: WriterOutcome[] = [];
  for (const line of refs.stdout.split('\n')) {
    if (line === '') continue;
    const [tip = '', ref = ''] = line.split(' ');
    const writer = `writers/${ref.slice(FETCHED_PREFIX.length)}`;
    const known = await ctx.git.run(['merge-base', '--is-ancestor', tip, 'HEAD'], {
      ...runOpts(ctx),
      okExitCodes: [1],
    });
    if (known.exitCode === 0) continue;
    const head = (await ctx.git.run(['rev-parse', 'HEAD'], runOpts(ctx))).stdout.trim();
    const rejection = await checkIncoming(ctx, tip, head);
    if (rejection) {
      out.push({ writer, tip, outcome: 'rejected', keptBranch: rejection.branch, problems: rejection.problems });
      continue;
    }
    out.push(await mergeOne(ctx, writer, tip, head));
  }
  return out;
}

async function mergeOne(ctx: IntegrateInput, writer: string, tip: string, head: string): Promise<WriterOutcome> {
  const args = ['merge', '--quiet', '--no-edit', '-m', `integrate ${writer}`, tip];
  try {
    await ctx.git.run(args, { ...runOpts(ctx), config: identityConfig(SYSTEM_IDENTITY) });
    return await checkMerged(ctx, writer, tip, head);
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    const unmerged = await ctx.git.run(['diff', '--name-only', '--diff-filter=U', '-z'], runOpts(ctx));
    const conflictPaths = unmerged.stdout.split('\0').filter((p) => p !== '');
    await ctx.git.run(['merge', '--abort'], { ...runOpts(ctx), okExitCodes: [1, 128] });
    const keptBranch = await keepConflict(ctx, tip);
    // A merge git refuses outright (unrelated histories...) is this writer's problem, not the round's.
    if (conflictPaths.length === 0) {
      const why = err.stderr.split('\n').find((l) => l.trim() !== '') ?? err.message;
      return { writer, tip, outcome: 'rejected', keptBranch, problems: [`merge refused: ${why.slice(0, 200)}`] };
    }
    return { writer, tip, outcome: 'conflict', keptBranch, conflictPaths };
  }
}

/**
 * Each writer passed alone; the merge of one into a main that has meanwhile taken others is judged again as a
 * whole (two writers that each fit the system/ budget may not fit together). A merge that breaks a rule is
 * undone (main back at `head`) and the writer's tip kept on a conflict branch with the problems.
 */
async function checkMerged(ctx: IntegrateInput, writer: string, tip: string, head: string): Promise<WriterOutcome> {
  const { rejected } = await validateMove(ctx.git, ctx.memoryDir, head, 'HEAD', { home: ctx.home });
  if (rejected === null) return { writer, tip, outcome: 'merged' };
  await ctx.git.run(['reset', '--hard', '-q', head], runOpts(ctx));
  const keptBranch = await keepConflict(ctx, tip);
  return { writer, tip, outcome: 'rejected', keptBranch, problems: rejected.problems.map((p) => `with main: ${p}`) };
}

/** A conflict branch already holding `tip` is reused, so a writer that stays in conflict keeps one branch. */
async function keepConflict(ctx: IntegrateInput, tip: string): Promise<string> {
  const prefix = `refs/heads/${CONFLICT_BRANCH_PREFIX}`;
  const r = await ctx.git.run(['for-each-ref', `--points-at=${tip}`, '--format=%(refname)', prefix], runOpts(ctx));
  const ref =
    r.stdout.split('\n').find((l) => l !== '') ??
    (await createUniqueRef(ctx.git, ctx.memoryDir, prefix, ctx.clock(), tip));
  return ref.slice('refs/heads/'.length);
}

const DEFERRED = 'the push rate leaves no slot for main now; the writer refs wait for the next round.';

/** Milliseconds until a push keeps to the rate, counting this checkout's pushes and the ones recorded elsewhere. */
function pushDelay(opts: IntegrateWritersOptions): number {
  const now = Date.now();
  const pushes = recentPushes(opts.pushes?.() ?? [], readPushes(opts.memoryDir), now);
  return nextPushDelay(pushes, opts.pushesPerMinute ?? DEFAULT_PUSHES_PER_MINUTE, now);
}

/**
 * Waits until fewer than `pushesPerMinute` pushes happened in the last minute (the log is in the git dir);
 * -1 when that is further away than `maxWaitMs`.
 */
async function waitForPushSlot(opts: IntegrateWritersOptions): Promise<number> {
  const wait = pushDelay(opts);
  if (wait > (opts.maxWaitMs ?? Infinity) || opts.stop?.aborted) return -1;
  if (wait > 0) await (opts.sleep ?? ((ms: number) => stoppableSleep(ms, opts.stop)))(wait);
  return opts.stop?.aborted ? -1 : wait;
}

function stoppableSleep(ms: number, stop: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((res) => {
    const done = (): void => (clearTimeout(timer), stop?.removeEventListener('abort', done), res());
    const timer = setTimeout(done, ms);
    stop?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Milliseconds until a push keeps at most `rate` pushes in any 60 s window.
 * @example nextPushDelay([0, 1000], 2, 30_000) === 30_000
 */
export function nextPushDelay(pushes: number[], rate: number, now: number): number {
  const recent = pushes.filter((t) => now - t < 60_000).sort((a, b) => a - b);
  if (recent.length < rate) return 0;
  return Math.max(0, (recent[recent.length - rate] ?? now) + 60_000 - now);
}

function readPushes(memoryDir: string): number[] {
  try {
    const v: unknown = JSON.parse(readFileSync(join(resolveGitCommonDir(memoryDir), PUSH_LOG), 'utf8'));
    return Array.isArray(v) ? v.filter((t): t is number => typeof t === 'number') : [];
  } catch {
    return [];
  }
}

function recordPush(memoryDir: string, at: number): void {
  const file = join(resolveGitCommonDir(memoryDir), PUSH_LOG);
  const kept = [...readPushes(memoryDir).filter((t) => at - t < 60_000), at].slice(-600);
  writeFileSync(`${file}.tmp`, JSON.stringify(kept));
  renameSync(`${file}.tmp`, file);
}
