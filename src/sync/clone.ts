/**
 * `gitmem clone <url>`: brings an existing agent's memory to a new machine at
 * `$GITMEM_HOME/agents/<id>/memory`, on main, with hooks installed and identity set, ready to use.
 * Clones into a temporary sibling and renames, so a failed clone leaves nothing half-made.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { MemoryError } from '../errors.js';
import { CLONE_GIT_TIMEOUT_MS, NETWORK_RETRY, type GitAuth, type GitRetryPolicy, type GitRunner } from '../git/runner.js';
import { redactText } from '../git/redact.js';
import { ensureHooks } from '../hooks/install.js';
import { agentPaths } from '../memfs/layout.js';
import { authForRemote, type GitCredentials } from './credentials.js';
import { normalizeRemoteUrl } from './remote.js';

export interface CloneOptions {
  git: GitRunner;
  home: string;
  url: string;
  /** Agent id; default: the URL's last path segment without `.git`. */
  agentId?: string;
  credentials?: GitCredentials;
  auth?: GitAuth;
  /** Resolves a relative path URL (default: the process's cwd). */
  baseDir?: string;
  signal?: AbortSignal;
  retry?: GitRetryPolicy;
  /** Per-attempt clone timeout (default 180 s). */
  timeoutMs?: number;
}

export interface CloneResult {
  agentId: string;
  memoryDir: string;
  /** Redacted remote URL. */
  url: string;
  /** Commits on main after the clone (0 for an empty remote). */
  commits: number;
  head: string | null;
}

/**
 * The agent id a clone URL suggests: its last path segment without `.git` (and a trailing `-memory`).
 * @example agentIdFromUrl('https://github.com/me/agent-7-memory.git') === 'agent-7'
 */
export function agentIdFromUrl(url: string): string {
  const last = url.replace(/\/+$/, '').split(/[/:]/).pop() ?? '';
  return last.replace(/\.git$/i, '').replace(/-memory$/i, '');
}

/**
 * Clones an agent's memory repository.
 * @example await cloneMemory({ git, home: '/home/me/.gitmem', url: 'https://github.com/me/agent-7.git' })
 */
export async function cloneMemory(opts: CloneOptions): Promise<CloneResult> {
  const url = normalizeRemoteUrl(opts.url, opts.baseDir ?? process.cwd());
  const paths = agentPaths(opts.home, opts.agentId ?? agentIdFromUrl(url));
  const dir = paths.memoryDir;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new MemoryError('AGENT_EXISTS', `agent ${paths.agentId} already has memory at ${dir}; use \`gitmem sync\` there`, {
      data: { agentId: paths.agentId, memoryDir: dir },
    });
  }
  mkdirSync(paths.agentDir, { recursive: true });
  const tmp = `${dir}.clone-${randomBytes(4).toString('hex')}`;
  const auth = opts.auth ?? authForRemote(opts.credentials, url);
  try {
    await opts.git.run(['clone', '--quiet', '--no-tags', url, tmp], {
      cwd: paths.agentDir,
      timeoutMs: opts.timeoutMs ?? CLONE_GIT_TIMEOUT_MS,
      retry: opts.retry ?? NETWORK_RETRY,
      ...(auth ? { auth } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    await checkoutMain(opts.git, tmp);
    await configureClone(opts.git, tmp, paths.agentId);
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true }); // an empty leftover directory
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  mkdirSync(paths.worktreesDir, { recursive: true });
  await ensureHooks(opts.git, dir);
  return describeClone(opts.git, paths.agentId, dir, url);
}

/** Leaves the clone on main: the remote's main, or an unborn main for an empty remote. */
async function checkoutMain(git: GitRunner, dir: string): Promise<void> {
  const remoteMain = await git.run(['rev-parse', '-q', '--verify', 'refs/remotes/origin/main'], { cwd: dir, okExitCodes: [1] });
  if (remoteMain.exitCode === 0) {
    await git.run(['checkout', '-q', '-B', 'main', 'refs/remotes/origin/main'], { cwd: dir });
    await git.run(['branch', '-q', '--set-upstream-to=origin/main', 'main'], { cwd: dir });
    return;
  }
  const anyBranch = await git.run(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/remotes/origin/'], { cwd: dir });
  if (anyBranch.stdout.trim() !== '') {
    throw new MemoryError('INVALID_ARGUMENT', 'the remote has branches but no main: it does not look like a gitmem memory repository');
  }
  await git.run(['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
}

async function configureClone(git: GitRunner, dir: string, agentId: string): Promise<void> {
  const setIfUnset = async (key: string, value: string): Promise<void> => {
    const r = await git.run(['config', '--local', '--get', key], { cwd: dir, okExitCodes: [1] });
    if (r.exitCode === 1) await git.run(['config', key, value], { cwd: dir });
  };
  await git.run(['config', 'gitmem.agentId', agentId], { cwd: dir });
  await setIfUnset('user.name', agentId);
  await setIfUnset('user.email', `${agentId}@gitmem.local`);
  await setIfUnset('commit.gpgsign', 'false');
}

async function describeClone(git: GitRunner, agentId: string, dir: string, url: string): Promise<CloneResult> {
  const head = await git.run(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: dir, okExitCodes: [1] });
  const sha = head.exitCode === 0 ? head.stdout.trim() : null;
  const count = sha ? Number((await git.run(['rev-list', '--count', 'HEAD'], { cwd: dir })).stdout.trim()) : 0;
  return { agentId, memoryDir: dir, url: redactText(url), commits: count, head: sha };
}
