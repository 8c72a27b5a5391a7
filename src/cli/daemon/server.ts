/**
 * The daemon: a resident process that runs served CLI calls in-process, so a call costs a Node start, a
 * socket round trip and the command itself, not a full CLI start (see docs/internals.md, "The CLI daemon").
 *
 * Each request carries the caller's argv, environment and directory and runs through the same `main` as
 * a local call; output is relayed as it is written. The daemon stops when idle, when its home directory
 * disappears, when its socket is taken over, on SIGTERM/SIGINT, or when asked (`gitmem daemon stop`).
 * A request cut off by a stop is never half-done by the daemon's doing: memory writes are atomic and
 * crash-safe (journal roll-forward), and the client reports the loss rather than retrying.
 */
import { existsSync, unlinkSync, chmodSync } from 'node:fs';
import { createServer, connect, type Server } from 'node:net';
import { socketChannel, type Channel } from './channel.js';
import { peerRefusal, sweepTickets, ticketClaim } from './peer.js';
import {
  frame,
  lineReader,
  PROTOCOL_VERSION,
  type DaemonInfo,
  type DaemonMessage,
  type RunRequest,
} from './protocol.js';
import type { CliIo } from '../types.js';
import { socketOwnership } from '../../process/runtime-dir.js';

export interface DaemonOptions {
  socket: string;
  home: string;
  build: string;
  /** Stop after this long without a request. */
  idleMs: number;
  /** Runs one CLI call (the CLI's `main`). */
  run: (argv: string[], io: CliIo) => Promise<number>;
  log: (line: string) => void;
  /** Log each request as it starts and with its duration (GITMEM_DAEMON_TRACE=1). */
  trace?: boolean;
  /** How often to check idleness, the home and the socket (default 1 s). */
  checkEveryMs?: number;
}

const TAKEN_OVER = 'socket taken over or removed';

interface State {
  active: number;
  served: number;
  lastActivity: number;
  stopping: boolean;
}

function isRunRequest(m: Record<string, unknown>): m is RunRequest & Record<string, unknown> {
  return (
    m['v'] === PROTOCOL_VERSION &&
    Array.isArray(m['argv']) &&
    m['argv'].every((a) => typeof a === 'string') &&
    typeof m['env'] === 'object' &&
    m['env'] !== null &&
    Object.values(m['env']).every((v) => typeof v === 'string') &&
    typeof m['cwd'] === 'string' &&
    m['cwd'].startsWith('/')
  );
}

interface StdinWaiter {
  resolve: (s: string) => void;
  reject: (e: Error) => void;
}

interface RunContext {
  o: DaemonOptions;
  state: State;
  send: (m: DaemonMessage) => void;
  conn: Channel;
  /** Where the client's standard input is awaited, once the command asks for it. */
  waitStdin: (w: StdinWaiter) => void;
}

/** Runs one request: its output and exit code go back over the connection, which then ends. */
async function runRequest(req: RunRequest, c: RunContext): Promise<void> {
  const { o, state, send, conn } = c;
  state.active++;
  state.lastActivity = Date.now(); // only commands count as activity: a status ping must not keep it alive
  const io: CliIo = {
    env: req.env,
    cwd: req.cwd,
    stdout: (d) => send({ t: 'out', d }),
    stderr: (d) => send({ t: 'err', d }),
    readStdin: () =>
      new Promise((resolve, reject) => {
        c.waitStdin({ resolve, reject });
        send({ t: 'need-stdin' });
      }),
  };
  let code = 2;
  const t0 = performance.now();
  if (o.trace) o.log(`running ${req.argv.slice(0, 2).join(' ')}`);
  try {
    code = await o.run(req.argv, io);
  } catch (err) {
    o.log(`run failed: ${(err as Error).stack ?? String(err)}`);
    send({ t: 'err', d: `gitmem: INTERNAL: ${(err as Error).message}\n` });
  }
  send({ t: 'exit', code });
  conn.end();
  if (o.trace) o.log(`ran ${req.argv.slice(0, 2).join(' ')} → ${code} in ${(performance.now() - t0).toFixed(1)} ms`);
  state.active--;
  state.served++;
  state.lastActivity = Date.now();
}

/** Serves one conversation: a ping, a stop, or a run (see protocol.ts for the handshake). */
function handle(
  conn: Channel,
  o: DaemonOptions,
  state: State,
  info: () => DaemonInfo,
  stop: (why: string) => void,
): void {
  const send = (m: DaemonMessage): void => conn.write(frame(m));
  let request: RunRequest | undefined;
  let go = false;
  let stdinWaiter: StdinWaiter | undefined;
  conn.onClose(() => stdinWaiter?.reject(new Error('the client closed standard input')));
  const execute = (req: RunRequest): Promise<void> =>
    runRequest(req, { o, state, send, conn, waitStdin: (w) => (stdinWaiter = w) });
  conn.onData(
    lineReader(
      (m) => {
        if (m['t'] === 'ping') return (send({ t: 'pong', ...info() }), void conn.end());
        if (m['t'] === 'stop') return (send({ t: 'stopping' }), conn.end(), stop('asked to stop'));
        if (m['t'] === 'run' && !request) {
          if (!isRunRequest(m) || state.stopping)
            return (send({ t: 'refused', reason: state.stopping ? 'stopping' : 'bad request' }), void conn.end());
          // Never run a request from inside a sandbox: the client then runs it itself, confined.
          const refusal = peerRefusal(ticketClaim(o.socket, m['ticket']), m.env);
          if (refusal)
            return (
              o.log(`refused a request: ${refusal}`),
              send({ t: 'refused', reason: 'unverified client' }),
              void conn.end()
            );
          request = m;
          if (go) void execute(request);
          return;
        }
        if (m['t'] === 'go' && !go) {
          go = true;
          if (request) void execute(request);
          return;
        }
        if (m['t'] === 'stdin' && stdinWaiter)
          return stdinWaiter.resolve(typeof m['data'] === 'string' ? m['data'] : '');
      },
      () => conn.destroy(),
    ),
  );
  // `ready` goes out at once, so the client's `go` follows its request without waiting a round trip.
  if (state.stopping) return (send({ t: 'refused', reason: 'stopping' }), conn.end());
  send({ t: 'ready' });
}

/** Resolves true when something already answers on `socket`. */
function alive(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(socket);
    c.on('connect', () => (c.destroy(), resolve(true)));
    c.on('error', () => resolve(false));
  });
}

async function listen(server: Server, socket: string): Promise<void> {
  const attempt = (): Promise<NodeJS.ErrnoException | undefined> =>
    new Promise((resolve) => {
      server.once('error', resolve);
      server.listen(socket, () => (server.off('error', resolve), resolve(undefined)));
    });
  let err = await attempt();
  if (err?.code === 'EADDRINUSE') {
    if (await alive(socket))
      throw Object.assign(new Error('a daemon already serves this home'), { code: 'DAEMON_RUNNING' });
    unlinkSync(socket); // a dead daemon's socket
    err = await attempt();
  }
  if (err) throw err;
  chmodSync(socket, 0o600);
}

/**
 * Runs the daemon until it stops; resolves with the reason.
 * @example await serveDaemon({ socket, home, build: BUILD_ID, idleMs: 600_000, run: main, log })
 */
export async function serveDaemon(o: DaemonOptions): Promise<string> {
  const state: State = { active: 0, served: 0, lastActivity: Date.now(), stopping: false };
  const startedAt = new Date().toISOString();
  const info = (): DaemonInfo => ({ pid: process.pid, build: o.build, home: o.home, served: state.served, startedAt });
  let stop: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => {
    stop = (why) => {
      if (state.stopping) return;
      state.stopping = true;
      // A taken-over path belongs to another daemon now: closing would unlink its socket (libuv unlinks
      // the path), so only let go of the server.
      if (why === TAKEN_OVER) server.unref();
      else server.close(); // also unlinks the socket path
      const wait = setInterval(() => state.active === 0 && (clearInterval(wait), resolve(why)), 20);
    };
  });
  const server = createServer((conn) => handle(socketChannel(conn), o, state, info, stop));
  await listen(server, o.socket);
  const ownSocket = socketOwnership(o.socket);
  const check = setInterval(() => {
    if (state.active === 0 && Date.now() - state.lastActivity >= o.idleMs) stop('idle');
    else if (!existsSync(o.home)) stop('home directory removed');
    else if (!ownSocket()) stop(TAKEN_OVER);
    else sweepTickets(o.socket);
  }, o.checkEveryMs ?? 1000);
  const onSignal = (): void => stop('signal');
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  // A bug must not take running commands down with it: log it, finish what runs, then stop.
  const onCrash = (err: unknown): void => (
    o.log(`uncaught: ${(err as Error)?.stack ?? String(err)}`),
    stop('internal error')
  );
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  o.log(`listening on ${o.socket} (pid ${process.pid}, build ${o.build})`);
  const why = await stopped;
  clearInterval(check);
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  process.off('uncaughtException', onCrash);
  process.off('unhandledRejection', onCrash);
  o.log(`stopped: ${why} after ${state.served} request(s)`);
  return why;
}
