/** One client conversation as the daemon sees it, whatever carries it (a socket or a FIFO pair). */
import { Socket } from 'node:net';

export interface Channel {
  /** Sends text; dropped once the client is gone. */
  write(text: string): void;
  /** Finishes the conversation. */
  end(): void;
  destroy(): void;
  onData(fn: (chunk: Buffer) => void): void;
  /** The client went away (or the conversation ended). */
  onClose(fn: () => void): void;
}

/** A unix-socket connection as a channel. */
export function socketChannel(conn: Socket): Channel {
  conn.on('error', () => undefined); // a vanished client is not the daemon's problem
  return {
    write: (t) => void (conn.writable && conn.write(t)),
    end: () => void conn.end(),
    destroy: () => void conn.destroy(),
    onData: (fn) => void conn.on('data', fn),
    onClose: (fn) => void conn.on('close', fn),
  };
}

/** A FIFO pair (read `up`, write `down`, both already open) as a channel. */
export function fifoChannel(upFd: number, downFd: number): Channel {
  const reader = new Socket({ fd: upFd, readable: true, writable: false });
  const writer = new Socket({ fd: downFd, readable: false, writable: true });
  const closers: Array<() => void> = [];
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    reader.destroy();
    writer.destroy();
    closers.forEach((fn) => fn());
  };
  reader.on('error', close);
  writer.on('error', close); // EPIPE: the client is gone
  reader.on('end', close); // the client closed its end of `up`
  reader.on('close', close);
  return {
    write: (t) => void (!closed && writer.writable && writer.write(t)),
    end: () => {
      writer.end(() => close());
    },
    destroy: close,
    onData: (fn) => void reader.on('data', fn),
    onClose: (fn) => void closers.push(fn),
  };
}
