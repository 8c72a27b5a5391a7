/**
 * The CLI daemon's answer to pre-commit hooks run from plain shells: a second socket in the daemon's private
 * runtime directory, named for this install's hook entry (hook-wire.ts), so the hook lines that name this
 * install reach code of this install. Several daemons of one install (one per home) share it: the first
 * answers, the others take it over when it goes. A daemon whose install was rebuilt under it refuses (its
 * loaded rules may be older than the entry's), and every request must come from outside every sandbox
 * (the caller's peer check) and name an index inside its own repository's git dir.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { createGitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import {
  listenHookValidation,
  runnerWithEnv,
  stagedIndexIn,
  withoutGitVariables,
  type HookJob,
  type HookServer,
} from './hook-server.js';
import { hookSocketPath, type HookRequest } from './hook-wire.js';
import { preCommitVerdict, type PreCommitVerdict } from './pre-commit.js';

export interface DaemonHookOptions {
  /** The daemon's private runtime directory. */
  runtimeDir: string;
  /** This install's hook entry (install.ts `preCommitEntry()`). */
  entry: string;
  /** Why a hook process must be refused (the daemon's peer check), or undefined. */
  peerRefusal: (socket: string, request: HookRequest) => string | undefined;
  /** How git starts (the daemon's resident shells). */
  launch?: Launcher;
  /** The daemon's environment: git's PATH and the like (git's own variables are dropped). */
  env: Record<string, string | undefined>;
  /** The budget's home for a hook with this environment in `cwd` (config.ts hookHome); default: the repository's. */
  hookHome?: (env: Record<string, string | undefined>, cwd: string) => string;
  log?: (line: string) => void;
  /** How often a daemon that does not hold the socket tries to take it (default 1 s). */
  retryMs?: number;
  /** Removes tickets of hook processes that died holding them (the daemon's ticket sweep). */
  sweep?: (socket: string) => void;
}

/** The repository's git dir as git resolves it for a hook: GIT_DIR, else `<cwd>/.git` (a dir or a `gitdir:` file). */
function repoGitDir(cwd: string, gitDir: string | undefined): string | undefined {
  if (gitDir) return resolve(cwd, gitDir);
  const dotGit = resolve(cwd, '.git');
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dotGit, 'utf8').slice(0, 4096));
    return m?.[1] ? resolve(cwd, m[1].trim()) : undefined;
  } catch {
    return undefined;
  }
}

function fingerprint(file: string): string {
  try {
    const st = statSync(file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return 'gone';
  }
}

function contentHash(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return 'gone';
  }
}

/**
 * True while `entry` holds the code this process loaded: checked by its stat, and by its content only when the
 * stat changed (a rebuild that wrote the same bytes keeps the daemon answering).
 */
function sameBuild(entry: string): () => boolean {
  let stat = fingerprint(entry);
  const hash = contentHash(entry);
  return () => {
    const now = fingerprint(entry);
    if (now === stat) return hash !== 'gone';
    if (now === 'gone' || contentHash(entry) !== hash) return false;
    stat = now;
    return true;
  };
}

/** The job for a request from a plain shell: git's own variables as the hook got them, the index checked. */
export function admitShellHook(request: HookRequest): HookJob | string {
  const e = request.env;
  if (!existsSync(request.cwd)) return 'no such directory';
  const gitDir = repoGitDir(request.cwd, e.GIT_DIR);
  const index = gitDir ? stagedIndexIn(gitDir, request.cwd, e.GIT_INDEX_FILE) : undefined;
  if (index === undefined) return 'the index is not one git writes for a commit in this repository';
  const gitEnv: Record<string, string> = { GIT_INDEX_FILE: index };
  for (const k of [
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_COMMON_DIR',
    'GIT_OBJECT_DIRECTORY',
    'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  ] as const) {
    const v = e[k];
    if (v !== undefined) gitEnv[k] = v;
  }
  return { cwd: request.cwd, gitEnv };
}

/**
 * Answers hooks on this install's hook socket while the daemon runs; `close()` when it stops.
 * @example const hooks = serveDaemonHooks({ runtimeDir: address.dir, entry: preCommitEntry(), peerRefusal, env: process.env })
 */
export function serveDaemonHooks(o: DaemonHookOptions): { socket: string; close: () => Promise<void> } {
  const socket = hookSocketPath(o.runtimeDir, o.entry);
  const current = sameBuild(o.entry);
  const git = createGitRunner({ env: withoutGitVariables(o.env), launch: o.launch });
  const admit = (request: HookRequest): HookJob | string => {
    if (!current()) return 'this daemon runs an older build of the hook';
    const job = o.peerRefusal(socket, request) ?? admitShellHook(request);
    return typeof job === 'string' || !o.hookHome ? job : { ...job, home: o.hookHome(request.env, job.cwd) };
  };
  const validate = (job: HookJob): Promise<PreCommitVerdict> =>
    preCommitVerdict(runnerWithEnv(git, job.gitEnv), job.cwd, job.home);
  let server: HookServer | undefined;
  let closed = false;
  let trying = false;
  const take = async (): Promise<void> => {
    if (server || closed || trying || !current()) return;
    trying = true;
    try {
      server = await listenHookValidation({ socket, admit, validate, log: o.log });
      if (closed) await server.close();
    } catch {
      // another daemon of this install answers: try again later
    } finally {
      trying = false;
    }
  };
  void take();
  const retry = setInterval(() => {
    const stale = !current();
    if (server && (stale || !server.holds())) {
      // Rebuilt under us: hand the socket to a daemon of the new build. Removed or replaced (another daemon of
      // this install took the path): let go, and take the path again once nobody answers there.
      const lost = server;
      server = undefined;
      void lost.close();
    }
    if (!stale) void take();
    if (server) o.sweep?.(socket);
  }, o.retryMs ?? 1000);
  retry.unref();
  return {
    socket,
    close: async () => {
      closed = true;
      clearInterval(retry);
      await server?.close();
    },
  };
}
