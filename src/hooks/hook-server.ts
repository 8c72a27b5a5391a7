/**
 * A unix-socket server that answers pre-commit hooks (wire format: hook-wire.ts), so a raw `git commit` in a
 * memory repository pays a perl start and a round trip instead of a Node start. Two processes run one: the
 * CLI daemon for plain shells (hook-daemon.ts) and the harness of a confined writer for that writer's
 * worktree only (serve-hook-validation.ts). Each decides which requests it admits; this file bounds every
 * request in size and time, runs the one validator, and refuses (the hook then starts Node) whenever
 * anything goes wrong: a server never answers "pass" for a check it did not complete.
 */
import { chmodSync, lstatSync, realpathSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import {
  hookRequestState,
  HOOK_REQUEST_MS,
  MAX_HOOK_REQUEST_BYTES,
  parseHookRequest,
  renderRefusal,
  renderVerdict,
  type HookRequest,
} from './hook-wire.js';
import type { GitRunner } from '../git/runner.js';
import { socketOwnership } from '../process/runtime-dir.js';
import type { PreCommitVerdict } from './pre-commit.js';

/** What an admitted request is validated with: the directory, git's environment, the validator's. */
export interface HookJob {
  cwd: string;
  gitEnv: Record<string, string>;
  /** The home whose `config` holds the system/ budget (undefined: the one the repository sits in). */
  home?: string | undefined;
}

export interface HookServerOptions {
  socket: string;
  /** The job for a request, or why it is refused. */
  admit: (request: HookRequest) => HookJob | string;
  validate: (job: HookJob) => Promise<PreCommitVerdict>;
  log?: (line: string) => void;
  /** How long one conversation may last (default HOOK_REQUEST_MS); then it is dropped without a verdict. */
  requestMs?: number;
  /** Checks run at once at most (default MAX_CHECKS); past that a request is refused and its hook starts Node. */
  maxChecks?: number;
}

/** A client may open many connections (a confined writer's is hostile by design): each check starts git here. */
const MAX_CHECKS = 4;

export interface HookServer {
  socket: string;
  /** Whether the socket path still names this server's socket (another server may have replaced it). */
  holds: () => boolean;
  /** Stops answering; removes the socket unless another process has taken its path. */
  close: () => Promise<void>;
}

/** A process's environment without git's per-repository variables: a request brings its own. */
export function withoutGitVariables(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('GIT_')));
}

/** `git` with `env` added to every call it makes (a job's locations; the call's own entries still win). */
export function runnerWithEnv(git: GitRunner, env: Record<string, string>): GitRunner {
  return {
    run: (args, options) => git.run(args, { ...options, env: { ...env, ...options.env } }),
    exec: (op, options) => git.exec(op, { ...options, env: { ...env, ...options.env } }),
    secrets: git.secrets,
    detach: (args, options) => git.detach(args, options),
  };
}

const INDEX_NAME = /^(?:index|index\.lock|next-index-\d+\.lock)$/;

/**
 * The absolute index file git named for this commit, when it is one git writes for a commit (the index, its
 * lock, or a partial commit's temporary index) as a regular file directly inside `gitDir`; else undefined.
 * @example stagedIndexIn('/m/.git', '/m', '.git/index') // '/m/.git/index'
 */
export function stagedIndexIn(gitDir: string, cwd: string, indexFile: string | undefined): string | undefined {
  if (!indexFile) return undefined;
  const file = resolve(cwd, indexFile);
  if (!INDEX_NAME.test(basename(file))) return undefined;
  try {
    if (!lstatSync(file).isFile()) return undefined;
    return realpathSync(dirname(file)) === realpathSync(gitDir) ? file : undefined;
  } catch {
    return undefined;
  }
}

function answer(conn: Socket, o: HookServerOptions, data: Buffer, running: { checks: number }): void {
  const request = parseHookRequest(data);
  const admitted = request ? o.admit(request) : 'bad request';
  const job =
    typeof admitted !== 'string' && running.checks >= (o.maxChecks ?? MAX_CHECKS)
      ? 'busy: too many checks at once'
      : admitted;
  if (typeof job === 'string') {
    o.log?.(`refused a hook request: ${job}`);
    conn.end(renderRefusal(job));
    return;
  }
  running.checks++;
  o.validate(job)
    .then(
      (verdict) => conn.end(renderVerdict(verdict)),
      (err: unknown) => {
        o.log?.(`hook check failed: ${(err as Error)?.message ?? String(err)}`);
        conn.end(renderRefusal('the check failed here'));
      },
    )
    .finally(() => running.checks--);
}

function serve(conn: Socket, o: HookServerOptions, running: { checks: number }): void {
  conn.on('error', () => undefined); // a vanished hook is not the server's problem
  const timer = setTimeout(() => conn.destroy(), o.requestMs ?? HOOK_REQUEST_MS);
  conn.on('close', () => clearTimeout(timer));
  let data = Buffer.alloc(0);
  let done = false;
  conn.on('data', (chunk: Buffer) => {
    if (done) return;
    data = Buffer.concat([data, chunk]);
    if (data.length > MAX_HOOK_REQUEST_BYTES)
      return ((done = true), void conn.end(renderRefusal('request too large'), () => conn.destroy()));
    const state = hookRequestState(data);
    if (state === 'partial') return;
    done = true;
    if (state === 'bad') return void conn.end(renderRefusal('bad request'), () => conn.destroy());
    answer(conn, o, data, running);
  });
}

function alive(socket: string): Promise<boolean> {
  return new Promise((res) => {
    const c = connect(socket);
    c.on('connect', () => (c.destroy(), res(true)));
    c.on('error', () => res(false));
  });
}

function listenOnce(server: Server, socket: string): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((res) => {
    server.once('error', res);
    server.listen(socket, () => (server.off('error', res), res(undefined)));
  });
}

// sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs, the terminating NUL included.
const MAX_SOCKET_PATH_BYTES = process.platform === 'linux' ? 107 : 103;

/**
 * Listens on `socket` (mode 0600; a dead server's socket is replaced, a live one is left alone and reported
 * as `HOOK_SOCKET_BUSY`).
 * @example const s = await listenHookValidation({ socket, admit, validate }); …; await s.close()
 */
export async function listenHookValidation(o: HookServerOptions): Promise<HookServer> {
  // Node shortens a longer path without a word and listens there: refuse it instead (the hook then starts Node).
  if (Buffer.byteLength(o.socket) > MAX_SOCKET_PATH_BYTES)
    throw Object.assign(new Error(`${o.socket} is too long for a unix socket`), { code: 'HOOK_SOCKET_PATH' });
  // Half-open: a client that shuts its side down after the request still gets the answer.
  const open = new Set<Socket>();
  const running = { checks: 0 };
  const server = createServer({ allowHalfOpen: true }, (conn) => {
    open.add(conn);
    conn.on('close', () => open.delete(conn));
    serve(conn, o, running);
  });
  let err = await listenOnce(server, o.socket);
  if (err?.code === 'EADDRINUSE') {
    if (await alive(o.socket))
      throw Object.assign(new Error(`${o.socket} is answered by another process`), { code: 'HOOK_SOCKET_BUSY' });
    unlinkSync(o.socket);
    err = await listenOnce(server, o.socket);
  }
  if (err) throw err;
  try {
    chmodSync(o.socket, 0o600);
  } catch (e) {
    server.close();
    throw e;
  }
  const ours = socketOwnership(o.socket);
  return {
    socket: o.socket,
    holds: ours,
    close: () =>
      new Promise((res) => {
        // Closing unlinks the path: when another server owns it now, only let go.
        // A check still running is dropped: its hook gets no verdict and starts Node.
        for (const conn of open) conn.destroy();
        if (!ours()) return (server.unref(), res());
        server.close(() => res());
      }),
  };
}
