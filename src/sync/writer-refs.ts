/**
 * `sync.mode = writer-refs`: each writer (agent + machine) pushes only `refs/heads/writers/<agent>/<machine>`,
 * so writers never contend for `main`'s ref lock; an integrator (integrate-writers.ts) merges them into main.
 * The writer still pulls main first (validated as plain sync does, and merged: a rebase would rewrite commits
 * the integrator may already be merging, landing them twice), so its ref stays a descendant of main.
 * A push that loses a ref race (`cannot lock ref`, a stale old value) is retried with backoff and jitter.
 */
import { hostname } from 'node:os';
import { MemoryError } from '../errors.js';
import { GitCommandError } from '../git/runner.js';
import { integrateRemote } from './integrate.js';
import { baseResult, conflictResult, failedResult, prepareSync, rejectedResult } from './outcome.js';
import { assertNoSecretsToPush } from './push-scan.js';
import { runOpts, type IntegrateInput } from './integrate-input.js';
import type { SyncOptions, SyncResult } from './types.js';

export const WRITER_REF_PREFIX = 'refs/heads/writers/';
export type SyncMode = 'main' | 'writer-refs';
/** Who moves main in writer-refs mode: `gitmem integrate` run separately, or the writer holding the lease. */
export type SyncIntegrator = 'external' | 'lease';

/** The `sync` object of `$GITMEM_HOME/config`, checked. */
export interface SyncSettings {
  mode: SyncMode;
  /** This machine's id in writer refs (default: the host name, cleaned). */
  machine: string;
  /** The integrator's pushes to main per minute (default 6, GitHub's advice). */
  pushesPerMinute: number;
  /** Default `external`: writers that may not push main (the gitolite and forge recipes) need no change. */
  integrator: SyncIntegrator;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
export const DEFAULT_PUSHES_PER_MINUTE = 6;

/**
 * One segment of a writer ref: letters, digits, `.`, `-` and `_`, starting with a letter or digit; no `..`, no
 * trailing `.` or `.lock` (git's ref rules), no slashes.
 * @example writerSegment('agent', 'a1') === 'a1'
 */
export function writerSegment(what: string, value: string): string {
  if (!SEGMENT.test(value) || value.includes('..') || value.endsWith('.') || value.endsWith('.lock'))
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${what} ${JSON.stringify(value.slice(0, 40))} cannot name a writer ref (letters, digits, ., - and _; at most 63; no .., no trailing . or .lock)`,
    );
  return value;
}

/**
 * @example writerRef('a1', 'laptop') === 'refs/heads/writers/a1/laptop'
 */
export function writerRef(agent: string, machine: string): string {
  return `${WRITER_REF_PREFIX}${writerSegment('agent id', agent)}/${writerSegment('machine id', machine)}`;
}

/** The host name as a writer-ref segment. */
export function defaultMachine(): string {
  const h = hostname()
    .replace(/[^A-Za-z0-9_-]/g, '-')
    .replace(/^-+/, '')
    .slice(0, 63);
  return h === '' ? 'machine' : h;
}

/**
 * Reads the `sync` object of the config file: `{ "sync": { "mode": "writer-refs", "machine": "m1", "pushesPerMinute": 6,
 * "integrator": "lease" } }`.
 * @example syncSettings({}).mode === 'main'
 */
export function syncSettings(file: Record<string, unknown>): SyncSettings {
  const raw = file['sync'];
  const s = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  if (raw !== undefined && s !== raw) throw bad('"sync" must be an object');
  const mode = s['mode'] ?? 'main';
  if (mode !== 'main' && mode !== 'writer-refs') throw bad('sync.mode must be "main" or "writer-refs"');
  const machine = s['machine'] ?? defaultMachine();
  if (typeof machine !== 'string') throw bad('sync.machine must be a string');
  const rate = s['pushesPerMinute'] ?? DEFAULT_PUSHES_PER_MINUTE;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 1 || rate > 600)
    throw bad('sync.pushesPerMinute must be an integer from 1 to 600');
  const integrator = s['integrator'] ?? 'external';
  if (integrator !== 'external' && integrator !== 'lease') throw bad('sync.integrator must be "external" or "lease"');
  return { mode, machine: writerSegment('machine id', machine), pushesPerMinute: rate, integrator };
}

const bad = (why: string): MemoryError => new MemoryError('INVALID_ARGUMENT', `invalid gitmem config: ${why}`);

/** Server answers that mean "another push held or moved the ref": retried, never shown as a failure. */
const REF_RACE = /cannot lock ref|failed to update ref|incorrect old value|Unable to create '[^']*\.lock'|stale info/i;

const KEEP_KIND = new Set(['auth', 'host_key', 'dns', 'redirect', 'transient', 'missing_cwd']);

export interface WriterSyncOptions extends SyncOptions {
  agent: string;
  machine: string;
  /** Attempts of the push (default 6). */
  attempts?: number;
  /** Injected for tests and the bench. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface WriterSyncResult extends SyncResult {
  /** The ref this writer pushes. */
  ref: string;
  /** Pushes retried after losing a ref race. */
  retries: number;
}

/**
 * Pull main (validated as plain sync does, merged rather than rebased), then push HEAD to this writer's own ref.
 * @example await syncWriterRef({ git, memoryDir, agent: 'a1', machine: 'm1' })
 */
export async function syncWriterRef(opts: WriterSyncOptions): Promise<WriterSyncResult> {
  let ref: string;
  try {
    ref = writerRef(opts.agent, opts.machine);
  } catch (err) {
    return { ...failedResult(opts.memoryDir, err), ref: '', retries: 0 };
  }
  const extra = { ref, retries: 0 };
  const prepared = await prepareSync(opts, true);
  if ('done' in prepared) return { ...prepared.done, ...extra };
  const { ctx } = prepared;
  let r;
  try {
    // Merged, not rebased: commits already on this writer's ref may be in the integrator's hands.
    r = await integrateRemote(ctx, prepared.hint, prepared.fetched, { merge: true });
  } catch (err) {
    return { ...failedResult(opts.memoryDir, err), ...extra };
  }
  const keep = { pulled: r.pulled, ...(r.backupRef ? { backupRef: r.backupRef } : {}), ...extra };
  if (r.outcome === 'conflict') return { ...conflictResult(opts.memoryDir, r, ctx.onConflict), ...keep };
  if (r.outcome === 'rejected') return { ...rejectedResult(opts.memoryDir, r), ...keep };
  if (r.ahead === 0) return { ...baseResult(opts.memoryDir), ...keep, status: 'clean', summary: 'Nothing to push.' };
  try {
    await assertNoSecretsToPush(ctx.git, ctx.memoryDir, ctx.signal);
    const retries = await pushWithBackoff(ctx, ref, opts);
    const summary = `Pushed ${r.ahead} memory commit(s) to ${ref.slice('refs/heads/'.length)}.`;
    return { ...baseResult(opts.memoryDir), ...keep, retries, status: 'pushed', summary, pushed: r.ahead };
  } catch (err) {
    return { ...failedResult(opts.memoryDir, err, keep), ...extra };
  }
}

/**
 * Force-pushes HEAD to `ref` (only this writer writes it; the integrator only reads it). A lost ref race is
 * retried after 100·2^n ms plus up to as much jitter; a refusal by the server is a PUSH_FAILED naming the ref.
 */
async function pushWithBackoff(ctx: IntegrateInput, ref: string, opts: WriterSyncOptions): Promise<number> {
  const attempts = opts.attempts ?? 6;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((res) => setTimeout(res, ms)));
  const random = opts.random ?? Math.random;
  for (let n = 0; ; n++) {
    try {
      await ctx.git.run(['push', '--quiet', 'origin', `+HEAD:${ref}`], runOpts(ctx, true));
      return n;
    } catch (err) {
      if (!(err instanceof GitCommandError)) throw err;
      const text = `${err.stderr}\n${err.message}`;
      if (REF_RACE.test(text) && n + 1 < attempts) {
        const base = 100 * 2 ** n;
        await sleep(base + Math.floor(random() * base));
        continue;
      }
      if (KEEP_KIND.has(err.kind)) throw err; // GIT_AUTH, GIT_TRANSIENT...: their own code and hint
      throw pushRefused(ref, text, err);
    }
  }
}

/**
 * A push the server refused, in one line: gitolite's `DENIED`, a forge's protected branch, or a hook's refusal.
 * @example throw pushRefused('refs/heads/main', stderr, err)
 */
export function pushRefused(ref: string, text: string, cause: unknown): MemoryError {
  const line =
    text
      .split('\n')
      .map((l) => l.replace(/^remote:\s*/, '').trim())
      .find((l) => /denied|refused|not allowed|protected|rejected/i.test(l)) ?? 'the push failed';
  return new MemoryError('PUSH_FAILED', `the server refused the push to ${ref}: ${line.slice(0, 200)}`, { cause });
}
