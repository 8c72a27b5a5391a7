/**
 * Brings a checkout up to date with its remote before a background writer's branch is merged into it, so
 * the merge is computed against what the next sync pushes onto: a conflicting remote edit is a merge
 * conflict now (branch kept), not a local merge the next sync cannot push. Two halves, because network time
 * must not block the agent's writes: the fetch runs outside the operation lease; integrating the fetched
 * main (fast-forward, or rebase of unpushed commits; on a conflict main stays as it was) runs under it,
 * right before the merge.
 */
import { MemoryError, toMemoryError } from '../errors.js';
import type { GitRetryPolicy, GitRunner } from '../git/runner.js';
import type { GitCredentials } from './credentials.js';
import { fetchMain, integrateRemote } from './integrate.js';
import type { FetchOutcome, IntegrateInput } from './integrate-input.js';
import { contextFor } from './outcome.js';
import { getOriginUrl } from './remote.js';
import { conflictSummary, listPaths, readRepoState } from './repo-state.js';

export interface ParentRefreshOptions {
  git: GitRunner;
  /** The checkout a branch is about to be merged into. */
  memoryDir: string;
  /** The configured home: its `config` holds the system/ budget incoming commits are held to (validate-move.ts). */
  home?: string | undefined;
  credentials?: GitCredentials;
  signal?: AbortSignal;
  /** Retry policy of the fetch (default: the network policy). */
  retry?: GitRetryPolicy;
}

/** A refresh whose network half is done. */
export interface PreparedRefresh {
  /**
   * Why the checkout will not be refreshed although it has a remote (the fetch failed: unreachable,
   * authentication, …). The merge then stays local; the next sync integrates it like any offline write.
   */
  skipped?: string;
  /**
   * Run under the lease right before the merge: moves main onto the fetched remote main. Throws
   * SYNC_CONFLICT (data.paths) when unpushed local commits conflict with it; main is then unchanged.
   */
  apply(): Promise<void>;
}

const nothing = async (): Promise<void> => undefined;

/**
 * Fetches origin's main for a refresh (no remote, or an empty one: nothing to do).
 * @example const refresh = await prepareParentRefresh({ git, memoryDir }); ...under the lease: await refresh.apply();
 */
export async function prepareParentRefresh(o: ParentRefreshOptions): Promise<PreparedRefresh> {
  let ctx: IntegrateInput;
  let fetched: FetchOutcome;
  try {
    const url = await getOriginUrl(o.git, o.memoryDir);
    if (url === null) return { apply: nothing };
    ctx = contextFor({ ...o, onConflict: 'fail' }, url);
    fetched = await fetchMain(ctx);
  } catch (err) {
    return { skipped: `could not fetch from the remote: ${toMemoryError(err).message}`, apply: nothing };
  }
  if (!fetched.found) return { apply: nothing };
  return { apply: () => applyRefresh(ctx, fetched) };
}

async function applyRefresh(ctx: IntegrateInput, fetched: FetchOutcome): Promise<void> {
  const state = await readRepoState(ctx.git, ctx.memoryDir, ctx.signal);
  // Only main follows the remote, and a rebase needs a clean tree: otherwise the checkout stays as it is
  // and the merge itself reports whatever is in its way.
  if (!state || state.branch !== 'main' || state.oid === null || state.changed.length > 0 || conflictSummary(state))
    return;
  const hint = { head: state.oid, upstream: null, ahead: null, behind: null, remoteBefore: undefined };
  const r = await integrateRemote(ctx, hint, fetched);
  if (r.outcome !== 'conflict') return;
  const paths = r.conflictPaths ?? [];
  throw new MemoryError(
    'SYNC_CONFLICT',
    `unpushed local commits conflict with the remote (${listPaths(paths)}); main was left as it was: run gitmem sync and resolve`,
    { data: { paths } },
  );
}
