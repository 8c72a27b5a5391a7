/** One client conversation as the daemon sees it, whatever carries it (a socket or a FIFO pair). */
import { closeSync, writeSync } from 'node:fs';
import { Socket } from 'node:net';
import type { PeerClaim } from './peer.js';

export interface Channel {
  /** Sends text; dropped once the client is gone. */
  write(text: string): void;
  /** Finishes the conversation once everything written has gone out. */
  end(): void;
  destroy(): void;
  onData(fn: (chunk: Buffer) => void): void;
  /** The client went away (or the conversation ended). */
  onClose(fn: () => void): void;
  /** Who the transport says the client is (the FIFO pair's claimer); socket clients name a ticket instead. */
  peer?: PeerClaim;
}

/**
 * A unix-socket connection as a channel. Writes made in one tick leave as one: a stream keeps only one
 * write in flight, so without corking the last frame (the exit code) would wait for another loop turn.
 */
export function socketChannel(conn: Socket): Channel {
  conn.on('error', () => undefined); // a vanished client is not the daemon's problem
  return {
    write: (t) => {
      if (!conn.writable) return;
      if (conn.writableCorked === 0) {
        conn.cork();
        process.nextTick(() => conn.uncork());
      }
      conn.write(t);
    },
    end: () => void conn.end(),
    destroy: () => void conn.destroy(),
    onData: (fn) => void conn.on('data', fn),
    onClose: (fn) => void conn.on('close', fn),
  };
}

/**
 * A FIFO pair (read `up`, write `down`, both open and non-blocking) as a channel. Frames go to `down`
 * with direct writes, so they reach the client at once; a full pipe (a large output the client has not
 * read yet) queues the rest and retries shortly.
 */
export function fifoChannel(upFd: number, downFd: number): Channel {
  const reader = new Socket({ fd: upFd, readable: true, writable: false });
  const closers: Array<() => void> = [];
  let queue: Buffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  let ending = false;
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    timer = undefined;
    queue = []; // the descriptor number may be reused by the next client: never write to it again
    reader.destroy();
    closeSync(downFd);
    closers.forEach((fn) => fn());
  };
  const flush = (): void => {
    timer = undefined;
    if (closed) return;
    try {
      while (queue.length > 0) {
        const head = queue[0] as Buffer;
        const n = writeSync(downFd, head);
        if (n < head.length) queue[0] = head.subarray(n);
        else queue.shift();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return close(); // EPIPE: the client is gone
    }
    if (queue.length > 0) timer = setTimeout(flush, 1);
    else if (ending) close();
  };
  reader.on('error', close);
  reader.on('end', close); // the client closed its end of `up`
  reader.on('close', close);
  return {
    write: (t) => {
      if (closed || ending) return;
      queue.push(Buffer.from(t));
      if (!timer) flush();
    },
    end: () => {
      if (closed) return;
      ending = true;
      if (!timer) flush();
    },
    destroy: () => {
      queue = [];
      close();
    },
    onData: (fn) => void reader.on('data', fn),
    onClose: (fn) => void closers.push(fn),
  };
}
