/**
 * The credentials of a partial clone's later fetches (git/promisor.ts withPromisorAuth): a handle opened on a
 * blob-less clone of an HTTP(S) remote, with credentials configured for that remote, runs its git commands in
 * the memory with them, so a blob fetched on first read is fetched as the clone was. Anything else: the runner
 * as it was.
 */
import { dirname, join } from 'node:path';
import type { GitmemConfig } from '../config.js';
import type { GitDirs } from '../git/common-dir.js';
import { configValue, readGitConfigText } from '../git/config-text.js';
import { isPartialClone, withPromisorAuth } from '../git/promisor.js';
import type { GitRunner } from '../git/runner.js';
import { authForRemote, type GitCredentials } from '../sync/credentials.js';

/**
 * `git`, or `git` with the remote's credentials on the memory's commands when it is a partial clone.
 * @example const git = withPartialCloneAuth(runnerFor(config, options), memoryDir, gitDirsOf(memoryDir), config)
 */
export function withPartialCloneAuth(
  git: GitRunner,
  memoryDir: string,
  dirs: GitDirs,
  config: Pick<GitmemConfig, 'credentials'>,
): GitRunner {
  if (!isPartialClone(dirs.commonDir)) return git;
  const text = readGitConfigText(dirs.commonDir);
  const url = text === undefined ? undefined : configValue(text, 'remote', 'url', 'origin');
  if (url === undefined || !/^https?:\/\//i.test(url)) return git;
  let credentials: GitCredentials | undefined;
  try {
    credentials = config.credentials();
  } catch {
    return git; // an unsafe credentials file: sync names it; a read then fails as "no credentials"
  }
  const auth = authForRemote(credentials, url);
  if (auth === undefined) return git;
  // Background writers' worktrees share the object store, so their reads fetch too (worktree/create.ts's base).
  const worktrees = join(dirname(memoryDir), 'memory-worktrees');
  return withPromisorAuth(git, auth, [memoryDir, dirs.gitDir, dirs.commonDir, worktrees]);
}
