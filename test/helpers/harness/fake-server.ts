/**
 * What the two fake model servers (fake-anthropic.ts, fake-responses.ts) share: a node:http server on
 * 127.0.0.1 that records every request it receives, a scripted reply queue, and SSE framing.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request as the fake received it. `body` is the parsed JSON body ({} when empty, `{ _raw }` when not JSON). */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages?beta=true`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** A scripted model: a queue of turns, or a function of the request body and its index among main requests. */
export type Script<T> = readonly T[] | ((body: Record<string, unknown>, index: number) => T);

/** The turn for main request `index`: the script's, else `fallback` (a plain text reply ends the agent's turn). */
export function turnFor<T>(script: Script<T>, body: Record<string, unknown>, index: number, fallback: T): T {
  if (typeof script === 'function') return script(body, index);
  return script[index] ?? fallback;
}

/** A running loopback server; `origin` is `http://127.0.0.1:<port>`. */
export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { _raw: text };
  } catch {
    return { _raw: text };
  }
}

/**
 * Starts a server on 127.0.0.1 (any free port) that hands every request, body read and parsed, to `handle`.
 * `close` drops open connections (a harness may keep one alive) so it never waits on a client.
 */
export async function startLoopbackServer(
  handle: (req: RecordedRequest, res: ServerResponse) => void,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    void readBody(req).then(
      (body) => handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }, res),
      () => res.writeHead(400).end(),
    );
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Starts an SSE reply; `send(event, data)` writes one `event:`/`data:` frame. */
export function sseWriter(res: ServerResponse): (event: string, data: Record<string, unknown>) => void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return (event, data) => {
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
}

/** A JSON reply. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/** The two halves of a string (a delta split in two exercises the client's accumulation). */
export function halves(s: string): [string, string] {
  const cut = Math.ceil(s.length / 2);
  return [s.slice(0, cut), s.slice(cut)];
}

/** Whether `needle` occurs anywhere in a recorded request body (system prompt, messages, tools…). */
export function bodyIncludes(req: RecordedRequest, needle: string): boolean {
  return JSON.stringify(req.body).includes(needle);
}
