/**
 * `gitmem sync`: pull (fast-forward, else rebase the local commits on top), then push. Bounded rounds
 * absorb a remote that moves between our fetch and our push. Never commits; never drops a commit.
 */
import { integrateRemote } from './integrate.js';
import type { FetchOutcome, IntegrateResult } from './integrate-input.js';
import {
  baseResult,
  conflictResult,
  failedResult,
  headOnlyHint,
  prepareSync,
  pushMain,
  rejectedResult,
} from './outcome.js';
import type { SyncOptions, SyncResult } from './types.js';

const MAX_ROUNDS = 3;

/**
 * Two-way sync of main with origin.
 * @example const r = await syncMemory({ git, memoryDir, credentials, onConflict: 'keep-branch' });
 */
export async function syncMemory(opts: SyncOptions): Promise<SyncResult> {
  const prepared = await prepareSync(opts, true);
  if ('done' in prepared) return prepared.done;
  const { ctx, state } = prepared;
  let fetched: FetchOutcome | undefined = prepared.fetched;
  let hint = prepared.hint;
  let pulled = 0;
  let backupRef: string | undefined;
  for (let round = 1; ; round++) {
    let r: IntegrateResult;
    try {
      r = await integrateRemote(ctx, hint, fetched);
      fetched = undefined; // later rounds fetch again
    } catch (err) {
      return failedResult(opts.memoryDir, err, { pulled });
    }
    pulled += r.pulled;
    backupRef ??= r.backupRef;
    const keep = { pulled, ...(backupRef ? { backupRef } : {}) };
    if (r.outcome === 'conflict') return { ...conflictResult(opts.memoryDir, r, ctx.onConflict), ...keep };
    if (r.outcome === 'rejected') return { ...rejectedResult(opts.memoryDir, r), ...keep };
    if (r.ahead === 0) return { ...baseResult(opts.memoryDir), ...keep, status: 'clean', summary: upToDate(pulled) };
    let failure;
    try {
      failure = await pushMain(ctx, state.upstream === null);
    } catch (err) {
      return failedResult(opts.memoryDir, err, keep); // SECRET_DETECTED: nothing pushed, main as it was
    }
    if (!failure) {
      const summary = `${pulled > 0 ? `Pulled ${pulled} and pushed` : 'Pushed'} ${r.ahead} memory commit(s).`;
      return { ...baseResult(opts.memoryDir), ...keep, status: 'pushed', summary, pushed: r.ahead };
    }
    if (failure.kind !== 'non_fast_forward' || round >= MAX_ROUNDS) return failedResult(opts.memoryDir, failure, keep);
    hint = await headOnlyHint(ctx);
  }
}

function upToDate(pulled: number): string {
  return pulled > 0
    ? `Pulled ${pulled} memory commit(s); nothing to push.`
    : 'Memory repo is up to date with the remote.';
}
