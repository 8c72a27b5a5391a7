/**
 * The hook channel of one confined writer: inside its sandbox the CLI daemon is out of reach by design, so
 * the process that runs the writer answers its hooks, for that worktree only. The socket lives in a private
 * temp dir (0700) that the sandbox binds read-only (a socket stays connectable through a read-only mount);
 * its path travels in GITMEM_HOOK_SOCKET. Every location git uses is the harness's own (the writer could
 * rewrite its git dir's pointer files); only the index comes from the request, and only when it is one git
 * writes for a commit inside that git dir. No peer check: the peer is the confined writer, by design.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createGitRunner, type GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import {
  listenHookValidation,
  runnerWithEnv,
  stagedIndexIn,
  withoutGitVariables,
  type HookJob,
  type HookServer,
} from './hook-server.js';
import type { HookRequest } from './hook-wire.js';
import { scratchPrefix, sweepDeadScratch } from '../process/runtime-dir.js';
import { preCommitVerdict, type PreCommitVerdict } from './pre-commit.js';
import { isGitmemHookText, writerPreCommitScript } from './pre-commit-script.js';
import { currentInstall } from './install.js';

/** Hooks a confined writer's commits do not run (see HookChannel.hooksDir). */
const NOT_FOR_WRITERS = new Set(['post-commit']);

function linkWriterHooks(dir: string, commonDir: string | undefined): string {
  const hooksDir = join(dir, 'hooks');
  mkdirSync(hooksDir);
  if (commonDir === undefined) return hooksDir;
  const shared = join(commonDir, 'hooks');
  let names: string[];
  try {
    names = readdirSync(shared);
  } catch {
    return hooksDir; // no hooks at all
  }
  for (const name of names) {
    if (name.endsWith('.sample') || NOT_FOR_WRITERS.has(name)) continue;
    if (name === 'pre-commit' && writePerlHook(join(shared, name), join(hooksDir, name))) continue;
    symlinkSync(join(shared, name), join(hooksDir, name));
  }
  return hooksDir;
}

// A system perl: inside the sandbox only the system's directories are there to run it from.
const SYSTEM_PERL = ['/usr/bin/perl', '/bin/perl'];

/** gitmem's pre-commit hook as a perl script (no shell start per commit), when it is gitmem's and perl is the system's. */
function writePerlHook(shared: string, file: string): boolean {
  const perl = SYSTEM_PERL.find((p) => existsSync(p));
  let text: string;
  try {
    text = readFileSync(shared, 'utf8');
  } catch {
    return false;
  }
  if (perl === undefined || !isGitmemHookText(text)) return false;
  writeFileSync(file, writerPreCommitScript(perl, currentInstall()), { mode: 0o755 });
  return true;
}

/** The variable the hook script reads the channel's socket from. */
export const HOOK_SOCKET_ENV = 'GITMEM_HOOK_SOCKET';

export interface HookChannelOptions {
  /** The writer's work tree (the hook's cwd). */
  worktree: string;
  /** git's locations for that worktree, stated by the harness: GIT_DIR, GIT_COMMON_DIR, object dirs. */
  gitEnv: Record<string, string>;
  /** The validator's environment (its git runner's). */
  env: Record<string, string | undefined>;
  /** The configured home: its `config` holds the system/ budget (default: the home the repository sits in). */
  home?: string | undefined;
  /** Runs git (default: a runner of its own over `env`, started through `launch`). */
  runner?: GitRunner;
  /**
   * How the validator's own runner starts git, passed in by the composition root (the handle's launcher: a
   * resident shell, not a fork of this process, since the harness answering the hook may be large).
   */
  launch: Launcher;
}

export interface HookChannel {
  socketPath: string;
  /** The private directory holding the socket (bind it into the sandbox read-only). */
  dir: string;
  /** Set these in the writer's environment. */
  env: Record<string, string>;
  /**
   * The writer's hooks directory (for its `core.hooksPath`): links to the repository's hooks, but for the
   * post-commit hook, which only mirrors main (a confined writer commits in its private worktree).
   */
  hooksDir: string;
  close: () => Promise<void>;
}

/**
 * A channel whose private directory exists (its paths can go into a sandbox's argv: the directory is bound
 * while still empty, and a bind shows what is made in it later) but that serves nothing yet. Until `start()`
 * has resolved, the hooks directory is empty: a writer must not commit before then (its gate waits for it).
 */
export interface ReservedHookChannel extends Omit<HookChannel, 'close'> {
  /**
   * Links the hooks (rejects when it cannot: the hooks directory would be incomplete), then listens;
   * resolves to whether it listens (a hook that finds nobody listening starts Node, which decides). Once.
   */
  start: () => Promise<boolean>;
  /** Stops the channel (after a start in progress) and removes the directory. */
  close: () => Promise<void>;
}

interface Reservation {
  paths: { socketPath: string; dir: string; hooksDir: string };
  link: () => void;
  listen: () => Promise<void>;
  close: () => Promise<void>;
}

let swept = false;

function reserve(o: HookChannelOptions): Reservation {
  const gitDir = o.gitEnv['GIT_DIR'];
  if (!gitDir) throw new Error("serveHookValidation needs the worktree's GIT_DIR");
  if (!swept) {
    swept = true; // once per process: the channels of killed harnesses (their sockets and hook links)
    sweepDeadScratch(tmpdir(), 'gitmem-hook');
  }
  const dir = mkdtempSync(join(tmpdir(), scratchPrefix('gitmem-hook')));
  // Held open until close: its inode number cannot go to a directory made in its place meanwhile.
  const held = openSync(dir, 'r');
  const made = fstatSync(held);
  const paths = { socketPath: join(dir, 'h.sock'), dir, hooksDir: join(dir, 'hooks') };
  let server: Promise<HookServer | undefined> | undefined;
  let closed = false;
  return {
    paths,
    link: () => {
      if (closed || server !== undefined) throw new Error('a hook channel starts once, and not after it was closed');
      // A sandbox bound the directory made here: one put in its place since would hold hooks it never sees.
      const now = lstatSync(dir, { throwIfNoEntry: false });
      if (!now?.isDirectory() || now.ino !== made.ino || now.dev !== made.dev)
        throw new Error(`${dir} is no longer the hook directory it was made as`);
      linkWriterHooks(dir, o.gitEnv['GIT_COMMON_DIR']); // before listening: a failure leaves nothing running
    },
    listen: async () => {
      const listening = listenInDir(o, gitDir, paths.socketPath);
      server = listening.catch(() => undefined);
      await listening;
    },
    close: async () => {
      if (!closed) closeSync(held);
      closed = true;
      await (await server)?.close();
      // Off the event loop: /tmp may be a disk, where this costs ~2 ms of unlinks the merge need not wait behind.
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on the reserved socket, answering for `o.worktree` only. */
function listenInDir(o: HookChannelOptions, gitDir: string, socket: string): Promise<HookServer> {
  const worktree = resolve(o.worktree);
  const git = o.runner ?? createGitRunner({ env: withoutGitVariables(o.env), launch: o.launch });
  const admit = (request: HookRequest): HookJob | string => {
    if (resolve(request.cwd) !== worktree) return 'this channel answers for another worktree';
    const index = stagedIndexIn(gitDir, worktree, request.env.GIT_INDEX_FILE);
    if (index === undefined) return 'the index is not one git writes for a commit in this worktree';
    return { cwd: worktree, gitEnv: { ...o.gitEnv, GIT_WORK_TREE: worktree, GIT_INDEX_FILE: index }, home: o.home };
  };
  const validate = async (job: HookJob): Promise<PreCommitVerdict> => {
    return preCommitVerdict(runnerWithEnv(git, job.gitEnv), job.cwd, job.home);
  };
  return listenHookValidation({ socket, admit, validate });
}

/**
 * Reserves the channel's directory now (synchronously; nothing is served yet): see ReservedHookChannel.
 * @example const ch = reserveHookChannel({ worktree, gitEnv, env, launch }); spawnWriter(ch.dir, ch.hooksDir); await ch.start(); …; await ch.close()
 */
export function reserveHookChannel(o: HookChannelOptions): ReservedHookChannel {
  const r = reserve(o);
  const start = async (): Promise<boolean> => {
    r.link();
    return r.listen().then(
      () => true,
      () => false,
    );
  };
  return { ...r.paths, env: { [HOOK_SOCKET_ENV]: r.paths.socketPath }, start, close: r.close };
}

/**
 * Serves validation for one worktree until `close()`.
 * @example const ch = await serveHookValidation({ worktree, gitEnv: harnessWorktreeEnv(dirs), env, launch }); …; await ch.close()
 */
export async function serveHookValidation(o: HookChannelOptions): Promise<HookChannel> {
  const r = reserve(o);
  try {
    r.link();
    await r.listen();
  } catch (err) {
    await r.close();
    throw err;
  }
  return { ...r.paths, env: { [HOOK_SOCKET_ENV]: r.paths.socketPath }, close: r.close };
}
