/**
 * Process entry of the installed pre-commit hook. Imports only what the check needs so a raw
 * `git commit` pays one small Node start-up.
 */
import { createGitRunner } from '../git/runner.js';
import { findPreCommitProblems, formatPreCommitFailure } from './pre-commit.js';

findPreCommitProblems(createGitRunner({ env: process.env }), process.cwd(), process.env).then(
  (problems) => {
    if (problems.length === 0) return;
    process.stderr.write(formatPreCommitFailure(problems));
    process.exitCode = 1;
  },
  (err: unknown) => {
    process.stderr.write(`gitmem pre-commit hook failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
