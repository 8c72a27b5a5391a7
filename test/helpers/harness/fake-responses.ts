/**
 * A scripted fake of OpenAI's Responses API (`POST /v1/responses`) on 127.0.0.1, for driving the real Codex
 * CLI (`codex exec`) offline. Each agent-loop request gets the next scripted turn as SSE (response.created,
 * then per output item response.output_item.added, its deltas, response.output_item.done, and finally
 * response.completed), and every request is recorded.
 *
 * Verified against codex 0.169.0 (docs/harness-testing.md): codex reads only output_item.done items and
 * response.completed; a function_call item is `{type, call_id, name, arguments: "<json string>"}`, plus
 * `namespace: "mcp__<server>"` for an MCP tool (whose `name` is the bare tool name); a `tool_search_call`
 * item makes codex search its deferred tools and send back a `tool_search_output`.
 * Main requests are every `POST /v1/responses` (they need not carry `tools`: with codex's default model,
 * gpt-6.1-sol, the tools travel as an `additional_tools` input item); `POST /v1/responses/<anything>` (e.g.
 * /compact) is answered with text and kept in `sideRequests`; other paths are 404s in `otherRequests`.
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

/** One scripted model turn: text, a function call (optionally after text), a tool search, or a raw output item. */
export type ResponsesTurn =
  | { text: string }
  | {
      text?: string;
      functionCall: { name: string; arguments: Record<string, unknown>; namespace?: string; callId?: string };
    }
  | { toolSearch: { query: string; limit?: number } }
  | { item: Record<string, unknown> }
  | { status: number; message?: string };

export interface FakeResponses {
  /** `http://127.0.0.1:<port>/v1`: a codex model provider's `base_url`. */
  baseURL: string;
  requests: RecordedRequest[];
  sideRequests: RecordedRequest[];
  otherRequests: RecordedRequest[];
  close(): Promise<void>;
}

const DONE: ResponsesTurn = { text: 'done.' };

/** The complete output items of a turn (as output_item.done carries them). */
export function itemsOf(turn: ResponsesTurn, n: number): Record<string, unknown>[] {
  if ('status' in turn) return [];
  if ('item' in turn) return [turn.item];
  if ('toolSearch' in turn) {
    const args = { query: turn.toolSearch.query, limit: turn.toolSearch.limit ?? 8 };
    return [
      {
        type: 'tool_search_call',
        id: `tsc_fake_${n}`,
        call_id: `search_fake_${n}`,
        status: 'completed',
        execution: 'client',
        arguments: args,
      },
    ];
  }
  const items: Record<string, unknown>[] = [];
  if (turn.text !== undefined && turn.text !== '') {
    items.push({
      type: 'message',
      id: `msg_fake_${n}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  if ('functionCall' in turn) {
    const c = turn.functionCall;
    items.push({
      type: 'function_call',
      id: `fc_fake_${n}`,
      status: 'completed',
      call_id: c.callId ?? `call_fake_${n}`,
      ...(c.namespace !== undefined ? { namespace: c.namespace } : {}),
      name: c.name,
      arguments: JSON.stringify(c.arguments),
    });
  }
  return items;
}

type Send = (event: string, data: Record<string, unknown>) => void;

/** The added → deltas → done events of one output item. */
function streamItem(send: Send, item: Record<string, unknown>, output_index: number): void {
  const item_id = item['id'];
  if (item['type'] === 'message') {
    const text = ((item['content'] as { text: string }[])[0] ?? { text: '' }).text;
    send('response.output_item.added', {
      type: 'response.output_item.added',
      output_index,
      item: { ...item, status: 'in_progress', content: [] },
    });
    const part = { type: 'output_text', text: '', annotations: [] };
    send('response.content_part.added', {
      type: 'response.content_part.added',
      item_id,
      output_index,
      content_index: 0,
      part,
    });
    for (const delta of halves(text))
      send('response.output_text.delta', {
        type: 'response.output_text.delta',
        item_id,
        output_index,
        content_index: 0,
        delta,
      });
    send('response.output_text.done', {
      type: 'response.output_text.done',
      item_id,
      output_index,
      content_index: 0,
      text,
    });
    send('response.content_part.done', {
      type: 'response.content_part.done',
      item_id,
      output_index,
      content_index: 0,
      part: { ...part, text },
    });
  } else if (item['type'] === 'function_call') {
    const args = String(item['arguments']);
    send('response.output_item.added', {
      type: 'response.output_item.added',
      output_index,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    for (const delta of halves(args))
      send('response.function_call_arguments.delta', {
        type: 'response.function_call_arguments.delta',
        item_id,
        output_index,
        delta,
      });
    send('response.function_call_arguments.done', {
      type: 'response.function_call_arguments.done',
      item_id,
      output_index,
      arguments: args,
    });
  } else {
    send('response.output_item.added', { type: 'response.output_item.added', output_index, item });
  }
  send('response.output_item.done', { type: 'response.output_item.done', output_index, item });
}

const USAGE = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 120,
};

function reply(res: ServerResponse, body: Record<string, unknown>, turn: ResponsesTurn, n: number): void {
  if ('status' in turn) {
    sendJson(res, turn.status, {
      error: { type: 'server_error', code: null, message: turn.message ?? `fake failure ${turn.status}` },
    });
    return;
  }
  const id = `resp_fake_${n}`;
  const model = typeof body['model'] === 'string' ? body['model'] : 'gpt-fake';
  const output = itemsOf(turn, n);
  const response = {
    id,
    object: 'response',
    created_at: 1_700_000_000 + n,
    model,
    output: [] as unknown[],
    status: 'in_progress',
  };
  if (body['stream'] !== true) {
    sendJson(res, 200, { ...response, status: 'completed', output, usage: USAGE });
    return;
  }
  const send = sseWriter(res);
  send('response.created', { type: 'response.created', response });
  output.forEach((item, i) => streamItem(send, item, i));
  send('response.completed', {
    type: 'response.completed',
    response: { ...response, status: 'completed', output, usage: USAGE },
  });
  res.end();
}

/**
 * Starts the fake; main requests get `script`'s turns in order, then "done." forever.
 * @example const fake = await startFakeResponses([{ functionCall: { namespace: 'mcp__gitmem', name: 'memory', arguments } }, { text: 'ok' }])
 */
export async function startFakeResponses(script: Script<ResponsesTurn>): Promise<FakeResponses> {
  const requests: RecordedRequest[] = [];
  const sideRequests: RecordedRequest[] = [];
  const otherRequests: RecordedRequest[] = [];
  const server = await startLoopbackServer((req, res) => {
    const path = req.url.split('?')[0];
    if (req.method === 'POST' && path === '/v1/responses') {
      const n = requests.push(req) - 1;
      reply(res, req.body, turnFor(script, req.body, n, DONE), n);
    } else if (req.method === 'POST' && path?.startsWith('/v1/responses')) {
      sideRequests.push(req);
      reply(res, req.body, { text: 'Fake summary' }, 1000 + sideRequests.length);
    } else {
      otherRequests.push(req);
      sendJson(res, 404, { error: { type: 'invalid_request_error', message: `fake: no ${req.method} ${path}` } });
    }
  });
  return { baseURL: `${server.origin}/v1`, requests, sideRequests, otherRequests, close: () => server.close() };
}

/** The request's `input` items. */
export function inputItems(req: RecordedRequest): Record<string, unknown>[] {
  return Array.isArray(req.body['input']) ? (req.body['input'] as Record<string, unknown>[]) : [];
}

/** The text of every `message` input item with `role` (developer, user, assistant), in order. */
export function messageTexts(req: RecordedRequest, role: string): string[] {
  return inputItems(req)
    .filter((it) => it['type'] === 'message' && it['role'] === role)
    .map((it) =>
      Array.isArray(it['content'])
        ? (it['content'] as { text?: unknown }[]).map((c) => String(c.text ?? '')).join('\n')
        : '',
    );
}

/**
 * `type:name` of each tool the request offered — in `tools`, or in `additional_tools` input items (codex's
 * code mode) — e.g. `function:exec_command`, `namespace:mcp__gitmem`, `tool_search:`.
 */
export function offeredTools(req: RecordedRequest): string[] {
  const listed = (v: unknown) => (Array.isArray(v) ? (v as { type?: unknown; name?: unknown }[]) : []);
  const tools = [
    ...listed(req.body['tools']),
    ...inputItems(req).flatMap((it) => (it['type'] === 'additional_tools' ? listed(it['tools']) : [])),
  ];
  return tools.map((t) => `${String(t.type)}:${t.name === undefined ? '' : String(t.name)}`);
}
