/**
 * The post-turn sync, run after every agent turn: report a conflict or dirty tree, push
 * pending commits, and on a non-fast-forward rebase and push again. Never commits on the agent's behalf,
 * never reports `clean` while local commits are unpushed, never throws for git failures.
 */
import { countAhead, integrateRemote } from './integrate.js';
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

const MAX_REBASE_ROUNDS = 2;

/**
 * Runs the post-turn state machine. Outcomes: skipped, conflict, rejected, dirty, no_remote, clean, pushed, push_failed.
 * @example const r = await syncAfterTurn({ git, memoryDir, credentials }); if (r.status === 'dirty') remind(r.summary)
 */
export async function syncAfterTurn(opts: SyncOptions): Promise<SyncResult> {
  try {
    return await runAfterTurn(opts);
  } catch (err) {
    return failedResult(opts.memoryDir, err);
  }
}

async function runAfterTurn(opts: SyncOptions): Promise<SyncResult> {
  const prepared = await prepareSync(opts);
  if ('done' in prepared) return prepared.done;
  const { ctx, state } = prepared;
  const dir = opts.memoryDir;
  const known = state.upstream !== null && state.ahead !== null;
  const ahead = state.oid === null ? 0 : known ? (state.ahead ?? 0) : await countAhead(ctx);
  if (ahead === 0) {
    return { ...baseResult(dir), status: 'clean', summary: 'Memory repo is clean and has no pending commits to push.' };
  }
  const setUpstream = state.upstream === null;
  let failure = await pushMain(ctx, setUpstream);
  if (!failure)
    return {
      ...baseResult(dir),
      status: 'pushed',
      summary: `Pushed ${ahead} pending memory commit(s).`,
      pushed: ahead,
    };
  let hint = prepared.hint;
  let pulled = 0;
  for (let round = 1; failure.kind === 'non_fast_forward' && round <= MAX_REBASE_ROUNDS; round++) {
    const r = await integrateRemote(ctx, hint);
    pulled += r.pulled;
    if (r.outcome === 'conflict') return conflictResult(dir, r, ctx.onConflict, pulled - r.pulled);
    if (r.outcome === 'rejected') return rejectedResult(dir, r, pulled);
    const extra = { pulled, ...(r.backupRef ? { backupRef: r.backupRef } : {}) };
    if (r.ahead === 0)
      return { ...baseResult(dir), ...extra, status: 'clean', summary: 'The remote already has every local commit.' };
    failure = await pushMain(ctx, setUpstream);
    if (!failure) {
      const summary = `Rebased and pushed ${r.ahead} pending memory commit(s).`;
      return { ...baseResult(dir), ...extra, status: 'pushed', summary, pushed: r.ahead };
    }
    hint = await headOnlyHint(ctx);
  }
  return failedResult(dir, failure, { pulled });
}
