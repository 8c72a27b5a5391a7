/**
 * What finalizing a reflection worktree returns (its status and what it left) and what callers read off it:
 * is the transcript done with, must the prompt be recompiled. Apart from finalize.ts so the reflection and
 * defrag runs that only read a result need not know how one is reached.
 */

/**
 * How a finished reflection worktree ended: nothing to merge, edits left uncommitted, the run failed, the parent
 * was dirty, a merge conflict, merged — or `rejected`: the merge result broke the memory rules (branch kept,
 * nothing merged).
 */
export type ReflectionFinalizeStatus =
  'no_changes' | 'dirty_uncommitted' | 'failed' | 'parent_dirty' | 'merge_conflict' | 'rejected' | 'merged';

/** What finalizing a reflection worktree did, with the conflicting paths and whether the branch was kept. */
export interface ReflectionFinalizeResult {
  status: ReflectionFinalizeStatus;
  parentMemoryDir: string;
  reflectionWorktreeDir: string;
  reflectionBranch: string;
  commitCount: number;
  head?: string;
  summary: string;
  error?: string;
  failurePhase?: 'reflection' | 'integration';
  conflictingPaths?: string[];
  branchKept?: boolean;
  /** `rejected`: the files that broke the rules, and the `<path>: <problem>` lines. */
  rejectedPaths?: string[];
  problems?: string[];
}

/**
 * True when the transcript behind this result is done with (merged, or nothing worth writing).
 * @example consumesTranscript({ status: 'no_changes', ... }) === true
 */
export function consumesTranscript(r: Pick<ReflectionFinalizeResult, 'status'>): boolean {
  return r.status === 'merged' || r.status === 'no_changes';
}

/**
 * True when memory changed and the system prompt must be recompiled.
 * @example shouldRecompile({ status: 'merged', ... }) === true
 */
export function shouldRecompile(r: Pick<ReflectionFinalizeResult, 'status'>): boolean {
  return r.status === 'merged';
}
