/**
 * The steps `gitmem sync` and the post-turn sync share: the pre-checks (not a repository, a merge or rebase
 * in progress, uncommitted changes, no remote — in that order), the push
 * of main, and the result builders (every message redacted, every failure carrying its stable code).
 */
import { isMemoryError } from '../errors.js';
import { GitCommandError, type GitAuth } from '../git/runner.js';
import { withMemoryOperation } from '../git/lease.js';
import { recoverInterruptedWrite } from '../memfs/journal.js';
import { redactText } from '../git/redact.js';
import { revParseOp } from '../git/commands/plumbing.js';
import { readRefQuick } from '../git/read-ref.js';
import { authForRemote } from './credentials.js';
import { fetchMain } from './integrate.js';
import {
  REMOTE_MAIN,
  runOpts,
  type FetchOutcome,
  type IntegrateInput,
  type IntegrateResult,
} from './integrate-input.js';
import type { SyncHint } from './quick-relation.js';
import { assertNoCredentialInUrl, getOriginUrl } from './remote.js';
import { conflictSummary, gitDirOf, listPaths, readRepoState, type RepoState } from './repo-state.js';
import {
  CONFLICT_POLICIES,
  DEFAULT_CONFLICT_POLICY,
  parseConflictPolicy,
  type ConflictPolicy,
} from './conflict-policy.js';
import type { SyncOptions, SyncResult } from './types.js';
import { assertNoSecretsToPush } from './push-scan.js';

export interface Prepared {
  ctx: IntegrateInput;
  state: RepoState;
  url: string;
  /** What integration may take as known: the status, and origin/main as it was before it ran. */
  hint: SyncHint;
  /** With `prefetch`: what the fetch found (it already ran, concurrently with status). */
  fetched?: FetchOutcome;
}

/**
 * Rows 1–4 of the state machine: not a repo ⇒ skipped, merge/rebase/unmerged ⇒ conflict,
 * uncommitted changes ⇒ dirty, no origin ⇒ no_remote. Otherwise the context for the network steps.
 * With `prefetch`, origin's main is fetched while the work tree is being checked (a fetch only moves
 * refs/remotes/origin/main, so it is harmless even when the checks then stop the sync).
 * @example const p = await prepareSync(opts); if ('done' in p) return p.done;
 */
export async function prepareSync(opts: SyncOptions, prefetch = false): Promise<{ done: SyncResult } | Prepared> {
  const base = baseResult(opts.memoryDir);
  const gitDir = gitDirOf(opts.memoryDir);
  if (!gitDir) return { done: { ...base, status: 'skipped', summary: 'Memory repo is not initialized.' } };
  const url = await getOriginUrl(opts.git, opts.memoryDir);
  try {
    if (url !== null) assertNoCredentialInUrl(url); // git would show it on its HTTP helper's command line
  } catch (err) {
    return { done: failedResult(opts.memoryDir, err) };
  }
  const ctx = url === null ? undefined : contextFor(opts, url);
  // Read before the status and the fetch start, so "origin/main did not move" can be checked later.
  // From the ref file when that is plain (objectReads: 12-33% of the post-turn check), else git.
  const remoteBefore =
    readRefQuick(gitDir, REMOTE_MAIN) ??
    (await opts.git.exec(revParseOp(REMOTE_MAIN), { cwd: opts.memoryDir })) ??
    undefined;
  const fetching = prefetch && ctx ? settle(fetchMain(ctx)) : undefined;
  let state = await readRepoState(opts.git, opts.memoryDir, opts.signal);
  const fetched = await fetching;
  try {
    if (state && state.changed.length > 0) state = await settledState(opts);
  } catch (err) {
    return { done: failedResult(opts.memoryDir, err) };
  }
  if (!state) return { done: { ...base, status: 'skipped', summary: 'Memory repo is not initialized.' } };
  const conflict = conflictSummary(state);
  if (conflict) return { done: { ...base, status: 'conflict', summary: conflict, conflictPaths: state.unmerged } };
  if (state.changed.length > 0) {
    return { done: { ...base, status: 'dirty', summary: `${state.changed.length} uncommitted memory change(s).` } };
  }
  if (url === null || !ctx) {
    const summary = 'No remote is configured; set one with `gitmem remote set <url>`.';
    return { done: { ...base, status: 'no_remote', summary, localOnly: true } };
  }
  if (state.branch !== 'main') {
    const where = state.branch === null ? 'a detached HEAD' : `branch '${state.branch}'`;
    const summary = `Memory repo is on ${where}, not main; check out main to sync.`;
    return { done: { ...base, status: 'push_failed', summary, error: { code: 'PUSH_FAILED', message: summary } } };
  }
  if (fetched && 'error' in fetched) return { done: failedResult(opts.memoryDir, fetched.error) };
  const hint: SyncHint = {
    head: state.oid,
    upstream: state.upstream,
    ahead: state.ahead,
    behind: state.behind,
    remoteBefore,
  };
  return { ctx, state, url, hint, ...(fetched ? { fetched: fetched.value } : {}) };
}

/**
 * The repository state once no tool write is in flight. A write puts its files in the work tree a moment
 * before HEAD and the index move, all under the operation lease; so a status that shows changes is taken
 * again holding the lease, after finishing any write a killed process left journaled. Only what is still
 * there is the user's uncommitted work. (Called only when the first look saw changes: a clean tree costs
 * no lease.)
 */
async function settledState(opts: SyncOptions): Promise<RepoState | undefined> {
  const lease = { purpose: 'sync (clean check)', signal: opts.signal };
  return withMemoryOperation(
    opts.memoryDir,
    async () => {
      await recoverInterruptedWrite(opts.git, opts.memoryDir);
      return readRepoState(opts.git, opts.memoryDir, opts.signal);
    },
    lease,
  );
}

/**
 * A hint that knows only main's current commit (after a round moved it): integration counts afresh.
 * @example hint = await headOnlyHint(ctx)
 */
export async function headOnlyHint(ctx: IntegrateInput): Promise<SyncHint> {
  const head = (await ctx.git.run(['rev-parse', 'HEAD'], runOpts(ctx))).stdout.trim();
  return { head, upstream: null, ahead: null, behind: null, remoteBefore: undefined };
}

/**
 * The integration context of a sync (or a refresh) against `url`: its credentials scoped to that host.
 * @example const ctx = contextFor({ git, memoryDir, onConflict: 'fail' }, url)
 */
export function contextFor(opts: SyncOptions, url: string): IntegrateInput {
  const auth: GitAuth | undefined = opts.auth ?? authForRemote(opts.credentials, url);
  return {
    git: opts.git,
    memoryDir: opts.memoryDir,
    home: opts.home,
    auth,
    remoteUrl: url,
    onConflict: parseConflictPolicy(opts.onConflict ?? DEFAULT_CONFLICT_POLICY),
    clock: opts.clock ?? (() => new Date()),
    signal: opts.signal,
    retry: opts.retry,
  };
}

function settle<T>(p: Promise<T>): Promise<{ value: T } | { error: unknown }> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/**
 * Pushes main to origin (with retry). Returns the failure instead of throwing, so callers can branch on
 * non-fast-forward. First scans the commits about to leave for credentials (a `--no-verify` commit skipped
 * the hook): a hit throws SECRET_DETECTED and nothing is pushed.
 * @example const failure = await pushMain(ctx, true); if (!failure) ...pushed
 */
export async function pushMain(ctx: IntegrateInput, setUpstream: boolean): Promise<GitCommandError | undefined> {
  await assertNoSecretsToPush(ctx.git, ctx.memoryDir, ctx.signal);
  const args = ['push', '--quiet', ...(setUpstream ? ['-u'] : []), 'origin', 'refs/heads/main:refs/heads/main'];
  try {
    await ctx.git.run(args, runOpts(ctx, true));
    return undefined;
  } catch (err) {
    if (err instanceof GitCommandError) return err;
    throw err;
  }
}

/** A result with the fields every outcome has. */
export function baseResult(memoryDir: string): Omit<SyncResult, 'status' | 'summary'> {
  return { memoryDir, localOnly: false, pushed: 0, pulled: 0 };
}

/**
 * `push_failed` from any thrown value, redacted, keeping the error's code.
 * @example return failedResult(dir, err, { pulled })
 */
export function failedResult(memoryDir: string, err: unknown, extra: Partial<SyncResult> = {}): SyncResult {
  const code = isMemoryError(err) ? err.code : 'PUSH_FAILED';
  const message = isMemoryError(err) ? err.message : redactText(err instanceof Error ? err.message : String(err));
  return { ...baseResult(memoryDir), ...extra, status: 'push_failed', summary: message, error: { code, message } };
}

/**
 * `rejected` from an integration that found the remote's commits breaking the memory rules: main did not move.
 * @example if (r.outcome === 'rejected') return rejectedResult(dir, r)
 */
export function rejectedResult(memoryDir: string, r: IntegrateResult, pulledBefore = 0): SyncResult {
  const rejection = r.rejection;
  const problems = rejection?.problems ?? [];
  const branch = rejection?.branch ?? '';
  const pending = r.ahead > 0 ? ` with ${r.ahead} local commit(s) not pushed` : '';
  const summary =
    `The remote's main (${rejection?.tip.slice(0, 12) ?? '?'}) breaks the memory rules; main was left as it was${pending} and the remote's commits are kept on ${branch}: ` +
    `${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; … and ${problems.length - 3} more` : ''}`;
  return {
    ...baseResult(memoryDir),
    status: 'rejected',
    summary,
    pulled: pulledBefore,
    keptBranch: branch,
    problems,
    error: { code: 'REMOTE_REJECTED', message: summary },
  };
}

/**
 * `conflict` from an integration that stopped on conflicting changes.
 * @example if (r.outcome === 'conflict') return conflictResult(dir, r)
 */
export function conflictResult(
  memoryDir: string,
  r: IntegrateResult,
  policy: ConflictPolicy,
  pulledBefore = 0,
): SyncResult {
  const paths = r.conflictPaths ?? [];
  const what = `conflicted file(s): ${listPaths(paths)}`;
  return {
    ...baseResult(memoryDir),
    status: 'conflict',
    summary: CONFLICT_POLICIES[policy].summary(r, what),
    pulled: pulledBefore + r.pulled,
    conflictPaths: paths,
    ...(r.keptBranch ? { keptBranch: r.keptBranch } : {}),
    ...(r.backupRef ? { backupRef: r.backupRef } : {}),
  };
}
