/**
 * The completion half of a reflection run: turn the worktree into an outcome (finalize, or a
 * dry run's diff, or a branch kept for review — each starts by importing the sub-agent's commits from its
 * private object directory), move the cursor only when the outcome consumed the transcript, signal a
 * recompile only after a merge, and record the run in the agent's run log.
 */
import { rmSync } from 'node:fs';
import { MemoryError, toMemoryError, type MemoryErrorCode } from '../errors.js';
import { withMemoryOperation } from '../git/lease.js';
import { appendRunLog } from './run-log.js';
import type { SubAgentRun } from '../llm/sub-agent.js';
import { discardWorktree, removeWorktreeDir } from '../worktree/cleanup.js';
import { finalizeReflectionWorktree } from '../worktree/finalize.js';
import { consumesTranscript, shouldRecompile } from '../worktree/finalize-result.js';
import { importWorktreeCommits, type ImportedWork } from '../worktree/import.js';
import { countWorktreeCommits, worktreeDirtyPaths } from '../worktree/inspect.js';
import { advanceCursor } from './cursor.js';
import { outcomeMessage } from './messages.js';
import { refreshForMerge } from './parent-refresh.js';
import type { PreparedReflection } from './prepare.js';
import type { ReflectionCompleted, ReflectionRunOptions, ReflectionStatus } from './run-types.js';

/** How the sub-agent ended. */
export interface AgentEnd {
  run?: SubAgentRun;
  error?: string;
  errorCode?: MemoryErrorCode;
  model: string;
  startedAt: Date;
  /** Date.now() when the run started (durations use the real clock). */
  t0: number;
}

type Outcome = Pick<
  ReflectionCompleted,
  | 'status'
  | 'commitCount'
  | 'head'
  | 'branchKept'
  | 'conflictingPaths'
  | 'diff'
  | 'error'
  | 'errorCode'
  | 'refreshError'
> & {
  summary: string;
};

/** Imports the worktree's commits under the lease, so its branch exists; the error when that is refused. */
async function importUnderLease(o: ReflectionRunOptions, p: PreparedReflection): Promise<ImportedWork | MemoryError> {
  return withMemoryOperation(p.wt.parentMemoryDir, () => importWorktreeCommits(p.wt, o.git), {
    purpose: `import ${p.wt.branchName}`,
  }).catch((err: unknown) => toMemoryError(err));
}

/** Dry run: the diff the branch would bring in; then everything is thrown away. */
async function dryRun(o: ReflectionRunOptions, p: PreparedReflection): Promise<Outcome> {
  const imported = await importUnderLease(o, p);
  const discard = (): Promise<void> =>
    withMemoryOperation(p.wt.parentMemoryDir, () => discardWorktree(p.wt, o.git), {
      purpose: 'discard dry-run reflection',
    });
  if (imported instanceof MemoryError) {
    await discard();
    const summary = 'Dry run: the reflection commits could not be imported; nothing was changed.';
    return { status: 'failed', commitCount: 0, error: imported.message, errorCode: 'REFLECTION_FAILED', summary };
  }
  const { commitCount, tip } = imported;
  const diff =
    commitCount === 0
      ? ''
      : (await o.git.run(['diff', '--stat', '--patch', p.wt.baseHead, tip], { cwd: p.wt.parentMemoryDir })).stdout;
  await discard();
  return {
    status: 'dry_run',
    commitCount,
    diff,
    summary: `Dry run: ${commitCount} commit(s) would be merged; nothing was changed.`,
  };
}

/** Explicit mode without an integrator: keep the branch for review (see `gitmem conflicts`). */
async function keepForReview(o: ReflectionRunOptions, p: PreparedReflection, commitCount: number): Promise<Outcome> {
  await withMemoryOperation(p.wt.parentMemoryDir, () => removeWorktreeDir(p.wt, o.git), {
    purpose: 'keep reflection branch',
  });
  return {
    status: 'pending_review',
    commitCount,
    branchKept: true,
    summary: `Reflection made ${commitCount} commit(s) on ${p.wt.branchName}; kept for review before merging.`,
  };
}

/** Explicit mode: hands the imported branch to the integrator; what it threw, if it threw. */
async function runIntegrator(
  o: ReflectionRunOptions,
  p: PreparedReflection,
  commitCount: number,
): Promise<string | undefined> {
  const { wt } = p;
  const pending = {
    parentMemoryDir: wt.parentMemoryDir,
    worktreeDir: wt.worktreeDir,
    branchName: wt.branchName,
    baseHead: wt.baseHead,
    commitCount,
    mergeInstructions: o.mergeInstructions ?? '',
  };
  try {
    await o.integrate?.(pending);
    return undefined;
  } catch (err) {
    return `the integrator failed: ${toMemoryError(err).message}`;
  }
}

async function settle(o: ReflectionRunOptions, p: PreparedReflection, ok: boolean, commits: number): Promise<Outcome> {
  if (o.dryRun) return dryRun(o, p);
  let integrateError: string | undefined;
  if (ok && o.merge === 'explicit' && (await worktreeDirtyPaths(o.git, p.wt)).length === 0) {
    // The primary (or a reviewer) merges the branch itself, so it must exist first; a refused import ends in finalize.
    const imported = await importUnderLease(o, p);
    const commitCount = imported instanceof MemoryError ? 0 : imported.commitCount;
    if (commitCount > 0 && !o.integrate) return keepForReview(o, p, commitCount);
    // A throwing integrator still ends in an outcome: finalize checks whether it merged the branch.
    if (commitCount > 0) integrateError = await runIntegrator(o, p, commitCount);
  }
  const refresh = ok && commits > 0 ? await refreshForMerge(o, p) : undefined;
  let refreshFailure: MemoryErrorCode | undefined;
  const refreshParent =
    refresh &&
    (async () => {
      try {
        await refresh.apply();
      } catch (err) {
        refreshFailure = toMemoryError(err).code; // finalize keeps only the message
        throw err;
      }
    });
  const failureSummary = integrateError
    ? `The reflection branch was not merged (${integrateError}); the transcript can be retried.`
    : undefined;
  const r = await finalizeReflectionWorktree(
    p.wt,
    {
      shouldMerge: ok,
      mergeMode: o.merge ?? 'auto',
      failureSummary,
      refreshParent,
    },
    { git: o.git, home: o.home },
  );
  const error = r.error ?? integrateError;
  const errorCode = refreshFailure ?? (error !== undefined && r.status !== 'merged' ? 'REFLECTION_FAILED' : undefined);
  return {
    status: r.status,
    commitCount: r.commitCount,
    summary: r.summary,
    ...(r.head ? { head: r.head } : {}),
    ...(r.branchKept ? { branchKept: true } : {}),
    ...(r.conflictingPaths ? { conflictingPaths: r.conflictingPaths } : {}),
    ...(error ? { error } : {}),
    ...(errorCode ? { errorCode } : {}),
    ...(refresh?.skipped ? { refreshError: refresh.skipped } : {}),
  };
}

/** The progress line before settling; only a run with commits to merge says it is merging. */
function finalizingMessage(o: ReflectionRunOptions, ok: boolean, commits: number): string | undefined {
  if (o.dryRun) return 'Collecting the diff (dry run)…';
  if (!ok || commits === 0) return undefined;
  if (o.merge !== 'explicit') return `Merging ${commits} reflection commit(s) into memory…`;
  return o.integrate
    ? `Handing ${commits} reflection commit(s) to the integrator…`
    : `Keeping ${commits} reflection commit(s) on a branch for review…`;
}

async function recompile(
  o: ReflectionRunOptions,
  status: ReflectionStatus,
): Promise<{ recompiled: boolean; recompileError?: string }> {
  if (status === 'dry_run' || status === 'pending_review' || !shouldRecompile({ status }) || !o.onRecompile)
    return { recompiled: false };
  try {
    await o.onRecompile();
    return { recompiled: true };
  } catch (err) {
    return { recompiled: false, recompileError: err instanceof Error ? err.message : String(err) };
  }
}

function consumed(status: ReflectionStatus): boolean {
  return status !== 'dry_run' && status !== 'pending_review' && consumesTranscript({ status });
}

/** One line in the agent's run log for this reflection, whatever its outcome. */
function logRun(
  o: ReflectionRunOptions,
  p: PreparedReflection,
  end: AgentEnd,
  outcome: Outcome,
  t: { durationMs: number; error: string | undefined },
): void {
  const run = end.run;
  const usage = run?.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  appendRunLog(p.agentDir, {
    kind: 'reflection',
    startedAt: end.startedAt.toISOString(),
    durationMs: t.durationMs,
    steps: run?.steps ?? 0,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    outcome: outcome.status,
    model: end.model,
    trigger: o.trigger ?? 'manual',
    conversationId: o.conversationId,
    lines: p.lines,
    commitCount: outcome.commitCount,
    ...(t.error ? { error: t.error } : {}),
  });
}

/**
 * Finishes a run whose sub-agent has ended (successfully or not) and returns its result.
 * @example return finishReflection(o, prepared, { run, model: 'mock:m', startedAt })
 */
export async function finishReflection(
  o: ReflectionRunOptions,
  p: PreparedReflection,
  end: AgentEnd,
): Promise<ReflectionCompleted> {
  const ok = end.run !== undefined && end.error === undefined && end.run.stoppedBy === undefined;
  const commits = ok ? await countWorktreeCommits(o.git, p.wt).catch(() => 0) : 0;
  const progress = finalizingMessage(o, ok, commits);
  if (progress) o.onProgress?.({ phase: 'finalizing', message: progress });
  let outcome: Outcome;
  try {
    outcome = await settle(o, p, ok, commits);
  } finally {
    rmSync(p.payloadPath, { force: true });
  }
  if (outcome.refreshError)
    o.onWarning?.(`Note: the parent was not refreshed from its remote before merging (${outcome.refreshError}).`);
  const success = consumed(outcome.status);
  const advance = o.multi?.advance ?? [{ conversationId: o.conversationId, throughLine: p.lines.to }];
  if (success) for (const a of advance) advanceCursor(p.agentDir, a.conversationId, a.throughLine, o.clock);
  const rc = await recompile(o, outcome.status);
  const run = end.run;
  const usage = run?.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const durationMs = Date.now() - end.t0;
  const error =
    end.error ??
    (run?.stoppedBy ? `the sub-agent was stopped by its ${run.stoppedBy} limit` : undefined) ??
    outcome.error;
  const errorCode =
    end.error !== undefined ? (end.errorCode ?? 'MODEL_ERROR') : run?.stoppedBy ? 'TIMEOUT' : outcome.errorCode;
  logRun(o, p, end, outcome, { durationMs, error });
  return {
    launched: true,
    ...outcome,
    success,
    message: outcomeMessage(outcome.status, outcome.summary, rc.recompileError),
    conversationId: o.conversationId,
    lines: p.lines,
    branchName: p.wt.branchName,
    ...rc,
    usage,
    steps: run?.steps ?? 0,
    durationMs,
    model: end.model,
    report: run?.text ?? '',
    ...(run?.stoppedBy ? { stoppedBy: run.stoppedBy } : {}),
    ...(error ? { error } : {}),
    ...(error && errorCode ? { errorCode } : {}),
    ...(p.snapshot ? { snapshot: p.snapshot } : {}),
    payloadChars: p.payloadChars,
  };
}
