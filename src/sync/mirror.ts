/**
 * A push-only mirror of main: `gitmem mirror set <url> | push | status | unset`. The post-commit hook
 * pushes in the background after each commit on main (mirror-hook.ts); this module manages the URL, runs
 * pushes and reads the log. An HTTP(S) mirror gets the sync credentials, scoped to the mirror's origin and
 * passed like sync's (git's environment, never argv); gitmem stores no token for it.
 */
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { GitCommandError, NETWORK_RETRY, type GitRetryPolicy, type GitRunner } from '../git/runner.js';
import { redactText } from '../git/redact.js';
import { ensureHooks } from '../hooks/install.js';
import { MIRROR_HOME_KEY, MIRROR_LOG, MIRROR_URL_KEY } from '../hooks/post-commit.js';
import { authForRemote, type GitCredentials } from './credentials.js';
import {
  appendMirrorLog,
  lastMirrorPush,
  readMirrorLog,
  type MirrorLogEntry,
  type MirrorTrigger,
} from './mirror-log.js';
import { credentialInUrl, normalizeRemoteUrl } from './remote.js';
import { gitDirOf } from './repo-state.js';

export type { MirrorLogEntry } from './mirror-log.js';

/** One push to the mirror: whether it worked, where to, which branch, and git's (redacted) output. */
export interface MirrorPushResult {
  ok: boolean;
  url: string | null;
  branch: string | null;
  output: string;
}

interface MirrorInput {
  git: GitRunner;
  memoryDir: string;
  signal?: AbortSignal;
  /** The sync credentials; an HTTP(S) mirror gets them scoped to its origin (none for SSH and paths). */
  credentials?: GitCredentials;
}

function requireGitDir(memoryDir: string): string {
  const gitDir = gitDirOf(memoryDir);
  if (!gitDir)
    throw new MemoryError('NOT_A_GIT_REPO', `memory repo not initialized at ${memoryDir}; cannot configure a mirror`);
  return gitDir;
}

/**
 * The configured mirror URL, or null.
 * @example await getMirrorUrl(git, dir) // 'git@github.com:me/mem-mirror.git'
 */
export async function getMirrorUrl(git: GitRunner, memoryDir: string): Promise<string | null> {
  const r = await git.run(['config', '--get', MIRROR_URL_KEY], { cwd: memoryDir, okExitCodes: [1] });
  const url = r.stdout.trim();
  return r.exitCode === 0 && url !== '' ? url : null;
}

/**
 * Stores the mirror URL (and `home`, where the post-commit hook looks for the credentials file),
 * (re)installs the hooks, then tries a first push bounded by `initialPushTimeoutMs`. `initialPush` is null
 * when there is nothing to push yet.
 * @example const { initialPush } = await setMirror({ git, memoryDir, url: 'https://h/me/mirror.git', credentials, home })
 */
export async function setMirror(
  input: MirrorInput & { url: string; baseDir?: string; initialPushTimeoutMs?: number; home?: string },
): Promise<{ url: string; initialPush: MirrorPushResult | null }> {
  requireGitDir(input.memoryDir);
  const url = normalizeRemoteUrl(input.url, input.baseDir ?? process.cwd());
  await input.git.run(['config', MIRROR_URL_KEY, url], { cwd: input.memoryDir });
  if (input.home) await input.git.run(['config', MIRROR_HOME_KEY, input.home], { cwd: input.memoryDir });
  await ensureHooks(input.git, input.memoryDir);
  let initialPush: MirrorPushResult | null = null;
  try {
    initialPush = await pushMirror({ ...input, timeoutMs: input.initialPushTimeoutMs ?? 10_000 });
  } catch (err) {
    if (!(err instanceof MemoryError && err.code === 'MIRROR_ERROR')) throw err;
  }
  return { url: redactText(url), initialPush };
}

/**
 * Removes the mirror URL. Returns the URL it had, or null when none was configured.
 * @example await unsetMirror({ git, memoryDir })
 */
export async function unsetMirror(input: MirrorInput): Promise<{ removed: string | null }> {
  requireGitDir(input.memoryDir);
  const url = await getMirrorUrl(input.git, input.memoryDir);
  if (url === null) return { removed: null };
  await input.git.run(['config', '--unset-all', MIRROR_URL_KEY], { cwd: input.memoryDir });
  await input.git.run(['config', '--unset-all', MIRROR_HOME_KEY], { cwd: input.memoryDir, okExitCodes: [5] });
  return { removed: redactText(url) };
}

/**
 * One-shot push of the current branch (main) to the mirror. Throws MIRROR_ERROR when there is no URL,
 * no commit yet, or a detached HEAD; a failed push is `{ ok: false }` with git's redacted output.
 * @example const r = await pushMirror({ git, memoryDir }); if (!r.ok) console.error(r.output)
 */
export async function pushMirror(
  input: MirrorInput & { timeoutMs?: number; retry?: GitRetryPolicy; trigger?: MirrorTrigger },
): Promise<MirrorPushResult> {
  const gitDir = requireGitDir(input.memoryDir);
  const cwd = input.memoryDir;
  const url = await getMirrorUrl(input.git, cwd);
  if (url === null) {
    throw new MemoryError('MIRROR_ERROR', 'No mirror URL configured. Use `gitmem mirror set <url>` to configure one.', {
      data: { reason: 'no_url' },
    });
  }
  const unsafe = credentialInUrl(url);
  if (unsafe) {
    // Pushing would put it on git's command line; the URL was set behind gitmem's back.
    const message = `the mirror URL carries ${unsafe}; set it again without it (gitmem mirror set <url>) and put the token in GITMEM_GIT_TOKEN or $GITMEM_HOME/credentials`;
    throw new MemoryError('MIRROR_ERROR', message, { data: { reason: 'credentials_in_url', url: redactText(url) } });
  }
  const head = await input.git.run(['rev-parse', '-q', '--verify', 'HEAD'], { cwd, okExitCodes: [1] });
  if (head.exitCode !== 0) {
    throw new MemoryError(
      'MIRROR_ERROR',
      'Memory repo has no commits yet — nothing to push. Make a change and commit first.',
      { data: { reason: 'no_commits' } },
    );
  }
  const ref = await input.git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, okExitCodes: [1] });
  const branch = ref.stdout.trim();
  if (ref.exitCode !== 0 || branch === '') {
    throw new MemoryError(
      'MIRROR_ERROR',
      'Memory repo is in a detached HEAD state — check out a branch before pushing.',
      { data: { reason: 'detached_head' } },
    );
  }
  const auth = authForRemote(input.credentials, url);
  const secrets = [...input.git.secrets, ...(auth?.secrets ?? [])];
  const shown = redactText(url);
  let result: MirrorPushResult;
  try {
    const r = await input.git.run(['push', '--porcelain', url, `refs/heads/${branch}:refs/heads/${branch}`], {
      cwd,
      remote: url,
      retry: input.retry ?? NETWORK_RETRY,
      auth,
      ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
      signal: input.signal,
    });
    // A success's output is the server's text too: scrub the token from it like any error's.
    result = { ok: true, url: shown, branch, output: redactText(`${r.stdout}${r.stderr}`.trim(), secrets) };
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    result = { ok: false, url: shown, branch, output: err.message };
  }
  const trigger = input.trigger ?? 'mirror push';
  appendMirrorLog(
    gitDir,
    { commit: head.stdout.trim().slice(0, 7), branch, trigger, ok: result.ok, output: result.output },
    secrets,
  );
  return result;
}

/**
 * The mirror URL, the last push's result (null before the first push), and the last `lines` lines of the
 * push log (empty when nothing was pushed yet).
 * @example const { url, last, log } = await mirrorStatus({ git, memoryDir }); if (last && !last.ok) console.error(last.output)
 */
export async function mirrorStatus(
  input: MirrorInput & { lines?: number },
): Promise<{ url: string | null; logPath: string; last: MirrorLogEntry | null; log: string[] }> {
  const gitDir = requireGitDir(input.memoryDir);
  const url = await getMirrorUrl(input.git, input.memoryDir);
  const text = readMirrorLog(gitDir);
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  const log = all.slice(-(input.lines ?? 20)).map((l) => redactText(l));
  return {
    url: url === null ? null : redactText(url),
    logPath: join(gitDir, MIRROR_LOG),
    last: lastMirrorPush(text),
    log,
  };
}
