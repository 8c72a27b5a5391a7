/**
 * Reflection finalize: decides, under the operation lease, what a finished reflection worktree
 * becomes — one of six outcomes — and cleans up. Its commits are imported first (import.ts: re-hashed,
 * ancestry checked, branch created); commits that cannot be imported end `failed`. Anything but success or
 * "genuinely nothing to write" rolls back so the transcript can be retried. gitmem keeps a conflicting
 * branch by default (never lose work).
 */
import { existsSync } from 'node:fs';
import { MemoryError, toMemoryError } from '../errors.js';
import { withMemoryOperation, type MemoryOperationOptions } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { deleteBranch, removeWorktreeDir } from './cleanup.js';
import type { MemoryWorktree } from './create.js';
import { importWorktreeCommits } from './import.js';
import {
  commitSubject,
  countWorktreeCommits,
  dirtyPaths,
  isAncestor,
  resolveCommit,
  worktreeDirtyPaths,
} from './inspect.js';
import type { Identity } from '../identity.js';
import { mergeSubject } from '../writers.js';
import type { ReflectionFinalizeResult } from './finalize-result.js';
import { mergeIntoCheckout } from './merge.js';

export interface FinalizeReflectionOptions {
  /** False when the reflection sub-agent did not complete successfully. */
  shouldMerge: boolean;
  /** The caller knows nothing was written (allows finalizing a worktree whose directory is gone). */
  knownNoChanges?: boolean;
  /** `auto`: merge here. `explicit`: the primary merged it in a conversation; only verify ancestry. */
  mergeMode?: 'auto' | 'explicit';
  /** Summary to use when explicit mode finds the branch unmerged. */
  failureSummary?: string;
  /** Keep the branch on a merge conflict (default true, so the work stays reviewable with `gitmem conflicts`). */
  keepBranchOnConflict?: boolean;
  /** Optional "refresh the parent from its remote" step run before an auto merge; a throw ⇒ `failed`. */
  refreshParent?: () => Promise<void>;
  /** Put before the merge commit's summary, e.g. `defrag: ` (the writer stays `reflection`). */
  summaryPrefix?: string;
}

export interface FinalizeDeps {
  git: GitRunner;
  /** The configured home: its `config` holds the system/ budget the merge is held to (default: the repository's). */
  home?: string | undefined;
  identity?: Identity;
  lease?: MemoryOperationOptions;
}

/** The worktree to finalize; `gitDir`/`gitCommonDir` are derived from trusted places when absent. */
type Handle = Pick<MemoryWorktree, 'parentMemoryDir' | 'worktreeDir' | 'branchName' | 'baseHead'> &
  Partial<Pick<MemoryWorktree, 'gitDir' | 'gitCommonDir'>>;

/**
 * The merge summary: the branch tip's subject without a conventional-commit prefix.
 * @example reflectionMergeSummary('feat(memory)!: note office days') === 'note office days'
 */
export function reflectionMergeSummary(subject: string): string {
  const s = subject.replace(/^[a-z]+(?:\([^)]*\))?!?:\s*/i, '').trim();
  return s === '' ? 'reflection memory updates' : s;
}

/**
 * Finalizes a reflection worktree into one of six outcomes (see the status type), under the lease.
 * @example const r = await finalizeReflectionWorktree(wt, { shouldMerge: true }, { git }); if (shouldRecompile(r)) ...
 */
export async function finalizeReflectionWorktree(
  wt: Handle,
  o: FinalizeReflectionOptions,
  deps: FinalizeDeps,
): Promise<ReflectionFinalizeResult> {
  return withMemoryOperation(wt.parentMemoryDir, () => finalizeLocked(wt, o, deps), {
    purpose: `finalize ${wt.branchName}`,
    ...deps.lease,
  });
}

async function finalizeLocked(
  wt: Handle,
  o: FinalizeReflectionOptions,
  deps: FinalizeDeps,
): Promise<ReflectionFinalizeResult> {
  const { git } = deps;
  const parent = wt.parentMemoryDir;
  const base = { parentMemoryDir: parent, reflectionWorktreeDir: wt.worktreeDir, reflectionBranch: wt.branchName };
  if (!existsSync(wt.worktreeDir)) return finalizeMissing(wt, deps);
  const end = async (
    commitCount: number,
    r: Omit<ReflectionFinalizeResult, keyof typeof base | 'commitCount'>,
  ): Promise<ReflectionFinalizeResult> => {
    await removeWorktreeDir(wt, git);
    await deleteBranch(git, parent, wt.branchName);
    return { ...base, commitCount, ...r };
  };
  if ((await worktreeDirtyPaths(git, wt)).length > 0) {
    return end(await countWorktreeCommits(git, wt), {
      status: 'dirty_uncommitted',
      summary:
        'Reflection left uncommitted changes in its worktree; it was cleaned up so the transcript can be retried.',
    });
  }
  if (!o.shouldMerge) {
    return end(await countWorktreeCommits(git, wt), {
      status: 'failed',
      failurePhase: 'reflection',
      summary:
        'The reflection sub-agent did not finish successfully; its worktree was cleaned up so the transcript can be retried.',
    });
  }
  const imported = await importWorktreeCommits(wt, git).catch((err: unknown) => toMemoryError(err));
  if (imported instanceof MemoryError) {
    return end(0, {
      status: 'failed',
      failurePhase: 'integration',
      error: imported.message,
      summary:
        'Reflection made commits that could not be imported into the memory repository; its worktree was cleaned up so the transcript can be retried.',
    });
  }
  const { tip, commitCount } = imported;
  return finalizeCommits(wt, tip, commitCount, o, deps, { base, end: (r) => end(commitCount, r) });
}

/** Commits imported: none to merge, a parent with changes, or the merge the mode asks for (after the refresh). */
async function finalizeCommits(
  wt: Handle,
  tip: string,
  commitCount: number,
  o: FinalizeReflectionOptions,
  deps: FinalizeDeps,
  fin: Finish,
): Promise<ReflectionFinalizeResult> {
  const { git } = deps;
  const parent = wt.parentMemoryDir;
  if (commitCount === 0)
    return fin.end({ status: 'no_changes', head: wt.baseHead, summary: 'Reflection made no memory commits.' });
  if ((await dirtyPaths(git, parent)).length > 0) {
    return fin.end({
      status: 'parent_dirty',
      summary:
        'Reflection produced memory updates, but the parent memory repository has uncommitted changes; they were left untouched and the transcript can be retried.',
    });
  }
  if (o.mergeMode === 'explicit') return finalizeExplicit(tip, commitCount, o, deps, fin);
  if (o.refreshParent) {
    const failed = await o.refreshParent().then(
      () => null,
      (err: unknown) => toMemoryError(err),
    );
    if (failed) {
      return fin.end({
        status: 'failed',
        failurePhase: 'integration',
        error: failed.message,
        summary:
          'Reflection produced memory updates, but the parent memory repository could not be refreshed; the transcript can be retried.',
      });
    }
  }
  return finalizeAuto(wt, tip, commitCount, o, deps, fin);
}

type Finish = {
  base: Pick<ReflectionFinalizeResult, 'parentMemoryDir' | 'reflectionWorktreeDir' | 'reflectionBranch'>;
  end: (
    r: Omit<ReflectionFinalizeResult, 'parentMemoryDir' | 'reflectionWorktreeDir' | 'reflectionBranch' | 'commitCount'>,
  ) => Promise<ReflectionFinalizeResult>;
};

async function finalizeExplicit(
  tip: string,
  n: number,
  o: FinalizeReflectionOptions,
  deps: FinalizeDeps,
  f: Finish,
): Promise<ReflectionFinalizeResult> {
  const parent = f.base.parentMemoryDir;
  const head = (await resolveCommit(deps.git, parent, 'HEAD')) ?? undefined;
  if (!(await isAncestor(deps.git, parent, tip, 'HEAD'))) {
    const summary =
      o.failureSummary ?? 'The primary agent did not merge the reflection branch; the transcript can be retried.';
    return f.end({ status: 'failed', failurePhase: 'integration', summary, ...(head ? { head } : {}) });
  }
  return f.end({
    status: 'merged',
    summary: `The primary agent integrated ${n} reflection memory commit(s).`,
    ...(head ? { head } : {}),
  });
}

async function finalizeAuto(
  wt: Handle,
  tip: string,
  n: number,
  o: FinalizeReflectionOptions,
  deps: FinalizeDeps,
  f: Finish,
): Promise<ReflectionFinalizeResult> {
  const { git } = deps;
  const summary = reflectionMergeSummary(await commitSubject(git, wt.parentMemoryDir, tip));
  const message = mergeSubject('reflection', `${o.summaryPrefix ?? ''}${summary}`);
  // The import checked that the tip descends from the base.
  const r = await mergeIntoCheckout({
    memoryDir: wt.parentMemoryDir,
    home: deps.home,
    branch: tip,
    message,
    git,
    tipDescendsFrom: wt.baseHead,
    identity: deps.identity,
  });
  if (r.status === 'conflict') {
    const keep = o.keepBranchOnConflict ?? true;
    await removeWorktreeDir(wt, git);
    if (!keep) await deleteBranch(git, wt.parentMemoryDir, wt.branchName);
    const summary = `Reflection produced ${n} memory commit(s), but merging them into the parent memory repository conflicted${keep ? `; branch ${wt.branchName} was kept` : ''}. The transcript can be retried.`;
    return {
      ...f.base,
      commitCount: n,
      status: 'merge_conflict',
      summary,
      conflictingPaths: r.conflictingPaths,
      branchKept: keep,
      head: r.head,
    };
  }
  if (r.status === 'rejected') {
    await removeWorktreeDir(wt, git); // the branch is always kept: nothing a writer made is lost
    const summary = `Reflection produced ${n} memory commit(s) that break the memory rules, so nothing was merged; branch ${wt.branchName} was kept: ${r.problems.join('; ')}`;
    return {
      ...f.base,
      commitCount: n,
      status: 'rejected',
      summary,
      error: r.problems.join('; '),
      rejectedPaths: r.rejectedPaths,
      problems: r.problems,
      branchKept: true,
      head: r.head,
    };
  }
  return f.end({
    status: 'merged',
    head: r.head,
    summary: `Merged ${n} reflection memory commit(s) into the parent memory repository.`,
  });
}

/**
 * The worktree directory is gone. Work it committed (already imported, or still in its private git dir) is
 * imported to its branch and kept, and finalizing it as a no-op is refused; otherwise it was a no-op.
 */
async function finalizeMissing(wt: Handle, deps: FinalizeDeps): Promise<ReflectionFinalizeResult> {
  const branchTip = await resolveCommit(deps.git, wt.parentMemoryDir, `refs/heads/${wt.branchName}`);
  const tip =
    branchTip ??
    (await importWorktreeCommits(wt, deps.git).then(
      (r) => r.tip,
      () => null,
    ));
  if (tip !== null && tip !== wt.baseHead) {
    throw new MemoryError(
      'WORKTREE_ERROR',
      `cannot finalize missing reflection worktree ${wt.worktreeDir} as a no-op: ${wt.branchName} advanced from ${wt.baseHead} to ${tip}`,
      { data: { worktreeDir: wt.worktreeDir, branch: wt.branchName, baseHead: wt.baseHead, tip } },
    );
  }
  await removeWorktreeDir(wt, deps.git);
  await deleteBranch(deps.git, wt.parentMemoryDir, wt.branchName);
  return {
    status: 'no_changes',
    parentMemoryDir: wt.parentMemoryDir,
    reflectionWorktreeDir: wt.worktreeDir,
    reflectionBranch: wt.branchName,
    commitCount: 0,
    head: wt.baseHead,
    summary: 'Reflection made no memory commits.',
  };
}
