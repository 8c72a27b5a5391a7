/**
 * Reads one line of the stdio transport (or one HTTP request body) as a JSON-RPC 2.0 message, or says which error answers it. Pure.
 * The SDK's own reader drops whatever it cannot parse without a word, so a client waits forever; here
 * every malformed line gets an answer: not JSON → -32700, not a message → -32600, params that are not an
 * object → -32602, each with the request's id when that id is usable and null otherwise.
 */
import {
  ErrorCode,
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** What to do with one line: hand a message on, answer with an error, or nothing (blank, a peer's error report). */
export type LineVerdict = { message: JSONRPCMessage } | { reply: JSONRPCErrorResponse } | { skip: true };

/**
 * A JSON-RPC error response; `message` is kept to one line.
 * @example errorReply(null, -32700, 'Parse error') // { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
 */
export function errorReply(id: RequestId | null, code: number, message: string): JSONRPCErrorResponse {
  const line = message.replace(/\s*\n\s*/g, ' ').slice(0, 300);
  // JSON-RPC requires `id: null` when the request's id could not be read; the SDK's type has no null.
  return { jsonrpc: '2.0', id: id as RequestId, error: { code, message: line } };
}

const usableId = (id: unknown): id is RequestId =>
  typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id));
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first problem zod found, as `path: message` on one line. */
export function firstIssue(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): {
  path: string;
  text: string;
} {
  const issue = error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.');
  return { path, text: `${path || 'the message'}: ${issue?.message ?? 'invalid'}` };
}

/**
 * Classifies one line (without its newline), or one HTTP request body (`unit: 'request'`: only the
 * wording of the batch refusal differs).
 * @example readLine('{"jsonrpc":"2.0","id":1,"method":"ping"}') // { message: { jsonrpc: '2.0', id: 1, method: 'ping' } }
 */
export function readLine(line: string, unit: 'line' | 'request' = 'line'): LineVerdict {
  if (line.trim() === '') return { skip: true };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { reply: errorReply(null, ErrorCode.ParseError, 'Parse error: the line is not valid JSON') };
  }
  if (Array.isArray(value)) {
    return {
      reply: errorReply(
        null,
        ErrorCode.InvalidRequest,
        `Invalid Request: batches are not supported; send one JSON-RPC message per ${unit}`,
      ),
    };
  }
  if (!isPlainObject(value))
    return { reply: errorReply(null, ErrorCode.InvalidRequest, 'Invalid Request: a JSON-RPC message is an object') };
  return readObject(value);
}

function readObject(m: Record<string, unknown>): LineVerdict {
  const hasId = Object.hasOwn(m, 'id');
  const id = usableId(m['id']) ? m['id'] : null;
  const invalid = (why: string, replyId: RequestId | null = id): LineVerdict => ({
    reply: errorReply(replyId, ErrorCode.InvalidRequest, `Invalid Request: ${why}`),
  });
  const isResponse = !Object.hasOwn(m, 'method') && (Object.hasOwn(m, 'result') || Object.hasOwn(m, 'error'));
  // A peer's own error report (e.g. about a line of ours) is never answered: two strict peers would ping-pong.
  if (isResponse && Object.hasOwn(m, 'error') && (m['id'] === null || !hasId)) return { skip: true };
  if (m['jsonrpc'] !== '2.0') return invalid('"jsonrpc" must be "2.0"');
  if (hasId && id === null) return invalid('"id" must be a string or an integer', null);
  if (isResponse) return readResponse(m, invalid);
  if (!Object.hasOwn(m, 'method')) return invalid(hasId ? 'no "method"' : 'no "method" and no "id"');
  if (typeof m['method'] !== 'string') return invalid('"method" must be a string');
  if (Object.hasOwn(m, 'params') && !isPlainObject(m['params'])) {
    return { reply: errorReply(id, ErrorCode.InvalidParams, 'Invalid params: "params" must be an object') };
  }
  const parsed = hasId ? JSONRPCRequestSchema.safeParse(m) : JSONRPCNotificationSchema.safeParse(m);
  if (parsed.success) return { message: parsed.data };
  const issue = firstIssue(parsed.error);
  const code = issue.path.startsWith('params') ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
  return {
    reply: errorReply(
      id,
      code,
      `${code === ErrorCode.InvalidParams ? 'Invalid params' : 'Invalid Request'}: ${issue.text}`,
    ),
  };
}

function readResponse(m: Record<string, unknown>, invalid: (why: string) => LineVerdict): LineVerdict {
  if (Object.hasOwn(m, 'result') && Object.hasOwn(m, 'error'))
    return invalid('a response has "result" or "error", not both');
  const parsed = Object.hasOwn(m, 'result')
    ? JSONRPCResultResponseSchema.safeParse(m)
    : JSONRPCErrorResponseSchema.safeParse(m);
  return parsed.success ? { message: parsed.data } : invalid(firstIssue(parsed.error).text);
}
