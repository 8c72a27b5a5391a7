/**
 * The daemon's FIFO transport (see fifo-client.ts for the client and the why): a doorbell FIFO, a pool of
 * ready FIFO pairs kept topped up off the request path, and a sweep of pairs left by clients that died.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants as C, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { fifoChannel, type Channel } from './channel.js';
import { frame } from './protocol.js';

const POOL_LOW = 4;
const POOL_BATCH = 16;

/** Makes FIFOs (mode 0600) at the given paths; the daemon passes one that runs `mkfifo` cheaply. */
export type MakeFifos = (paths: string[]) => Promise<void>;
const ID = /^(\d+)-[0-9a-z]+$/;

export interface FifoTransport {
  /** Removes pairs whose client process is gone. */
  sweep(): void;
  /** Stops listening, removes the doorbell and the pool, and refuses waiting clients (they run locally). */
  close(): void;
  /** Stops listening and touches no path (another daemon owns them now). */
  detach(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates POOL_BATCH pairs with one `mkfifo` and publishes each by renaming it into the pool. */
async function refill(dir: string, mkfifo: MakeFifos): Promise<void> {
  const stage = join(dir, 'stage');
  const names = Array.from({ length: POOL_BATCH }, () => Math.random().toString(36).slice(2, 10));
  for (const n of names) mkdirSync(join(stage, n), { recursive: true, mode: 0o700 });
  try {
    await mkfifo(names.flatMap((n) => [join(stage, n, 'up'), join(stage, n, 'down')]));
    for (const n of names) renameSync(join(stage, n), join(dir, 'pool', n));
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Sends `refused` to every client waiting on a pair it claimed but the daemon has not taken. */
function refuseWaiting(busy: string): void {
  for (const id of existsSync(busy) ? readdirSync(busy) : []) {
    try {
      const fd = openSync(join(busy, id, 'down'), C.O_WRONLY | C.O_NONBLOCK); // ENXIO: not listening yet
      try {
        writeSync(fd, frame({ t: 'refused', reason: 'stopping' }));
      } finally {
        closeSync(fd);
      }
    } catch {
      // that client will find no doorbell and run the command itself
    }
  }
}

interface TransportOptions {
  dir: string;
  log: (line: string) => void;
  mkfifo: MakeFifos;
  onChannel: (ch: Channel) => void;
}

/** Takes the pair a client rang for (unless it withdrew first) and hands it over as a channel. */
function answer(o: TransportOptions, id: string): void {
  if (!ID.test(id)) return;
  const pair = join(o.dir, 'taken', id);
  try {
    renameSync(join(o.dir, 'busy', id), pair); // fails if the client withdrew first (fifo-client.ts)
  } catch {
    return;
  }
  let down: number | undefined;
  try {
    down = openSync(join(pair, 'down'), C.O_WRONLY | C.O_NONBLOCK); // ENXIO: the client gave up
    const up = openSync(join(pair, 'up'), C.O_RDONLY | C.O_NONBLOCK);
    // The claimer named its pid; it holds `down` open while it waits (checked by the server: peer.ts).
    o.onChannel({ ...fifoChannel(up, down), peer: { pid: Number(ID.exec(id)?.[1]), holds: join(pair, 'down') } });
  } catch {
    if (down !== undefined) closeSync(down);
    rmSync(pair, { recursive: true, force: true });
  }
}

/** Removes pairs whose client process is gone. */
function sweepDead(dir: string): void {
  for (const where of ['busy', 'taken']) {
    for (const id of readdirSync(join(dir, where))) {
      const pid = Number(/^(\d+)-/.exec(id)?.[1]);
      if (!pid || !alive(pid)) rmSync(join(dir, where, id), { recursive: true, force: true });
    }
  }
}

/** Opens the doorbell (recreated: an earlier daemon's rings are void) as a readable stream. */
function openDoor(dir: string): Socket {
  // An earlier daemon's doorbell and pool go; pairs its clients still hold stay theirs (swept once they exit).
  rmSync(join(dir, 'door'), { force: true });
  rmSync(join(dir, 'pool'), { recursive: true, force: true });
  for (const sub of ['pool', 'busy', 'taken']) mkdirSync(join(dir, sub), { recursive: true, mode: 0o700 });
  execFileSync('mkfifo', ['-m', '600', join(dir, 'door')]);
  // Read-write: the doorbell never reports end-of-file when no client has it open.
  return new Socket({ fd: openSync(join(dir, 'door'), C.O_RDWR | C.O_NONBLOCK), readable: true, writable: false });
}

/**
 * Opens the transport in `dir` and hands each client's pair to `onChannel`.
 * @example const t = openFifoTransport({ dir: address.fifoDir, log, mkfifo, onChannel: (ch) => handle(ch) })
 */
export function openFifoTransport(o: TransportOptions): FifoTransport {
  const door = openDoor(o.dir);
  let refilling = false;
  let closed = false;
  const topUp = (): void => {
    try {
      if (refilling || closed || readdirSync(join(o.dir, 'pool')).length >= POOL_LOW) return;
    } catch (err) {
      return o.log(`fifo pool: ${(err as Error).message}`);
    }
    refilling = true;
    refill(o.dir, o.mkfifo)
      .catch((err: unknown) => o.log(`fifo pool: refill failed: ${(err as Error).message}`))
      .finally(() => void (refilling = false));
  };
  door.on('data', lineSplitter((id) => {
    answer(o, id);
    setImmediate(topUp); // after the request has started
  }));
  door.on('error', (err) => o.log(`fifo door: ${err.message}`));
  topUp();
  return {
    sweep(): void {
      try {
        sweepDead(o.dir);
      } catch (err) {
        o.log(`fifo sweep: ${(err as Error).message}`); // the directory changed under us: next time
      }
      topUp();
    },
    close(): void {
      // No new rings, no new claims; then every client already waiting is told to run its command itself.
      closed = true;
      door.destroy();
      rmSync(join(o.dir, 'door'), { force: true });
      rmSync(join(o.dir, 'pool'), { recursive: true, force: true });
      refuseWaiting(join(o.dir, 'busy'));
    },
    detach(): void {
      closed = true;
      door.destroy();
    },
  };
}

/** Calls `fn` with each complete line of a byte stream (the doorbell's lines are ASCII pair names). */
function lineSplitter(fn: (line: string) => void): (chunk: Buffer) => void {
  let pending = '';
  return (chunk) => {
    pending += chunk.toString('latin1');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    lines.forEach(fn);
  };
}
