/**
 * A scripted fake of an OpenAI-compatible `/v1/chat/completions` endpoint on 127.0.0.1, so the real provider
 * code (request building, JSON and SSE parsing, tool-call assembly) is exercised offline.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One scripted reply: text, tool calls, or a failure; `hang` never answers (until close). */
export interface FakeReply {
  text?: string;
  toolCalls?: { name: string; args: unknown }[];
  usage?: { prompt: number; completion: number };
  status?: number;
  hang?: boolean;
}

/** A running fake server. */
export interface FakeOpenAI {
  baseURL: string;
  /** Parsed request bodies, in order. */
  requests: Record<string, unknown>[];
  /** The Authorization header of each request ('' when absent). */
  authorizations: string[];
  /** Parsed bodies of `/embeddings` requests, in order. */
  embeddingRequests: Record<string, unknown>[];
  /** Every HTTP request that reached the server, whatever its path. */
  received: () => number;
  close(): Promise<void>;
}

type Script = FakeReply[] | ((body: Record<string, unknown>, index: number) => FakeReply);

function toolCallsOf(r: FakeReply, n: number) {
  return (r.toolCalls ?? []).map((c, i) => ({
    id: `call_${n}_${i}`,
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
}

function usageOf(r: FakeReply) {
  const u = r.usage ?? { prompt: 100, completion: 20 };
  return { prompt_tokens: u.prompt, completion_tokens: u.completion, total_tokens: u.prompt + u.completion };
}

function replyJson(res: ServerResponse, r: FakeReply, n: number, model: string): void {
  const calls = toolCallsOf(r, n);
  const message = { role: 'assistant', content: r.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
  const finish_reason = calls.length ? 'tool_calls' : 'stop';
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${n}`,
      object: 'chat.completion',
      created: 1,
      model,
      choices: [{ index: 0, message, finish_reason }],
      usage: usageOf(r),
    }),
  );
}

function replySse(res: ServerResponse, r: FakeReply, n: number, model: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    res.write(
      `data: ${JSON.stringify({ id: `chatcmpl-${n}`, object: 'chat.completion.chunk', created: 1, model, choices, ...extra })}\n\n`,
    );
  send([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
  if (r.text) {
    const half = Math.ceil(r.text.length / 2);
    for (const part of [r.text.slice(0, half), r.text.slice(half)])
      send([{ index: 0, delta: { content: part }, finish_reason: null }]);
  }
  toolCallsOf(r, n).forEach((c, index) => {
    const args = c.function.arguments;
    const cut = Math.floor(args.length / 2);
    send([
      {
        index: 0,
        delta: {
          tool_calls: [
            { index, id: c.id, type: 'function', function: { name: c.function.name, arguments: args.slice(0, cut) } },
          ],
        },
        finish_reason: null,
      },
    ]);
    send([
      { index: 0, delta: { tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }, finish_reason: null },
    ]);
  });
  send([{ index: 0, delta: {}, finish_reason: r.toolCalls?.length ? 'tool_calls' : 'stop' }]);
  send([], { usage: usageOf(r) });
  res.end('data: [DONE]\n\n');
}

/** Words that mean the same to the fake model: they share one dimension, so "automobile" finds "car". */
const CONCEPTS: Record<string, number> = {
  car: 0,
  automobile: 0,
  vehicle: 0,
  dog: 1,
  puppy: 1,
  hound: 1,
  money: 2,
  cash: 2,
  salary: 2,
};
export const FAKE_EMBEDDING_DIMENSIONS = 32;

/** A deterministic embedding: word counts folded into 32 dimensions (synonyms above share one). */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(FAKE_EMBEDDING_DIMENSIONS).fill(0);
  for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 7;
    for (const c of w) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    const dim = CONCEPTS[w] ?? 3 + (h % (FAKE_EMBEDDING_DIMENSIONS - 3));
    v[dim] = (v[dim] ?? 0) + 1;
  }
  return v;
}

function replyEmbeddings(res: ServerResponse, body: Record<string, unknown>): void {
  const input = Array.isArray(body['input']) ? (body['input'] as unknown[]) : [body['input']];
  const data = input.map((t, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(String(t)) }));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      object: 'list',
      data,
      model: String(body['model'] ?? 'fake'),
      usage: { prompt_tokens: input.length, total_tokens: input.length },
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** Starts the fake; replies follow `script` (then "done." forever). */
export async function startFakeOpenAI(script: Script): Promise<FakeOpenAI> {
  const requests: Record<string, unknown>[] = [];
  const authorizations: string[] = [];
  const embeddingRequests: Record<string, unknown>[] = [];
  let received = 0;
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    received++;
    if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
      void readBody(req).then((body) => {
        embeddingRequests.push(body);
        replyEmbeddings(res, body);
      });
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    void readBody(req).then((body) => {
      const n = requests.push(body) - 1;
      authorizations.push(req.headers.authorization ?? '');
      const r = typeof script === 'function' ? script(body, n) : (script[n] ?? { text: 'done.' });
      if (r.hang) return;
      if (r.status) {
        res
          .writeHead(r.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `fake failure ${r.status}` } }));
        return;
      }
      const model = String(body['model'] ?? 'fake');
      if (body['stream'] === true) replySse(res, r, n, model);
      else replyJson(res, r, n, model);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    embeddingRequests,
    received: () => received,
    close: () =>
      new Promise<void>((res) => {
        for (const s of sockets) s.destroy();
        server.close(() => res());
      }),
  };
}
