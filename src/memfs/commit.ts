/**
 * The fast commit: stage exactly the touched paths and build the commit with plumbing, so a write does
 * not pay for git re-scanning the whole work tree (what `git commit` does). The format rules the
 * pre-commit hook would apply have already been checked in-process with the same validator.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { commitTreeOp, updateIndexOp, updateRefOp, writeTreeOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';

export interface Identity {
  name: string;
  email: string;
}

export interface CommitRequest {
  memoryDir: string;
  /** Repo-relative paths that changed (files, not directories). */
  paths: readonly string[];
  message: string;
  author: Identity;
  /** HEAD before the change (from the clean check); null for the first commit. */
  parent: string | null;
  /** Fixed time for reproducible commits (tests); default: now. */
  date?: Date;
}

function identityEnv(author: Identity, date?: Date): Record<string, string> {
  const env: Record<string, string> = {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  if (date) {
    const stamp = `${Math.floor(date.getTime() / 1000)} +0000`;
    env['GIT_AUTHOR_DATE'] = stamp;
    env['GIT_COMMITTER_DATE'] = stamp;
  }
  return env;
}

/**
 * Stages `paths` and commits them on top of `parent`; returns the new commit id. Moves HEAD's branch only
 * if it still points at `parent` (a concurrent writer makes this fail instead of losing its commit).
 * @example await commitPaths(git, { memoryDir, paths: ['system/human.md'], message: 'learned X', author, parent })
 */
export async function commitPaths(git: GitRunner, req: CommitRequest): Promise<string> {
  const cwd = req.memoryDir;
  await git.exec(updateIndexOp(req.paths), { cwd });
  const tree = await git.exec(writeTreeOp(), { cwd });
  const env = identityEnv(req.author, req.date);
  const commit = await git.exec(commitTreeOp(tree, req.parent ? [req.parent] : [], req.message), { cwd, env });
  const subject = req.message.split('\n')[0] ?? '';
  await git.exec(updateRefOp('HEAD', commit, req.parent, `commit: ${subject}`), { cwd });
  return commit;
}

/** Restores the index entries of `paths` to HEAD after a failed commit (best effort). */
export async function resetIndexPaths(git: GitRunner, memoryDir: string, paths: readonly string[]): Promise<void> {
  try {
    await git.run(['reset', '-q', 'HEAD', '--', ...paths], { cwd: memoryDir });
  } catch {
    // Before the first commit there is no HEAD to reset to; drop the entries instead.
    await git.run(['rm', '-q', '--cached', '--ignore-unmatch', '--', ...paths], { cwd: memoryDir }).catch(() => undefined);
  }
}

/**
 * Plumbing commits do not run hooks; run the post-commit hook (mirror push) detached so it never
 * delays the write.
 */
export function firePostCommitHook(memoryDir: string, env: Record<string, string | undefined>): void {
  const hook = join(memoryDir, '.git', 'hooks', 'post-commit');
  if (!existsSync(hook)) return;
  const child = spawn(hook, [], { cwd: memoryDir, env, detached: true, stdio: 'ignore' });
  child.on('error', () => undefined);
  child.unref();
}
