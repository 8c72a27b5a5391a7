/**
 * The client half: hands one CLI call to a running daemon and relays its output and exit code. Loaded on
 * every served call, so it needs nothing beyond `node:net`.
 */
import { closeSync, openSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { basename } from 'node:path';
import { ticketPath } from './peer.js';
import {
  DAEMON_LOST_MESSAGE,
  frame,
  HANDSHAKE_MS,
  lineReader,
  runRequest,
  type ClientMessage,
  type DaemonInfo,
} from './protocol.js';

export interface ClientStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** All of standard input, read only if the command asks for it. */
  readStdin: () => string;
}

/** `ran: false` means the command did not start in the daemon, so running it here is safe. */
export type DaemonOutcome = { ran: true; code: number } | { ran: false; reason: 'absent' | 'unresponsive' | 'refused' };

export interface RunThroughOptions {
  /** How long to wait for the daemon's `ready` before giving up (and running locally). */
  handshakeMs?: number;
}

/**
 * Creates and holds open the ticket that tells the daemon who is asking (peer.ts); undefined when it cannot
 * be made (the daemon then refuses and the call runs here).
 */
function openTicket(socket: string): { name: string; close: () => void } | undefined {
  const path = ticketPath(socket, process.pid, Math.random().toString(36).slice(2, 10));
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch {
    return undefined;
  }
  let open = true;
  return {
    name: basename(path),
    close: () => {
      if (!open) return;
      open = false;
      closeSync(fd);
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}

/**
 * Runs `argv` in the daemon listening on `socket`.
 * @example const r = await runThroughDaemon(sock, { argv, env: process.env, cwd: process.cwd() }, streams)
 */
export function runThroughDaemon(
  socket: string,
  request: { argv: string[]; env: NodeJS.ProcessEnv; cwd: string },
  io: ClientStreams,
  options: RunThroughOptions = {},
): Promise<DaemonOutcome> {
  const ticket = openTicket(socket);
  return new Promise((resolve) => {
    const conn = connect(socket);
    let started = false;
    let done = false;
    const finish = (outcome: DaemonOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ticket?.close();
      if (!outcome.ran) conn.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ ran: false, reason: 'unresponsive' }), options.handshakeMs ?? HANDSHAKE_MS);
    const send = (m: ClientMessage): void => void conn.write(frame(m));
    conn.on('connect', () => {
      send({ ...runRequest(request), ...(ticket ? { ticket: ticket.name } : {}) });
    });
    const onMessage = (m: Record<string, unknown>): void => {
      if (done) return;
      if (m['t'] === 'ready' && !started) {
        started = true;
        clearTimeout(timer);
        send({ t: 'go' });
      } else if (m['t'] === 'out' && typeof m['d'] === 'string') io.stdout(m['d']);
      else if (m['t'] === 'err' && typeof m['d'] === 'string') io.stderr(m['d']);
      else if (m['t'] === 'need-stdin') send({ t: 'stdin', data: io.readStdin() });
      else if (m['t'] === 'exit' && typeof m['code'] === 'number') {
        finish({ ran: true, code: m['code'] });
        conn.destroy(); // nothing more to say: no need to wait for the daemon's FIN
      } else if (m['t'] === 'refused') finish({ ran: false, reason: 'refused' }); // never run by the daemon
    };
    conn.on(
      'data',
      lineReader(onMessage, () => conn.destroy()),
    );
    const lost = (): void => {
      if (started && !done) io.stderr(DAEMON_LOST_MESSAGE);
      finish(started ? { ran: true, code: 2 } : { ran: false, reason: 'absent' });
    };
    conn.on('error', lost);
    conn.on('close', lost);
  });
}

/** Asks the daemon on `socket` for its status or to stop; undefined when none answers. */
export function askDaemon(
  socket: string,
  what: 'ping' | 'stop',
  timeoutMs = 2000,
): Promise<DaemonInfo | { stopping: true } | undefined> {
  return new Promise((resolve) => {
    const conn = connect(socket);
    const timer = setTimeout(() => (conn.destroy(), resolve(undefined)), timeoutMs);
    const end = (v: DaemonInfo | { stopping: true } | undefined): void => {
      clearTimeout(timer);
      conn.destroy();
      resolve(v);
    };
    conn.on('connect', () => conn.write(frame({ t: what })));
    conn.on(
      'data',
      lineReader(
        (m) => {
          if (m['t'] === 'pong') {
            const { t: _t, ...info } = m;
            end(info as unknown as DaemonInfo);
          } else if (m['t'] === 'stopping') end({ stopping: true });
        },
        () => end(undefined),
      ),
    );
    conn.on('error', () => end(undefined));
    conn.on('close', () => end(undefined));
  });
}
