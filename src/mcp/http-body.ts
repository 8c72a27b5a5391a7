/**
 * Reads one POST body of the MCP HTTP server — at most {@link MAX_LINE_BYTES} held in memory, the rest of
 * a longer body skipped — and classifies it with the stdio transport's rules (envelope.ts), so a
 * malformed body gets the same JSON-RPC error a malformed line gets.
 */
import type { IncomingMessage } from 'node:http';
import { ErrorCode, type JSONRPCErrorResponse, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { errorReply, readLine } from './envelope.js';
import { MAX_LINE_BYTES } from './stdio-transport.js';

/** The message to hand on, a refusal with its HTTP status, nothing to do (202), or a connection already cut. */
export type BodyVerdict =
  { message: JSONRPCMessage } | { status: number; reply: JSONRPCErrorResponse } | { accepted: true } | { cut: true };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * How much of an oversized body is read and dropped, in multiples of the limit, before the connection is
 * cut: enough that a client which sends a body whole still reads the 413, and no more, so an endless
 * body ends.
 */
const DRAIN_FACTOR = 4;

/**
 * The body's bytes, or `tooLarge` once more than `limit` arrived (the rest is read and dropped, up to
 * DRAIN_FACTOR × limit; past that the connection is destroyed and there is no answer to give).
 */
function readBounded(req: IncomingMessage, limit: number): Promise<Buffer | 'tooLarge' | 'cut'> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) parts.push(chunk);
      else parts.length = 0;
      if (size > limit * DRAIN_FACTOR) {
        req.destroy();
        resolve('cut');
      }
    });
    req.on('end', () => resolve(size > limit ? 'tooLarge' : Buffer.concat(parts)));
    req.on('error', reject);
  });
}

/**
 * Reads and classifies the body of `req`.
 * @example const v = await readBody(req); if ('status' in v) answer(v.status, v.reply)
 */
export async function readBody(req: IncomingMessage, limit = MAX_LINE_BYTES): Promise<BodyVerdict> {
  const mib = Math.round(limit / 1024 / 1024);
  const tooLarge = (): BodyVerdict => ({
    status: 413,
    reply: errorReply(
      null,
      ErrorCode.InvalidRequest,
      `Invalid Request: the body is longer than the ${mib} MiB limit; nothing was done`,
    ),
  });
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    req.resume(); // drained, never held
    return tooLarge();
  }
  const bytes = await readBounded(req, limit);
  if (bytes === 'cut') return { cut: true };
  if (bytes === 'tooLarge') return tooLarge();
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { status: 400, reply: errorReply(null, ErrorCode.ParseError, 'Parse error: the body is not valid UTF-8') };
  }
  if (text.trim() === '')
    return { status: 400, reply: errorReply(null, ErrorCode.ParseError, 'Parse error: the body is empty') };
  const verdict = readLine(text, 'request');
  if ('reply' in verdict) return { status: 400, reply: verdict.reply };
  return 'message' in verdict ? { message: verdict.message } : { accepted: true };
}
