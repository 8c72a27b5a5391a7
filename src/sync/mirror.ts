/**
 * A push-only mirror of main (SPEC §7.3–7.4): `gitmem mirror set <url> | push | status | unset`. The
 * post-commit hook pushes in the background after each commit on main; this module manages the URL,
 * runs one-shot pushes (logged like the hook's) and reads the log. The mirror uses the user's own git
 * credentials; gitmem stores no token for it.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { GitCommandError, NETWORK_RETRY, type GitRunner } from '../git/runner.js';
import { redactText } from '../git/redact.js';
import { ensureHooks } from '../hooks/install.js';
import { MIRROR_LOG, MIRROR_URL_KEY } from '../hooks/post-commit.js';
import { credentialInUrl, normalizeRemoteUrl } from './remote.js';
import { gitDirOf } from './repo-state.js';

/** SPEC A.8. */
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
}

function requireGitDir(memoryDir: string): string {
  const gitDir = gitDirOf(memoryDir);
  if (!gitDir) throw new MemoryError('NOT_A_GIT_REPO', `memory repo not initialized at ${memoryDir}; cannot configure a mirror`);
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
 * Stores the mirror URL, (re)installs the hooks, then tries a first push bounded by `initialPushTimeoutMs`.
 * `initialPush` is null when there is nothing to push yet.
 * @example const { initialPush } = await setMirror({ git, memoryDir, url: 'git@github.com:me/mirror.git' })
 */
export async function setMirror(
  input: MirrorInput & { url: string; baseDir?: string; initialPushTimeoutMs?: number },
): Promise<{ url: string; initialPush: MirrorPushResult | null }> {
  requireGitDir(input.memoryDir);
  const url = normalizeRemoteUrl(input.url, input.baseDir ?? process.cwd());
  await input.git.run(['config', MIRROR_URL_KEY, url], { cwd: input.memoryDir });
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
  return { removed: redactText(url) };
}

/**
 * One-shot push of the current branch (main) to the mirror. Throws MIRROR_ERROR when there is no URL,
 * no commit yet, or a detached HEAD; a failed push is `{ ok: false }` with git's redacted output.
 * @example const r = await pushMirror({ git, memoryDir }); if (!r.ok) console.error(r.output)
 */
export async function pushMirror(input: MirrorInput & { timeoutMs?: number }): Promise<MirrorPushResult> {
  const gitDir = requireGitDir(input.memoryDir);
  const cwd = input.memoryDir;
  const url = await getMirrorUrl(input.git, cwd);
  if (url === null) {
    throw new MemoryError('MIRROR_ERROR', 'No mirror URL configured. Use `gitmem mirror set <url>` to configure one.', { data: { reason: 'no_url' } });
  }
  const unsafe = credentialInUrl(url);
  if (unsafe) {
    // Pushing would put it on git's command line; the URL was set behind gitmem's back.
    const message = `the mirror URL carries ${unsafe}; set it again without it (gitmem mirror set <url>) and let git's own credential setup supply the token`;
    throw new MemoryError('MIRROR_ERROR', message, { data: { reason: 'credentials_in_url', url: redactText(url) } });
  }
  const head = await input.git.run(['rev-parse', '-q', '--verify', 'HEAD'], { cwd, okExitCodes: [1] });
  if (head.exitCode !== 0) {
    throw new MemoryError('MIRROR_ERROR', 'Memory repo has no commits yet — nothing to push. Make a change and commit first.', { data: { reason: 'no_commits' } });
  }
  const ref = await input.git.run(['symbolic-ref', '--quiet', '--short', 'HEAD'], { cwd, okExitCodes: [1] });
  const branch = ref.stdout.trim();
  if (ref.exitCode !== 0 || branch === '') {
    throw new MemoryError('MIRROR_ERROR', 'Memory repo is in a detached HEAD state — check out a branch before pushing.', { data: { reason: 'detached_head' } });
  }
  const shown = redactText(url);
  let result: MirrorPushResult;
  try {
    const r = await input.git.run(['push', '--porcelain', url, `refs/heads/${branch}:refs/heads/${branch}`], {
      cwd,
      retry: NETWORK_RETRY,
      ...(input.timeoutMs ? { timeoutMs: input.timeoutMs } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    result = { ok: true, url: shown, branch, output: redactText(`${r.stdout}${r.stderr}`.trim()) };
  } catch (err) {
    if (!(err instanceof GitCommandError)) throw err;
    result = { ok: false, url: shown, branch, output: err.stderr.trim() || err.message };
  }
  appendLog(gitDir, head.stdout.trim().slice(0, 7), branch, result);
  return result;
}

function appendLog(gitDir: string, sha: string, branch: string, r: MirrorPushResult): void {
  const stamp = new Date().toISOString();
  appendFileSync(join(gitDir, MIRROR_LOG), `\n--- ${stamp} ${sha} on ${branch} (gitmem mirror push) ---\n${r.output}\nexit=${r.ok ? 0 : 1}\n`);
}

/** The outcome of the latest push in the log (the hook's or `gitmem mirror push`'s). */
export interface MirrorLastPush {
  /** The log header's time stamp, as written. */
  at: string;
  sha: string;
  branch: string;
  ok: boolean;
  exitCode: number;
}

const HEADER = /^--- (\S+) (\S+) on (\S+)(?: \(gitmem mirror push\))? ---$/;

/**
 * The latest push recorded in a mirror log's text, or null when none finished.
 * @example lastMirrorPush('--- 2025-01-01T00:00:00Z abc1234 on main ---\nok\nexit=0\n')?.ok === true
 */
export function lastMirrorPush(logText: string): MirrorLastPush | null {
  const lines = logText.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const exit = /^exit=(\d+)$/.exec(lines[i] as string);
    if (!exit) continue;
    for (let j = i - 1; j >= 0; j--) {
      const h = HEADER.exec(lines[j] as string);
      if (!h) continue;
      const exitCode = Number(exit[1]);
      return { at: h[1] as string, sha: h[2] as string, branch: h[3] as string, ok: exitCode === 0, exitCode };
    }
    return null;
  }
  return null;
}

/**
 * The mirror URL, the latest push's outcome and the last `lines` lines of the push log (empty when nothing
 * was pushed yet).
 * @example const { url, lastPush, log } = await mirrorStatus({ git, memoryDir })
 */
export async function mirrorStatus(
  input: MirrorInput & { lines?: number },
): Promise<{ url: string | null; logPath: string; lastPush: MirrorLastPush | null; log: string[] }> {
  const gitDir = requireGitDir(input.memoryDir);
  const url = await getMirrorUrl(input.git, input.memoryDir);
  const logPath = join(gitDir, MIRROR_LOG);
  const text = existsSync(logPath) ? readFileSync(logPath, 'utf8') : '';
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  const log = all.slice(-(input.lines ?? 20)).map((l) => redactText(l));
  return { url: url === null ? null : redactText(url), logPath, lastPush: lastMirrorPush(text), log };
}
