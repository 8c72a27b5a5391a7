/**
 * Process entry of the installed pre-commit hook. Imports only what the check needs so a raw
 * `git commit` pays one small Node start-up (the hook script asks a running gitmem first: hook-server.ts).
 */
import { hookHome } from '../config.js';
import { createGitRunner } from '../git/runner.js';
import { preCommitCrash, preCommitVerdict } from './pre-commit.js';

preCommitVerdict(createGitRunner({ env: process.env }), process.cwd(), hookHome(process.env, process.cwd())).then(
  (verdict) => {
    if (verdict.stderr !== '') process.stderr.write(verdict.stderr);
    process.exitCode = verdict.code;
  },
  (err: unknown) => {
    process.stderr.write(preCommitCrash(err));
    process.exitCode = 1;
  },
);
