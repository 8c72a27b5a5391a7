/**
 * The daemon's wire format: one JSON object per line, both ways.
 *
 * A run is a handshake, so a client that gives up early can safely run the command itself:
 *   daemon `ready` (on accept) · client `run` → client `go` (once it has seen `ready`) → the daemon runs
 *   it, streaming `out` / `err` (and `need-stdin` → client `stdin`) → daemon `exit`.
 * The daemon never starts a command before `go`; the client never runs one itself after sending `go`.
 */
import type { MemoryErrorCode } from '../../errors.js';

export const PROTOCOL_VERSION = 1;

const LOST: MemoryErrorCode = 'DAEMON_LOST';

/** What a client prints when the daemon dies after it took a command (exit code 2; never retried). */
export const DAEMON_LOST_MESSAGE =
  `gitmem: ${LOST}: the gitmem daemon stopped while running this command; it may or may not have taken ` +
  'effect (check `gitmem log`). Set GITMEM_DAEMON=0 to run commands without the daemon.\n';

export interface RunRequest {
  t: 'run';
  v: number;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Socket clients: the ticket file they hold open beside the socket (peer.ts), proving who they are. */
  ticket?: string;
}

/** How long a client waits for a daemon's first answer before running the command itself. */
export const HANDSHAKE_MS = 3000;

/** The `run` message for a call (only string-valued environment entries travel). */
export function runRequest(call: { argv: string[]; env: NodeJS.ProcessEnv; cwd: string }): RunRequest {
  const env = Object.fromEntries(
    Object.entries(call.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return { t: 'run', v: PROTOCOL_VERSION, argv: call.argv, env, cwd: call.cwd };
}

export type ClientMessage = RunRequest | { t: 'go' } | { t: 'stdin'; data: string } | { t: 'ping' } | { t: 'stop' };

export interface DaemonInfo {
  pid: number;
  build: string;
  home: string;
  served: number;
  startedAt: string;
}

export type DaemonMessage =
  | { t: 'ready' }
  | { t: 'out'; d: string }
  | { t: 'err'; d: string }
  | { t: 'need-stdin' }
  | { t: 'exit'; code: number }
  | ({ t: 'pong' } & DaemonInfo)
  | { t: 'stopping' }
  | { t: 'refused'; reason: string };

/** One message as a line. */
export function frame(message: ClientMessage | DaemonMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Splits a byte stream into parsed lines; `onMessage` gets each object, `onBad` a line that is not one.
 * @example socket.on('data', lineReader((m) => handle(m), () => socket.destroy()))
 */
export function lineReader(
  onMessage: (message: Record<string, unknown>) => void,
  onBad: () => void,
): (chunk: Buffer | string) => void {
  // Split on newline bytes before decoding: a read may end inside a multi-byte character, and a JSON line
  // holds no raw newline (nor does any byte of a multi-byte UTF-8 character equal 0x0a).
  let pending: Buffer = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length === 0 ? Buffer.from(chunk) : Buffer.concat([pending, Buffer.from(chunk)]);
    let nl = pending.indexOf(0x0a);
    while (nl !== -1) {
      const line = pending.subarray(0, nl).toString('utf8');
      pending = pending.subarray(nl + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        onMessage(parsed as Record<string, unknown>);
      else onBad();
      nl = pending.indexOf(0x0a);
    }
  };
}
