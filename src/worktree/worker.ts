/**
 * The memory worker: a background writer the primary never waits for. An update worker edits a
 * private worktree and is merged back under the lease (or discarded when cancelled); a repair worker works
 * on the checkout itself, holding the lease throughout, and what it committed is validated (repair.ts).
 */
import { withMemoryOperation } from '../git/lease.js';
import { MemoryError, toMemoryError } from '../errors.js';
import { createMemoryWorktree, type MemoryWorktree } from './create.js';
import { discardWorktree } from './cleanup.js';
import { bodyGitEnv } from './git-env.js';
import { countWorktreeCommits, worktreeDirtyPaths } from './inspect.js';
import { integrateWorkerWorktree } from './integrate.js';
import { materializePaths } from './materialize.js';
import { pruneOrphanWorktrees } from './prune.js';
import { runRepairWorker } from './repair.js';
import type {
  EarlyStartingBody,
  MemoryWorkerBody,
  MemoryWorkerDeps,
  MemoryWorkerOutcome,
  MemoryWorkerTask,
  ParentRefresh,
} from './worker-types.js';

/** A started worker: its eventual outcome and a way to cancel it. */
export interface MemoryWorkerHandle {
  outcome: Promise<MemoryWorkerOutcome>;
  cancel: () => void;
}

/**
 * Starts a worker and returns at once (the primary does not await it); `cancel()` discards it.
 * @example const w = startMemoryWorker({ memoryDir }, body, { git }); ...; w.cancel();
 */
export function startMemoryWorker(
  task: MemoryWorkerTask,
  body: MemoryWorkerBody,
  deps: MemoryWorkerDeps,
): MemoryWorkerHandle {
  const controller = new AbortController();
  const signal = task.signal ? AbortSignal.any([task.signal, controller.signal]) : controller.signal;
  const outcome = runMemoryWorker({ ...task, signal }, body, deps);
  outcome.catch(() => undefined); // the caller may never look; the rejection is still delivered to it when it does
  return { outcome, cancel: () => controller.abort() };
}

/**
 * Runs one worker to its outcome: `no_changes`, `merged`, `merge_conflict` or `rejected` (branch kept), or `discarded`.
 * Throws only for infrastructure failures (git broken, lease timeout), never for a body's own failure.
 * @example const out = await runMemoryWorker({ memoryDir, description: 'merge office days' }, async (ctx) => { ... }, { git });
 */
export async function runMemoryWorker(
  task: MemoryWorkerTask,
  body: MemoryWorkerBody,
  deps: MemoryWorkerDeps,
): Promise<MemoryWorkerOutcome> {
  if (deps.pruneOrphans !== false) {
    // housekeeping only: a failure here must not stop the worker (its own git calls report real trouble)
    await pruneOrphanWorktrees({
      memoryDir: task.memoryDir,
      git: deps.git,
      lease: deps.lease,
    }).catch(() => undefined);
  }
  if ((task.type ?? 'update') === 'repair') return runRepairWorker(task, body, deps);
  const signal = task.signal ?? new AbortController().signal;
  const type = 'update' as const;
  if (signal.aborted)
    return { type, status: 'discarded', reason: 'cancelled', branchName: '', commitCount: 0, uncommittedPaths: [] };
  // A sandboxed body starts while its worktree is still being checked out (it waits for it before its writer runs).
  const early = (body as EarlyStartingBody).startsBeforeCheckout === true;
  const wt = await createMemoryWorktree({
    deferCheckout: early,
    memoryDir: task.memoryDir,
    kind: task.kind ?? 'worker',
    git: deps.git,
    paths: task.paths,
    now: deps.now,
    randomHex: deps.randomHex,
    lease: deps.lease,
  });
  const checkedOut = wt.checkout ?? Promise.resolve();
  if (!early) await checkedOut;
  const failure = await runBody(wt, task, body, signal, deps, checkedOut);
  await checkedOut.catch((err: unknown) => failedCheckout(wt, deps, err));
  if (failure !== null && !signal.aborted) {
    return discardUnderLease(wt, deps, 'body_failed', failure.message);
  }
  if (signal.aborted) return discardUnderLease(wt, deps, 'cancelled');
  const uncommitted = worktreeDirtyPaths(deps.git, wt).catch(() => []); // while the lease and the refresh are awaited
  const refresh = await prepareRefresh(deps);
  return integrateWorkerWorktree(
    wt,
    {
      description: task.description,
      signal,
      uncommitted,
      refresh,
    },
    deps,
  );
}

/** The network half of the checkout's refresh, outside the lease; a failure to prepare it only skips it. */
async function prepareRefresh(deps: MemoryWorkerDeps): Promise<ParentRefresh | undefined> {
  if (!deps.refreshParent) return undefined;
  const prepare = deps.refreshParent;
  return Promise.resolve()
    .then(prepare)
    .catch((err: unknown) => ({ skipped: toMemoryError(err).message, apply: async () => undefined }));
}

/** Runs the body; resolves to its error (null on success). On cancellation, waits a grace period at most. */
async function runBody(
  wt: MemoryWorktree,
  task: MemoryWorkerTask,
  body: MemoryWorkerBody,
  signal: AbortSignal,
  deps: MemoryWorkerDeps,
  checkedOut: Promise<void>,
): Promise<Error | null> {
  const settled = Promise.resolve()
    .then(() =>
      body({
        type: 'update',
        task,
        worktreeDir: wt.worktreeDir,
        branch: wt.branchName,
        baseHead: wt.baseHead,
        signal,
        gitEnv: bodyGitEnv(wt),
        materialize: (paths) => materializePaths(wt, paths, deps.git),
        checkedOut,
      }),
    )
    .then(
      () => null,
      (err: unknown) => toMemoryError(err) as Error,
    );
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (signal.aborted) resolve('cancelled');
    else signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  const first = await Promise.race([settled, cancelled]);
  if (first !== 'cancelled') return first;
  const grace = new Promise<null>((r) => setTimeout(() => r(null), deps.cancelGraceMs ?? 5_000).unref());
  return Promise.race([settled, grace]);
}

/** A checkout that failed after an early start: the worktree goes, and the worker fails as its creation would have. */
async function failedCheckout(wt: MemoryWorktree, deps: MemoryWorkerDeps, err: unknown): Promise<never> {
  await withMemoryOperation(wt.parentMemoryDir, () => discardWorktree(wt, deps.git), {
    purpose: `discard ${wt.branchName}`,
    ...deps.lease,
  }).catch(() => undefined);
  const e = toMemoryError(err, 'WORKTREE_ERROR');
  throw new MemoryError('WORKTREE_ERROR', `could not prepare worktree ${wt.worktreeDir}: ${e.message}`, {
    cause: err,
    data: { worktreeDir: wt.worktreeDir },
  });
}

async function discardUnderLease(
  wt: MemoryWorktree,
  deps: MemoryWorkerDeps,
  reason: 'cancelled' | 'body_failed',
  error?: string,
): Promise<MemoryWorkerOutcome> {
  return withMemoryOperation(
    wt.parentMemoryDir,
    async (): Promise<MemoryWorkerOutcome> => {
      const uncommittedPaths = await worktreeDirtyPaths(deps.git, wt).catch(() => []);
      const commitCount = await countWorktreeCommits(deps.git, wt); // nothing is imported: the work is dropped
      await discardWorktree(wt, deps.git);
      const out: MemoryWorkerOutcome = {
        type: 'update',
        status: 'discarded',
        reason,
        branchName: wt.branchName,
        commitCount,
        uncommittedPaths,
      };
      return error === undefined ? out : { ...out, error };
    },
    { purpose: `discard ${wt.branchName}`, ...deps.lease },
  );
}
