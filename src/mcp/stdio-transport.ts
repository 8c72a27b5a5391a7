/**
 * The MCP stdio transport gitmem serves on: newline-delimited JSON-RPC like the SDK's
 * StdioServerTransport, but every line gets an answer. The SDK's reader drops lines it cannot parse
 * without a reply and closes the connection (the server then exits 0) once 10 MB are buffered; this one
 * answers malformed lines (see envelope.ts), refuses a line over {@link MAX_LINE_BYTES} with an error
 * response — holding at most the limit in memory while it skips the rest of that line — and keeps serving.
 */
import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, readLine } from './envelope.js';

/** The longest line (one JSON-RPC message, newline excluded) the server reads: 4 MiB. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How much of an oversized line's start and end is kept to find its id. */
const EDGE = 512;
const ID = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}\s*[,}]`);
const TAIL_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/** The id of an oversized request when its first or last member says it plainly; else null. */
function sniffId(head: string, tail: string): RequestId | null {
  const raw = HEAD_ID.exec(head)?.[1] ?? TAIL_ID.exec(tail)?.[1];
  if (raw === undefined) return null;
  try {
    const id: unknown = JSON.parse(raw);
    return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
  } catch {
    return null;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Server transport over stdin/stdout with bounded, answered lines.
 * @example await server.connect(new LineStdioTransport())
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private parts: Buffer[] = [];
  private size = 0;
  /** Set while skipping the rest of an oversized line: its first and last bytes. */
  private oversized: { head: Buffer; tail: Buffer } | undefined;
  private started = false;
  private isClosed = false;
  /** Requests handed on and not answered yet: at the end of input the transport closes once they are. */
  private readonly inFlight = new Set<RequestId>();
  private ended = false;
  private markClosed: () => void = () => undefined;
  /** Settles once the transport has closed (input ended and every request answered, or close()). */
  readonly closed: Promise<void> = new Promise((resolve) => (this.markClosed = resolve));

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string): void => {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    for (let start = 0; ;) {
      const nl = buf.indexOf(10, start);
      this.take(buf.subarray(start, nl === -1 ? buf.length : nl));
      if (nl === -1) return;
      this.endLine();
      start = nl + 1;
    }
  };
  private readonly onError = (error: Error): void => this.onerror?.(error);
  private readonly onEnd = (): void => {
    if (this.ended) return;
    this.ended = true;
    if (this.inFlight.size === 0) void this.close();
  };

  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.oversized) {
      this.oversized.tail = Buffer.concat([this.oversized.tail, piece]).subarray(-EDGE);
      return;
    }
    if (this.size + piece.length <= this.maxLineBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const all = Buffer.concat([...this.parts, piece]);
    this.oversized = { head: all.subarray(0, EDGE), tail: all.subarray(-EDGE) };
    [this.parts, this.size] = [[], 0];
  }

  private endLine(): void {
    const over = this.oversized;
    const line = Buffer.concat(this.parts);
    [this.parts, this.size, this.oversized] = [[], 0, undefined];
    if (over) {
      const id = sniffId(over.head.toString('latin1'), over.tail.toString('latin1'));
      const mib = Math.round(this.maxLineBytes / 1024 / 1024);
      this.reply(
        errorReply(
          id,
          ErrorCode.InvalidRequest,
          `Invalid Request: the message is longer than the ${mib} MiB line limit; nothing was done`,
        ),
      );
      return;
    }
    let text: string;
    try {
      text = decoder.decode(line[line.length - 1] === 13 ? line.subarray(0, -1) : line);
    } catch {
      this.reply(errorReply(null, ErrorCode.ParseError, 'Parse error: the line is not valid UTF-8'));
      return;
    }
    const verdict = readLine(text);
    if ('reply' in verdict) this.reply(verdict.reply);
    else if ('message' in verdict) {
      const m = verdict.message;
      if ('method' in m && 'id' in m) this.inFlight.add(m.id);
      try {
        this.onmessage?.(m);
      } catch (err) {
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
      }
    }
  }

  private reply(message: JSONRPCMessage): void {
    this.send(message).catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const sent = new Promise<void>((resolve) => {
      if (this.stdout.destroyed) return resolve();
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
    const answered = ('result' in message || 'error' in message) && 'id' in message ? message.id : undefined;
    if (answered !== undefined && this.inFlight.delete(answered) && this.ended && this.inFlight.size === 0) {
      void sent.then(() => this.close());
    }
    return sent;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    [this.parts, this.size, this.oversized] = [[], 0, undefined];
    this.onclose?.();
    this.markClosed();
  }
}
