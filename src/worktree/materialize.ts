/**
 * Widens a private worktree's sparse checkout on demand, so a body can read or write paths beyond the
 * default `system/` + top-level files without the worktree ever becoming a full checkout.
 */
import type { GitRunner } from '../git/runner.js';
import { applySparse, type MemoryWorktree } from './create.js';
import { normalizeSparseDirs } from './sparse.js';

/**
 * Adds the directories holding `paths` to the worktree's cone and checks their files out. Unstaged edits are
 * kept; a body should not hold *staged* changes while materialising (the index is rebuilt from HEAD).
 * Returns the directories now materialised.
 * @example await materializePaths(wt, ['reference/people/'], git)
 */
export async function materializePaths(
  wt: MemoryWorktree,
  paths: readonly string[],
  git: GitRunner,
): Promise<string[]> {
  const next = normalizeSparseDirs([...wt.sparseDirs, ...paths]);
  if (next.length === wt.sparseDirs.length && next.every((d, i) => d === wt.sparseDirs[i])) return next;
  wt.sparseDirs = next;
  await applySparse(wt, git);
  return next;
}
