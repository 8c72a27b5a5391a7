/** One client conversation as the daemon sees it: a unix-socket connection with frames written at once. */
import type { Socket } from 'node:net';

export interface Channel {
  /** Sends text; dropped once the client is gone. */
  write(text: string): void;
  /** Finishes the conversation once everything written has gone out. */
  end(): void;
  destroy(): void;
  onData(fn: (chunk: Buffer) => void): void;
  /** The client went away (or the conversation ended). */
  onClose(fn: () => void): void;
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
