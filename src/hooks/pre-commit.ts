/**
 * The pre-commit check over the staged snapshot: every staged change (renames detected) with its mode, its
 * staged and its HEAD content, read in two git calls, plus the protected list from the common git dir, handed
 * to the shared validator.
 */
import { validateChanges, type FileChange } from '../blocks/validate.js';
import type { GitRunner } from '../git/runner.js';
import { readChangeSet } from './change-set.js';
import { readProtectedPaths } from './protected.js';

/** Collects the staged changes as validator input. */
export async function collectStagedChanges(git: GitRunner, cwd: string): Promise<FileChange[]> {
  return readChangeSet(git, cwd, 'diff', ['--cached']);
}

/**
 * Runs the pre-commit rule set in `cwd`; returns the problems (empty = commit may proceed).
 * @example const problems = await runPreCommit(git, process.cwd())
 */
export async function runPreCommit(git: GitRunner, cwd: string): Promise<string[]> {
  return validateChanges(await collectStagedChanges(git, cwd), { protectedPaths: readProtectedPaths(cwd) });
}

/** The text a rejected commit prints. */
export function formatPreCommitFailure(problems: readonly string[]): string {
  return `Memory rules refused this commit:\n${problems.map((p) => `  ${p}`).join('\n')}\n`;
}
