/**
 * A scripted fake of Anthropic's Messages API (`POST /v1/messages`) on 127.0.0.1, for driving the real
 * Claude Code (`claude -p`) offline: it answers each agent-loop request with the next scripted turn, streamed
 * as SSE in the order the SDK expects (message_start, content_block_start/delta/stop per block,
 * message_delta with stop_reason, message_stop), and records every request so a test can assert what the
 * model was sent (system prompt, hook context, the tools offered).
 *
 * Main requests are the agent loop's: those that offer tools. Anything else to /v1/messages (a title or
 * summary query, which offers none) and /v1/messages/count_tokens are answered sensibly and recorded in
 * `sideRequests`, so they never consume the script; any other path is a 404 recorded in `otherRequests`.
 */
import type { ServerResponse } from 'node:http';
import {
  halves,
  sendJson,
  sseWriter,
  startLoopbackServer,
  turnFor,
  type RecordedRequest,
  type Script,
} from './fake-server.js';

/** One scripted model turn. `toolUse` makes Claude Code call that tool (after `text`, when given). */
export type AnthropicTurn =
  | { text: string }
  | { text?: string; toolUse: { name: string; input: Record<string, unknown>; id?: string } }
  | { status: number; message?: string };

export interface FakeAnthropic {
  /** `http://127.0.0.1:<port>`: Claude Code's ANTHROPIC_BASE_URL (it appends /v1/messages itself). */
  baseURL: string;
  /** The agent loop's requests, in order. */
  requests: RecordedRequest[];
  /** Requests offering no tools (titles, summaries…) and token counts: answered, never scripted. */
  sideRequests: RecordedRequest[];
  /** Requests to any other path (answered 404). */
  otherRequests: RecordedRequest[];
  close(): Promise<void>;
}

export interface FakeAnthropicOptions {
  /** The reply to side requests (default "Fake title"). */
  sideText?: string;
}

const DONE: AnthropicTurn = { text: 'done.' };

type Block =
  { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function blocksOf(turn: AnthropicTurn, n: number): Block[] {
  if ('status' in turn) return [];
  const blocks: Block[] = [];
  if (turn.text !== undefined && turn.text !== '') blocks.push({ type: 'text', text: turn.text });
  if ('toolUse' in turn)
    blocks.push({
      type: 'tool_use',
      id: turn.toolUse.id ?? `toolu_fake_${n}`,
      name: turn.toolUse.name,
      input: turn.toolUse.input,
    });
  return blocks;
}

const USAGE = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

function messageOf(id: string, model: string, content: Block[]) {
  const stop_reason = content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
  return { id, type: 'message', role: 'assistant', model, content, stop_reason, stop_sequence: null, usage: USAGE };
}

/** Streams `content` as the Messages API does: each block opened, filled by two deltas, closed. */
function streamMessage(res: ServerResponse, id: string, model: string, content: Block[]): void {
  const send = sseWriter(res);
  const whole = messageOf(id, model, content);
  send('message_start', {
    type: 'message_start',
    message: { ...whole, content: [], stop_reason: null, usage: { ...USAGE, output_tokens: 1 } },
  });
  content.forEach((block, index) => {
    const start = block.type === 'text' ? { type: 'text', text: '' } : { ...block, input: {} };
    send('content_block_start', { type: 'content_block_start', index, content_block: start });
    const parts = block.type === 'text' ? halves(block.text) : halves(JSON.stringify(block.input));
    for (const part of parts) {
      const delta =
        block.type === 'text' ? { type: 'text_delta', text: part } : { type: 'input_json_delta', partial_json: part };
      send('content_block_delta', { type: 'content_block_delta', index, delta });
    }
    send('content_block_stop', { type: 'content_block_stop', index });
  });
  send('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: whole.stop_reason, stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  });
  send('message_stop', { type: 'message_stop' });
  res.end();
}

function reply(res: ServerResponse, body: Record<string, unknown>, turn: AnthropicTurn, n: number): void {
  if ('status' in turn) {
    sendJson(res, turn.status, {
      type: 'error',
      error: { type: 'api_error', message: turn.message ?? `fake failure ${turn.status}` },
    });
    return;
  }
  const model = typeof body['model'] === 'string' ? body['model'] : 'claude-fake';
  const content = blocksOf(turn, n);
  if (body['stream'] === true) streamMessage(res, `msg_fake_${n}`, model, content);
  else sendJson(res, 200, messageOf(`msg_fake_${n}`, model, content));
}

/** Whether a request is the agent loop's (it offers tools) rather than a side query. */
export function isAgentLoopRequest(body: Record<string, unknown>): boolean {
  return Array.isArray(body['tools']) && body['tools'].length > 0;
}

/**
 * Starts the fake; main requests get `script`'s turns in order, then "done." (a text turn, which ends the
 * agent's turn) forever.
 * @example const fake = await startFakeAnthropic([{ toolUse: { name: 'mcp__gitmem__memory', input } }, { text: 'ok' }])
 */
export async function startFakeAnthropic(
  script: Script<AnthropicTurn>,
  options: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const requests: RecordedRequest[] = [];
  const sideRequests: RecordedRequest[] = [];
  const otherRequests: RecordedRequest[] = [];
  const server = await startLoopbackServer((req, res) => {
    const path = req.url.split('?')[0];
    if (req.method === 'POST' && path === '/v1/messages/count_tokens') {
      sideRequests.push(req);
      sendJson(res, 200, { input_tokens: Math.ceil(JSON.stringify(req.body).length / 4) });
    } else if (req.method === 'POST' && path === '/v1/messages' && !isAgentLoopRequest(req.body)) {
      sideRequests.push(req);
      reply(res, req.body, { text: options.sideText ?? 'Fake title' }, 1000 + sideRequests.length);
    } else if (req.method === 'POST' && path === '/v1/messages') {
      const n = requests.push(req) - 1;
      reply(res, req.body, turnFor(script, req.body, n, DONE), n);
    } else {
      otherRequests.push(req);
      sendJson(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `fake: no ${req.method} ${path}` },
      });
    }
  });
  return { baseURL: server.origin, requests, sideRequests, otherRequests, close: () => server.close() };
}

/** The tool names a request offered the model (`mcp__<server>__<tool>` for MCP tools). */
export function offeredToolNames(req: RecordedRequest): string[] {
  const tools = Array.isArray(req.body['tools']) ? (req.body['tools'] as { name?: unknown }[]) : [];
  return tools.map((t) => String(t.name));
}

/** The request's messages (role + content as sent). */
export function messagesOf(req: RecordedRequest): { role: string; content: unknown }[] {
  return Array.isArray(req.body['messages']) ? (req.body['messages'] as { role: string; content: unknown }[]) : [];
}

/** The text of a message's content, whether a string or an array of blocks (text and tool_result text). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: { type?: string; text?: unknown; content?: unknown }) =>
      b.type === 'text' ? String(b.text) : b.type === 'tool_result' ? contentText(b.content) : '',
    )
    .join('\n');
}
