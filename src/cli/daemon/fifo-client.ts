/**
 * The daemon's fast transport, client side: named pipes driven with synchronous `fs` calls only.
 *
 * Why not the socket: loading `node:net` and setting up a socket costs a CLI call ~6 ms, a fifth of its
 * whole budget. `fs` is loaded with Node itself. The daemon keeps a pool of FIFO pairs (`pool/<n>/up`,
 * `pool/<n>/down`); a client claims one by renaming it into `busy/<pid>-<n>`, writes its request (`run`,
 * `go`) into `up`, and rings the daemon's doorbell FIFO with the pair's name. The daemon takes the pair
 * by renaming it into `taken/` and answers on `down` in the socket's protocol. Renames are atomic, so if
 * the daemon is slow to answer, the client's own rename out of `busy/` decides who runs the command:
 * if it succeeds the daemon can no longer take it and the client runs it itself; if it fails the daemon
 * has it and the client waits. With no pair free the client uses the socket (client.ts).
 */
import { closeSync, constants as C, openSync, readdirSync, readSync, renameSync, rmdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientStreams, DaemonOutcome } from './client.js';
import { DAEMON_LOST_MESSAGE, frame, HANDSHAKE_MS, lineReader, runRequest, type ClientMessage } from './protocol.js';

const TAKEN_SILENCE_MS = 30_000;
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const nap = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);

/** Claims a free FIFO pair; undefined when the pool is empty or missing. */
function claim(fifoDir: string): { id: string; dir: string } | undefined {
  let names: string[];
  try {
    names = readdirSync(join(fifoDir, 'pool'));
  } catch {
    return undefined;
  }
  const start = Math.floor(Math.random() * names.length);
  for (let i = 0; i < names.length; i++) {
    const name = names[(start + i) % names.length] as string;
    const id = `${process.pid}-${name}`;
    try {
      renameSync(join(fifoDir, 'pool', name), join(fifoDir, 'busy', id));
      return { id, dir: join(fifoDir, 'busy', id) };
    } catch {
      // taken by another client meanwhile: try the next
    }
  }
  return undefined;
}

type Frame = Record<string, unknown>;

/** Reads what is there: bytes read, 0 at end-of-file, -1 when nothing is there yet. */
function readSome(fd: number, buf: Buffer): number {
  try {
    return readSync(fd, buf);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
    return -1;
  }
}

/**
 * Reads frames from the non-blocking `fd` until `until()` holds; false when the deadline passes first, or
 * (with `eofEnds`) when the writer has closed. Before the daemon opens its end a read returns 0 as well,
 * so end-of-file only counts once it has answered.
 */
function pollFrames(fd: number, feed: (chunk: Buffer) => void, until: () => boolean, deadline: number, eofEnds = false): boolean {
  const buf = Buffer.allocUnsafe(65536);
  while (!until()) {
    if (Date.now() > deadline) return false;
    const n = readSome(fd, buf);
    if (n > 0) feed(buf.subarray(0, n));
    else if (n === 0 && eofEnds) return until();
    else nap(0.1); // nothing yet
  }
  return true;
}

/**
 * Runs `request` through the daemon's FIFO transport; undefined when no pair is free (use the socket).
 * @example const r = runThroughFifo(address.fifoDir, { argv, env, cwd }, streams) ?? await runThroughDaemon(…)
 */
export function runThroughFifo(
  fifoDir: string,
  request: { argv: string[]; env: NodeJS.ProcessEnv; cwd: string },
  io: ClientStreams,
  options: { handshakeMs?: number } = {},
): DaemonOutcome | undefined {
  const pair = claim(fifoDir);
  if (!pair) return undefined;
  const fds: number[] = [];
  try {
    // Read-write so opening never blocks and `up` stays open for the daemon's reader; non-blocking so a
    // write never waits on a daemon that is gone.
    const up = openSync(join(pair.dir, 'up'), C.O_RDWR | C.O_NONBLOCK);
    fds.push(up);
    const pending = openSync(join(pair.dir, 'down'), C.O_RDONLY | C.O_NONBLOCK);
    fds.push(pending);
    // Buffered in the pipe until the daemon reads it; harmless if it never does (see the rename race above).
    // A request larger than the pipe holds goes over the socket instead (nothing was rung yet).
    const bytes = Buffer.from(frame(runRequest(request)) + frame({ t: 'go' }));
    if (writeSome(up, bytes) < bytes.length) return undefined;
    try {
      const door = openSync(join(fifoDir, 'door'), C.O_WRONLY | C.O_NONBLOCK); // ENXIO: no daemon reads it
      writeSync(door, `${pair.id}\n`);
      closeSync(door);
    } catch {
      return { ran: false, reason: 'absent' };
    }
    return converse(fifoDir, pair, { up, pending }, io, Date.now() + (options.handshakeMs ?? HANDSHAKE_MS));
  } finally {
    for (const fd of fds) closeSync(fd);
    for (const where of ['taken', 'busy']) if (removePair(join(fifoDir, where, pair.id))) break;
  }
}

/** Writes what fits without waiting; returns the bytes written. */
function writeSome(fd: number, bytes: Buffer): number {
  try {
    return writeSync(fd, bytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
    throw err;
  }
}

/**
 * Writes all of `bytes` to the non-blocking `fd`; while the pipe is full, `stalled()` is asked whether the
 * reader is still there (false: give up). Returns false when it gave up.
 */
function writeAll(fd: number, bytes: Buffer, stalled: () => boolean): boolean {
  let off = 0;
  while (off < bytes.length) {
    const n = writeSome(fd, bytes.subarray(off));
    off += n;
    if (n > 0) continue;
    if (!stalled()) return false;
    nap(0.2);
  }
  return true;
}

/** Removes a pair directory (two FIFOs); false when it is not there. */
function removePair(dir: string): boolean {
  try {
    unlinkSync(join(dir, 'up'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
  }
  try {
    unlinkSync(join(dir, 'down'));
  } catch {
    // already gone
  }
  rmdirSync(dir); // (unlink, not rmSync: rmSync's first call loads a module, ~1 ms on every CLI call)
  return true;
}

/** True when the client withdrew the request before the daemon took it (so running it here is safe). */
function withdraw(fifoDir: string, id: string): boolean {
  const gone = join(fifoDir, 'busy', `${id}.withdrawn`);
  try {
    renameSync(join(fifoDir, 'busy', id), gone);
  } catch {
    return false; // the daemon renamed it first: it runs the command
  }
  rmSync(gone, { recursive: true, force: true });
  return true;
}

function converse(
  fifoDir: string,
  pair: { id: string },
  ends: { up: number; pending: number },
  io: ClientStreams,
  deadline: number,
): DaemonOutcome {
  const { up, pending } = ends;
  let first: Frame | undefined;
  let exit: number | undefined;
  let refused = false; // the daemon will not run it (it was stopping): safe to run here
  let gone = false; // the daemon closed `down` (it died) while we were sending
  const send = (m: ClientMessage): void => {
    // A large stdin may not fit the pipe at once: keep draining `down` while waiting, and stop if the daemon died.
    const buf = Buffer.allocUnsafe(65536);
    const alive = (): boolean => {
      const n = readSome(pending, buf);
      if (n > 0) feed(buf.subarray(0, n));
      gone = n === 0;
      return !gone;
    };
    writeAll(up, Buffer.from(frame(m)), alive);
  };
  const onFrame = (m: Frame): void => {
    if (!first) return void (first = m);
    if (m['t'] === 'refused') refused = true;
    else if (m['t'] === 'out' && typeof m['d'] === 'string') io.stdout(m['d']);
    else if (m['t'] === 'err' && typeof m['d'] === 'string') io.stderr(m['d']);
    else if (m['t'] === 'need-stdin') send({ t: 'stdin', data: io.readStdin() });
    else if (m['t'] === 'exit' && typeof m['code'] === 'number') exit = m['code'];
  };
  const feed = lineReader(onFrame, () => undefined);
  const arrived = (): boolean => first !== undefined;
  if (!pollFrames(pending, feed, arrived, deadline)) {
    if (withdraw(fifoDir, pair.id)) return { ran: false, reason: 'unresponsive' };
    // Taken: the daemon answers right after taking, so silence from here on means it died with the command.
    if (!pollFrames(pending, feed, arrived, Date.now() + TAKEN_SILENCE_MS)) return io.stderr(DAEMON_LOST_MESSAGE), { ran: true, code: 2 };
  }
  if (first?.['t'] !== 'ready') return { ran: false, reason: 'refused' };
  // From here the daemon has had `down` open, so end-of-file means it closed it: with no exit, it died.
  const closed = gone || !pollFrames(pending, feed, () => exit !== undefined || refused || gone, Infinity, true);
  if (refused && exit === undefined) return { ran: false, reason: 'refused' };
  if (closed && exit === undefined) return io.stderr(DAEMON_LOST_MESSAGE), { ran: true, code: 2 };
  return { ran: true, code: exit ?? 2 };
}
