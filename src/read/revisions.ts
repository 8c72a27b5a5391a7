/**
 * The handle's questions about revisions, answered as git answers them: the commit a revision names, how many
 * commits a range holds, where two commits met. A harness (the palace) asks these instead of running git.
 */
import { countCommitsOp, mergeBaseOp } from '../git/commands/commit-graph.js';
import { resolveRevision } from '../git/revision.js';
import type { GitRunner } from '../git/runner.js';

/** What the revision questions need: the runner and the repository. */
export interface RevisionDeps {
  git: GitRunner;
  memoryDir: string;
}

/** The revision operations of a handle. */
export interface MemoryRevisions {
  /** The commit id `rev` names (a revision or a date, as `at` takes it); UNKNOWN_REVISION when none. */
  resolve(rev: string): Promise<string>;
  /** How many commits `range` holds (`git rev-list --count`: a revision, `a..b`, `a...b`). */
  countCommits(range: string): Promise<number>;
  /** The best common ancestor of `a` and `b` (`git merge-base`), null when they share no history. */
  mergeBase(a: string, b: string): Promise<string | null>;
}

/**
 * The revision operations bound to one repository.
 * @example const r = revisionsApi({ git, memoryDir }); await r.countCommits('HEAD')
 */
export function revisionsApi(deps: RevisionDeps): MemoryRevisions {
  const { git, memoryDir } = deps;
  return {
    resolve: (rev) => resolveRevision(git, memoryDir, rev),
    countCommits: (range) => git.exec(countCommitsOp(range), { cwd: memoryDir }),
    mergeBase: (a, b) => git.exec(mergeBaseOp(a, b), { cwd: memoryDir }),
  };
}
