/**
 * `gitmem clone <url>`: brings an agent's memory to a new machine at `$GITMEM_HOME/agents/<id>/memory`, on
 * main, with hooks installed and identity set, ready to use. An EMPTY remote (a freshly created repository) is
 * initialised like `gitmem init` (starter persona/human, the first commit; clone-empty.ts) and pushed, so both
 * sides hold the same history from the start. Clones into a temporary sibling and renames; a clone that fails
 * at any step removes what it made (the agent directory too, when it created it), so no half-made agent stays.
 * The home is prepared like the CLI's (home.ts: no recursive mkdir, HOME_UNUSABLE when it cannot be used). A
 * clone has its remote's object format (SHA-1 or SHA-256); for an empty remote, which git clones with its
 * own default, gitmem asks the remote and switches the still-empty clone to that format before the first commit.
 */
import { layoutOfRootNames } from '../blocks/layouts.js';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { MemoryError } from '../errors.js';
import { agentIdentity } from '../identity.js';
import { prepareHome } from '../home.js';
import {
  CLONE_GIT_TIMEOUT_MS,
  NETWORK_RETRY,
  type GitAuth,
  type GitRetryPolicy,
  type GitRunner,
} from '../git/runner.js';
import { redactText } from '../git/redact.js';
import { ensureHooks } from '../hooks/install.js';
import { agentPaths, type AgentPaths } from '../memfs/layout.js';
import { adoptRemoteObjectFormat, initializeEmptyClone, type RemoteCall } from './clone-empty.js';
import { authForRemote, type GitCredentials } from './credentials.js';
import { normalizeRemoteUrl } from './remote.js';
import { applyScope, cloneProblems, normalizeScope, readerCloneArgs, type ReaderShape } from './partial.js';

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
  /** Author name of the first commit when the remote is empty (default: the agent id). */
  name?: string;
  /** Blob-less partial clone (`--filter=blob:none`): blobs are fetched on first read. */
  partial?: boolean;
  /** Sparse checkout of this directory, plus system/ and the root files the prompt needs. */
  scope?: string;
}

/** What `cloneMemory` did: the agent, where its memory is, and what came from the remote. */
export interface CloneResult {
  agentId: string;
  memoryDir: string;
  /** Redacted remote URL. */
  url: string;
  /** Commits on main after the clone. */
  commits: number;
  head: string | null;
  /** True when the remote was empty: gitmem made the agent's first commit and pushed it. */
  initialized: boolean;
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
 * Clones an agent's memory repository (an empty one is initialised and pushed).
 * @example await cloneMemory({ git, home: '/home/me/.gitmem', url: 'https://github.com/me/agent-7.git' })
 */
export async function cloneMemory(opts: CloneOptions): Promise<CloneResult> {
  const url = normalizeRemoteUrl(opts.url, opts.baseDir ?? process.cwd());
  const shape: ReaderShape = {
    ...(opts.partial ? { partial: true } : {}),
    ...(opts.scope !== undefined ? { scope: normalizeScope(opts.scope) } : {}),
  };
  const paths = agentPaths(opts.home, opts.agentId ?? agentIdFromUrl(url));
  let madeFrom: string | undefined; // the topmost directory this call creates, for the cleanup of a failure
  for (let d = paths.agentDir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) madeFrom = d;
  prepareHome(opts.home); // plain mkdirs only: a recursive one never returns under /proc
  const dir = paths.memoryDir;
  const hadDir = existsSync(dir);
  if (hadDir && readdirSync(dir).length > 0) {
    throw new MemoryError(
      'AGENT_EXISTS',
      `agent ${paths.agentId} already has memory at ${dir}; use \`gitmem sync\` there`,
      {
        data: { agentId: paths.agentId, memoryDir: dir },
      },
    );
  }
  mkdirSync(paths.agentDir, { recursive: true }); // one level below the prepared home's agents/
  const madeWorktrees = !existsSync(paths.worktreesDir);
  const tmp = `${dir}.clone-${randomBytes(4).toString('hex')}`;
  const auth = opts.auth ?? authForRemote(opts.credentials, url);
  const call: RemoteCall = {
    retry: opts.retry ?? NETWORK_RETRY,
    timeoutMs: opts.timeoutMs ?? CLONE_GIT_TIMEOUT_MS,
    auth,
    signal: opts.signal,
  };
  let placed = false;
  let initialized = false;
  try {
    // No checkout yet: the remote's files reach the disk only once they passed the memory rules (checkoutMain).
    const cloneArgs = ['clone', '--quiet', '--no-tags', '--no-checkout', ...readerCloneArgs(shape), url, tmp];
    await opts.git.run(cloneArgs, { cwd: paths.agentDir, ...call });
    if (shape.scope !== undefined) await applyScope(opts.git, tmp, shape.scope);
    const empty = await checkoutMain(opts.git, tmp, { home: opts.home, shape, call });
    await configureClone(opts.git, tmp, paths.agentId);
    if (empty) await adoptRemoteObjectFormat(opts.git, tmp, call);
    if (empty)
      initialized = await initializeEmptyClone(opts.git, tmp, {
        agentId: paths.agentId,
        name: opts.name ?? paths.agentId,
        call,
      });
    if (hadDir) rmSync(dir, { recursive: true, force: true }); // an empty leftover directory
    renameSync(tmp, dir);
    placed = true;
    mkdirSync(paths.worktreesDir, { recursive: true });
    await ensureHooks(opts.git, dir);
  } catch (err) {
    removeClone({ tmp, paths, placed, hadDir, madeWorktrees, madeFrom });
    throw err;
  }
  return { ...(await describeClone(opts.git, paths.agentId, dir, url)), initialized };
}

/**
 * Removes what a failed clone made: the temporary clone, the memory directory once renamed (an empty one that
 * was there before comes back), the worktrees directory and the agent directories it created, each only while
 * empty (rmdir), so nothing another process put there meanwhile is lost.
 */
function removeClone(o: {
  tmp: string;
  paths: AgentPaths;
  placed: boolean;
  hadDir: boolean;
  madeWorktrees: boolean;
  madeFrom: string | undefined;
}): void {
  rmSync(o.tmp, { recursive: true, force: true });
  if (o.placed) {
    rmSync(o.paths.memoryDir, { recursive: true, force: true });
    if (o.hadDir) mkdirSync(o.paths.memoryDir, { recursive: true });
  }
  const rmdir = (d: string): boolean => {
    try {
      rmdirSync(d);
      return true;
    } catch {
      return false;
    }
  };
  if (o.madeWorktrees) rmdir(o.paths.worktreesDir);
  if (o.madeFrom === undefined) return;
  for (let d = o.paths.agentDir; rmdir(d) && d !== o.madeFrom; d = dirname(d)) {
    // climb to the topmost directory this clone created
  }
}

/**
 * A clone's layout (`gitmem.layout` is repository config, which a clone does not copy), read from the shape of
 * the remote's tree: a root MEMORY.md and no system/ directory is the index layout, anything else the system
 * layout. Recorded before the remote's files are judged, so they are judged by their own layout's rules.
 */
async function recordLayoutOf(git: GitRunner, dir: string, rev: string): Promise<void> {
  const names = (await git.run(['ls-tree', '-z', '--name-only', rev], { cwd: dir })).stdout.split('\0');
  await git.run(['config', 'gitmem.layout', layoutOfRootNames(names)], { cwd: dir });
}

/**
 * Leaves the clone on main: the remote's main (false), or an unborn main for an empty remote (true).
 * Refuses a remote that has branches but no main.
 */
async function checkoutMain(
  git: GitRunner,
  dir: string,
  o: { home: string; shape: ReaderShape; call: RemoteCall },
): Promise<boolean> {
  const remoteMain = await git.run(['rev-parse', '-q', '--verify', 'refs/remotes/origin/main'], {
    cwd: dir,
    okExitCodes: [1],
  });
  if (remoteMain.exitCode === 0) {
    await recordLayoutOf(git, dir, remoteMain.stdout.trim());
    const problems = await cloneProblems(
      { git, memoryDir: dir, home: o.home },
      remoteMain.stdout.trim(),
      o.shape,
      o.call,
    );
    if (problems.length > 0) {
      const shown =
        problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; … and ${problems.length - 5} more` : '');
      throw new MemoryError(
        'REMOTE_REJECTED',
        `the remote's main breaks the memory rules, so nothing was cloned: ${shown}`,
        { data: { problems } },
      );
    }
    await git.run(['checkout', '-q', '-B', 'main', 'refs/remotes/origin/main'], { cwd: dir });
    await git.run(['branch', '-q', '--set-upstream-to=origin/main', 'main'], { cwd: dir });
    return false;
  }
  const anyBranch = await git.run(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/remotes/origin/'], {
    cwd: dir,
  });
  if (anyBranch.stdout.trim() !== '') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      'the remote has branches but no main: it does not look like a gitmem memory repository',
    );
  }
  await git.run(['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
  return true;
}

async function configureClone(git: GitRunner, dir: string, agentId: string): Promise<void> {
  const setIfUnset = async (key: string, value: string): Promise<void> => {
    const r = await git.run(['config', '--local', '--get', key], { cwd: dir, okExitCodes: [1] });
    if (r.exitCode === 1) await git.run(['config', key, value], { cwd: dir });
  };
  await git.run(['config', 'gitmem.agentId', agentId], { cwd: dir });
  const id = agentIdentity(agentId);
  await setIfUnset('user.name', id.name);
  await setIfUnset('user.email', id.email);
  await setIfUnset('commit.gpgsign', 'false');
}

async function describeClone(
  git: GitRunner,
  agentId: string,
  dir: string,
  url: string,
): Promise<Omit<CloneResult, 'initialized'>> {
  const head = await git.run(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: dir, okExitCodes: [1] });
  const sha = head.exitCode === 0 ? head.stdout.trim() : null;
  const count = sha ? Number((await git.run(['rev-list', '--count', 'HEAD'], { cwd: dir })).stdout.trim()) : 0;
  return { agentId, memoryDir: dir, url: redactText(url), commits: count, head: sha };
}
