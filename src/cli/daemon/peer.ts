/**
 * Who is asking: the daemon runs what it is sent with the caller's environment and no confinement, so a
 * request from inside a gitmem sandbox (a background writer that somehow reached the runtime directory)
 * must be refused. Sandboxes hide the runtime directory in the first place; this is the second wall.
 *
 * A client proves where it runs by naming its pid and a ticket file it created next to the socket and holds
 * open while it talks. On Linux the daemon then checks, in /proc, that this pid
 * holds that very file (same device and inode) and lives in the daemon's own mount namespace. A confined
 * process cannot pass: its own pid is in another mount (and pid) namespace, and it cannot make a process
 * outside hold a file of its choosing. The environment marker (GITMEM_SANDBOX) is checked too, though a
 * hostile client can drop it. Without /proc (macOS) only the marker is checked.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from '../../process/run.js';

/** A client's claim: its pid and a file it holds open for the conversation. */
export interface PeerClaim {
  pid: number;
  holds: string;
}

const SENTINEL = 'GITMEM_SANDBOX';
const TICKET = /^(.+)\.(\d+)-[0-9a-z]+\.ticket$/;

/**
 * The ticket file a socket client creates (mode 0600, beside the socket) and holds open while it talks.
 * @example ticketPath('/run/user/1/gitmem-1/ab.sock', 42, 'x1') // '/run/user/1/gitmem-1/ab.sock.42-x1.ticket'
 */
export function ticketPath(socket: string, pid: number, nonce: string): string {
  return `${socket}.${pid}-${nonce}.ticket`;
}

/**
 * The claim a socket request's ticket name makes, or undefined when the name is not a ticket of `socket`.
 * @example ticketClaim('/d/ab.sock', 'ab.sock.42-x1.ticket') // { pid: 42, holds: '/d/ab.sock.42-x1.ticket' }
 */
export function ticketClaim(socket: string, ticket: unknown): PeerClaim | undefined {
  if (typeof ticket !== 'string' || ticket.includes('/')) return undefined;
  const m = TICKET.exec(ticket);
  if (!m || m[1] !== basename(socket)) return undefined;
  return { pid: Number(m[2]), holds: join(dirname(socket), ticket) };
}

function identity(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

function holdsOpen(pid: number, file: string): boolean {
  const want = identity(file);
  if (want === undefined) return false;
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => identity(`/proc/${pid}/fd/${fd}`) === want);
}

/**
 * Why a request must be refused, or undefined when it comes from outside every sandbox.
 * @example peerRefusal({ pid: 4242, holds: '/run/…/ab.sock.4242-x1.ticket' }, request.env) // undefined for a plain CLI
 */
export function peerRefusal(claim: PeerClaim | undefined, env: Record<string, string>): string | undefined {
  if ((env[SENTINEL] ?? '') !== '') return `the client runs inside a gitmem sandbox (${SENTINEL}=${env[SENTINEL]})`;
  const own = identity('/proc/self/ns/mnt');
  if (own === undefined) return undefined; // no /proc here: the sandbox's hiding is the only wall
  if (claim === undefined || !Number.isSafeInteger(claim.pid) || claim.pid <= 0)
    return 'the client did not say who it is';
  if (identity(`/proc/${claim.pid}/ns/mnt`) !== own) return "the client is not in the daemon's mount namespace";
  if (!holdsOpen(claim.pid, claim.holds)) return 'the client does not hold the file it names';
  return undefined;
}

/**
 * Removes tickets of `socket` whose client died without removing its own.
 * @example sweepTickets(address.socket)
 */
export function sweepTickets(socket: string): void {
  let names: string[];
  try {
    names = readdirSync(dirname(socket));
  } catch {
    return;
  }
  for (const name of names) {
    const claim = ticketClaim(socket, name);
    if (claim && !isProcessAlive(claim.pid)) rmSync(claim.holds, { force: true });
  }
}
