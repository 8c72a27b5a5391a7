/**
 * What `gitmem clone` does with an EMPTY remote (a freshly created repository): give the still-empty clone the
 * remote's object format, then make the first commit `gitmem init` would and push it. Apart from clone.ts
 * because it is its own path, taken only when the remote has no branch at all.
 */
import { defaultMemoryFiles } from '../blocks/defaults.js';
import { MemoryError, isMemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { advertisedObjectFormat, repoObjectFormat, type ObjectFormat } from '../git/object-format.js';
import { redactText } from '../git/redact.js';
import type { GitAuth, GitRetryPolicy, GitRunner } from '../git/runner.js';
import { agentIdentity } from '../identity.js';
import { commitEdits } from '../memfs/edits.js';

/** How git reaches the remote: auth, retries, timeout, cancellation (the same for clone and first push). */
export interface RemoteCall {
  auth?: GitAuth;
  retry: GitRetryPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Gives an empty clone its remote's object format: git (before 2.45 or so) clones an empty repository with
 * its local default, and a first commit in the other format could never be pushed. The clone holds no
 * object and no ref yet, so declaring the format in its config is all a conversion takes.
 */
export async function adoptRemoteObjectFormat(git: GitRunner, dir: string, call: RemoteCall): Promise<void> {
  const probe = await git.run(['ls-remote', 'origin'], { cwd: dir, ...call, env: { GIT_TRACE_PACKET: '1' } });
  const wanted = advertisedObjectFormat(probe.stderr);
  if (wanted !== 'sha1' && wanted !== 'sha256') {
    throw new MemoryError(
      'REPO_UNSUPPORTED',
      `the remote's object format '${wanted}' is not one gitmem can write (sha1, sha256)`,
      { data: { objectFormat: wanted } },
    );
  }
  if (repoObjectFormat(resolveGitCommonDir(dir)) === wanted) return;
  await git.run(['config', 'core.repositoryformatversion', '1'], { cwd: dir });
  await git.run(['config', 'extensions.objectformat', wanted satisfies ObjectFormat], { cwd: dir });
  const now = (await git.run(['rev-parse', '--show-object-format'], { cwd: dir })).stdout.trim();
  if (now !== wanted)
    throw new MemoryError(
      'REPO_UNSUPPORTED',
      `git could not give the empty clone the remote's object format ${wanted} (it has ${now})`,
      { data: { objectFormat: wanted } },
    );
}

/**
 * An empty remote: the first commit `gitmem init` would make (starter persona and human), pushed to the
 * remote's main, which becomes the upstream. A refused push fails the clone (its code kept, the message
 * saying what gitmem was doing), so the remote and this machine never start from different histories.
 */
export async function initializeEmptyClone(
  git: GitRunner,
  dir: string,
  o: { agentId: string; name: string; call: RemoteCall },
): Promise<boolean> {
  for (const [key, value] of [
    ['core.untrackedCache', 'true'],
    ['core.splitIndex', 'true'],
  ] as const)
    await git.run(['config', key, value], { cwd: dir });
  await commitEdits(git, {
    memoryDir: dir,
    edits: defaultMemoryFiles().map((f) => ({ file: f.path, before: null, after: f.content })),
    message: 'chore: initialize memory',
    author: agentIdentity(o.agentId, { given: { name: o.name } }),
    base: { head: null, trees: new Map() },
    operation: 'init',
  });
  try {
    await git.run(['push', '--quiet', 'origin', 'refs/heads/main:refs/heads/main'], { cwd: dir, ...o.call });
  } catch (err) {
    const code = isMemoryError(err) ? err.code : 'PUSH_FAILED';
    throw new MemoryError(
      code,
      `cloned an empty remote, but pushing the new agent's first commit failed (nothing was kept; fix the remote and clone again): ${redactText((err as Error).message)}`,
      { cause: err },
    );
  }
  await git.run(['branch', '-q', '--set-upstream-to=origin/main', 'main'], { cwd: dir });
  return true;
}
