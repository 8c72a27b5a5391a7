/**
 * The completion half of a defragmentation: import the sub-agent's commits, run the content-preservation
 * check over the base and the tip, then either show the diff (dry run), keep the branch and refuse
 * (`content_dropped`, unless drops are allowed), or finalize it like a reflection (the same validated,
 * markdown-aware merge; a conflict or a rule break keeps the branch). Logged in the agent's run log.
 */
import { MemoryError, toMemoryError, type MemoryErrorCode } from '../errors.js';
import { withMemoryOperation } from '../git/lease.js';
import { catFileBatchOp, lsTreeOp } from '../git/commands/plumbing.js';
import { prepareParentRefresh } from '../sync/refresh.js';
import { discardWorktree, removeWorktreeDir } from '../worktree/cleanup.js';
import { finalizeReflectionWorktree } from '../worktree/finalize.js';
import type { ReflectionFinalizeResult } from '../worktree/finalize-result.js';
import { importWorktreeCommits, type ImportedWork } from '../worktree/import.js';
import { countWorktreeCommits, worktreeDirtyPaths } from '../worktree/inspect.js';
import { checkPreservation, type PreservationReport } from './defrag-preserve.js';
import type { DefragAgentEnd, DefragOptions, DefragResult, DefragStatus, PreparedDefrag } from './defrag-types.js';
import { outcomeErrorCode } from './messages.js';
import { appendRunLog } from './run-log.js';

type Outcome = Pick<
  DefragResult,
  | 'status'
  | 'commitCount'
  | 'head'
  | 'branchKept'
  | 'conflictingPaths'
  | 'preservation'
  | 'diff'
  | 'error'
  | 'refreshError'
>;

const lease = <T>(p: PreparedDefrag, purpose: string, fn: () => Promise<T>): Promise<T> =>
  withMemoryOperation(p.wt.parentMemoryDir, fn, { purpose });

/** The regular text files of a revision (a link's target text is no content; a binary file has no lines). */
async function textFilesAt(o: DefragOptions, dir: string, rev: string): Promise<Map<string, string>> {
  const entries = (await o.git.exec(lsTreeOp(rev), { cwd: dir })).filter(
    (e) => e.type === 'blob' && (e.mode === '100644' || e.mode === '100755'),
  );
  const texts = entries.length > 0 ? await o.git.exec(catFileBatchOp(entries.map((e) => e.id)), { cwd: dir }) : [];
  const out = new Map<string, string>();
  entries.forEach((e, i) => {
    const text = texts[i];
    if (typeof text === 'string' && !text.includes('\0')) out.set(e.path, text);
  });
  return out;
}

/** The dropped lines of the tip against the base. */
async function preservationOf(o: DefragOptions, p: PreparedDefrag, tip: string): Promise<PreservationReport> {
  const dir = p.wt.parentMemoryDir;
  const [before, after] = await Promise.all([textFilesAt(o, dir, p.wt.baseHead), textFilesAt(o, dir, tip)]);
  return checkPreservation(before, after);
}

function dropError(r: PreservationReport, branch: string): { code: MemoryErrorCode; message: string } {
  const first = r.dropped[0];
  const example = first ? ` (first: ${first.path}:${first.line} ${JSON.stringify(first.text.slice(0, 120))})` : '';
  return {
    code: 'CONTENT_DROPPED',
    message: `the defragmentation deleted ${r.droppedCount} line(s) that are nowhere in memory any more${example}; nothing was merged, branch ${branch} was kept (gitmem conflicts show ${branch}; rerun with --allow-drops to accept drops)`,
  };
}

/** Finalize (the reflection merge); a throwing refresh is recorded, finalize keeps only its message. */
async function finalize(
  o: DefragOptions,
  p: PreparedDefrag,
  shouldMerge: boolean,
): Promise<ReflectionFinalizeResult & { refreshError?: string }> {
  let refreshError: string | undefined;
  let refreshParent: (() => Promise<void>) | undefined;
  if (shouldMerge && o.refreshParent !== false) {
    const credentials = o.credentials?.();
    const prepare =
      o.refreshParent ??
      (() =>
        prepareParentRefresh({
          git: o.git,
          memoryDir: p.wt.parentMemoryDir,
          home: o.home,
          credentials,
          signal: o.signal,
        }));
    const refresh = await Promise.resolve()
      .then(prepare)
      .catch((err: unknown) => ({ skipped: toMemoryError(err).message, apply: async () => undefined }));
    refreshError = refresh.skipped;
    refreshParent = refresh.apply;
  }
  const r = await finalizeReflectionWorktree(
    p.wt,
    { shouldMerge, mergeMode: 'auto', summaryPrefix: 'defrag: ', refreshParent },
    { git: o.git, home: o.home },
  );
  return { ...r, refreshError };
}

function fromFinalize(
  r: ReflectionFinalizeResult & { refreshError?: string },
  preservation?: PreservationReport,
): Outcome {
  const code = outcomeErrorCode(r.status);
  return {
    status: r.status,
    commitCount: r.commitCount,
    ...(r.head ? { head: r.head } : {}),
    ...(r.branchKept ? { branchKept: true } : {}),
    ...(r.conflictingPaths ? { conflictingPaths: r.conflictingPaths } : {}),
    ...(preservation ? { preservation } : {}),
    ...(code ? { error: { code, message: r.error ?? r.summary } } : {}),
    ...(r.refreshError ? { refreshError: r.refreshError } : {}),
  };
}

async function settleOutcome(o: DefragOptions, p: PreparedDefrag, ok: boolean): Promise<Outcome> {
  const { git } = o;
  const clean = ok && (await worktreeDirtyPaths(git, p.wt)).length === 0;
  const commits = clean ? await countWorktreeCommits(git, p.wt).catch(() => 0) : 0;
  if (!clean || commits === 0) {
    if (o.dryRun && clean) {
      await lease(p, 'discard dry-run defrag', () => discardWorktree(p.wt, git));
      return { status: 'dry_run', commitCount: 0, diff: '' };
    }
    return fromFinalize(await finalize(o, p, ok));
  }
  const imported: ImportedWork | MemoryError = await lease(p, `import ${p.wt.branchName}`, () =>
    importWorktreeCommits(p.wt, git),
  ).catch((err: unknown) => toMemoryError(err));
  if (imported instanceof MemoryError) {
    if (!o.dryRun) return fromFinalize(await finalize(o, p, true)); // finalize reports the refused import
    await lease(p, 'discard dry-run defrag', () => discardWorktree(p.wt, git));
    return { status: 'failed', commitCount: 0, error: { code: 'REFLECTION_FAILED', message: imported.message } };
  }
  try {
    return await checkAndMerge(o, p, imported);
  } catch (err) {
    // The work is on its branch already: drop only the worktree, so a failed check loses nothing.
    await lease(p, 'keep defrag branch', () => removeWorktreeDir(p.wt, git)).catch(() => undefined);
    throw err;
  }
}

/** Imported: the check, then the dry run's diff, the refusal, or the merge. */
async function checkAndMerge(o: DefragOptions, p: PreparedDefrag, imported: ImportedWork): Promise<Outcome> {
  const { git } = o;
  const preservation = await preservationOf(o, p, imported.tip);
  if (o.dryRun) {
    const diff = (
      await git.run(['diff', '--stat', '--patch', p.wt.baseHead, imported.tip], { cwd: p.wt.parentMemoryDir })
    ).stdout;
    await lease(p, 'discard dry-run defrag', () => discardWorktree(p.wt, git));
    return { status: 'dry_run', commitCount: imported.commitCount, diff, preservation };
  }
  if (preservation.droppedCount > 0 && !o.allowDrops) {
    await lease(p, 'keep defrag branch', () => removeWorktreeDir(p.wt, git)); // the branch stays: nothing is lost
    return {
      status: 'content_dropped',
      commitCount: imported.commitCount,
      branchKept: true,
      preservation,
      error: dropError(preservation, p.wt.branchName),
    };
  }
  return fromFinalize(await finalize(o, p, true), preservation);
}

/** What the user is told, per outcome. */
function messageOf(s: Outcome, branch: string): string {
  const n = s.commitCount;
  const drops = s.preservation?.droppedCount ?? 0;
  const dropNote = drops > 0 ? ` ${drops} line(s) of the old memory are nowhere in the new one.` : '';
  const messages: Record<DefragStatus, string> = {
    merged: `Defragmented the memory: merged ${n} commit(s).${dropNote ? `${dropNote} (allowed)` : ''}`,
    no_changes: 'Defragmentation found nothing to change.',
    dry_run: `Dry run: ${n} defragmentation commit(s) would be merged; nothing was changed.${dropNote}`,
    content_dropped: `Defragmentation refused: ${s.error?.message ?? ''}`,
    merge_conflict: `Defragmentation conflicted with newer changes; nothing was merged, branch ${branch} was kept (gitmem conflicts).`,
    rejected: `Defragmentation broke the memory rules; nothing was merged, branch ${branch} was kept: ${s.error?.message ?? ''}`,
    parent_dirty: 'Defragmentation finished, but the parent memory has uncommitted changes; nothing was merged.',
    dirty_uncommitted: 'Defragmentation left uncommitted changes; nothing was merged.',
    failed: 'Defragmentation did not finish; nothing was merged.',
  };
  return messages[s.status];
}

/**
 * Settles a finished defragmentation into its result (and one run-log line).
 * @example return settleDefrag(o, prepared, { run, model: 'mock:m', startedAt, t0 })
 */
export async function settleDefrag(o: DefragOptions, p: PreparedDefrag, end: DefragAgentEnd): Promise<DefragResult> {
  const ok = end.run !== undefined && end.error === undefined && end.run.stoppedBy === undefined;
  o.onProgress?.(o.dryRun ? 'Collecting the diff (dry run)…' : 'Checking and merging the defragmentation…');
  const s = await settleOutcome(o, p, ok);
  const run = end.run;
  const stopped = run?.stoppedBy
    ? { code: 'TIMEOUT' as const, message: `the sub-agent was stopped by its ${run.stoppedBy} limit` }
    : undefined;
  const error = end.error ?? stopped ?? s.error;
  let recompiled = false;
  if (s.status === 'merged' && o.onRecompile)
    recompiled = await Promise.resolve(o.onRecompile()).then(
      () => true,
      () => false,
    );
  const usage = run?.usage ?? { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  const durationMs = Date.now() - end.t0;
  appendRunLog(p.agentDir, {
    kind: 'defrag',
    startedAt: end.startedAt.toISOString(),
    durationMs,
    steps: run?.steps ?? 0,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    outcome: s.status,
    model: end.model,
    commitCount: s.commitCount,
    ...(s.preservation ? { droppedLines: s.preservation.droppedCount } : {}),
    ...(error ? { error: error.message } : {}),
  });
  const dryOk = s.status === 'dry_run' && error === undefined;
  return {
    ...s,
    success: s.status === 'merged' || s.status === 'no_changes' || dryOk,
    message: messageOf(s, p.wt.branchName),
    agentId: o.agentId,
    branchName: p.wt.branchName,
    ...(error ? { error } : {}),
    recompiled,
    usage,
    steps: run?.steps ?? 0,
    durationMs,
    model: end.model,
    report: run?.text ?? '',
  };
}
