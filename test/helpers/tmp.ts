/**
 * Hermetic temp directories and git repos for tests: on /dev/shm when present (repo creation there is
 * ~18x cheaper than on disk), fixed identity, signing and gc off, branch main.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
const created: string[] = [];

/** A fresh empty directory, removed by {@link cleanupTmp}. */
export function makeTmpDir(prefix = 'gitmem-test-'): string {
  const dir = mkdtempSync(join(ROOT, prefix));
  created.push(dir);
  return dir;
}

/** Removes every directory made by makeTmpDir in this worker. */
export function cleanupTmp(): void {
  // Retries: a git process of a SIGKILLed child (crash tests) may still be finishing a file in there (ENOTEMPTY).
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

/** Environment for raw git calls in tests: no user/system config leaks in. */
export function hermeticGitEnv(home: string): Record<string, string> {
  return {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-test'),
    GIT_AUTHOR_NAME: 'Test User',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test User',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_TERMINAL_PROMPT: '0',
    // No CLI daemon unless a test asks for one.
    GITMEM_DAEMON: '0',
    // CI's second pass (GITMEM_FAST_PATHS=0) reaches every handle and CLI a test opens.
    ...(process.env['GITMEM_FAST_PATHS'] !== undefined ? { GITMEM_FAST_PATHS: process.env['GITMEM_FAST_PATHS'] } : {}),
  };
}

/** Runs git synchronously in `cwd` with a hermetic environment; returns trimmed stdout. */
export function git(cwd: string, args: string[], env: Record<string, string> = hermeticGitEnv(cwd)): string {
  // gc.autoDetach=false: an auto-gc after a bulk commit runs before git returns, never on after the test's cleanup.
  return execFileSync(
    'git',
    ['-c', 'commit.gpgsign=false', '-c', 'init.defaultBranch=main', '-c', 'gc.autoDetach=false', ...args],
    {
      cwd,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  ).trim();
}

/** Like {@link git} but returns {status, stdout, stderr} instead of throwing. */
export function gitTry(cwd: string, args: string[], env: Record<string, string> = hermeticGitEnv(cwd)) {
  try {
    return { status: 0, stdout: git(cwd, args, env), stderr: '' };
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    return { status: e.status ?? 1, stdout: String(e.stdout ?? ''), stderr: String(e.stderr ?? '') };
  }
}

/**
 * A new repository at `dir` (branch main) whose one commit `init` holds one file: what most worktree tests start from.
 * @example initRepoWithFile(memoryDir, 'system/persona.md', 'persona\n', env)
 */
export function initRepoWithFile(dir: string, file: string, text: string, env: Record<string, string>): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  git(dir, ['init', '-q', '-b', 'main'], env);
  writeFileSync(join(dir, file), text);
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '-m', 'init'], env);
}
