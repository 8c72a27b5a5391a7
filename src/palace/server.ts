/**
 * The Memory Palace server on node:http. Every request must name this server in its Host header (else 403)
 * and carry the token as the first path segment (else 401, compared in constant time); then it is the page,
 * its two assets, the JSON API (`api/<route>?agent=ID`) or the change stream (`events?agent=ID`, server-sent
 * events fed by memory.watch()). Writes are POSTs with a JSON body from this origin only. Every answer
 * carries the security headers; there is no CORS.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isMemoryError, MemoryError } from '../index.js';
import type { AgentsReply } from './api-types.js';
import { openEvents } from './events.js';
import { PalaceHub, type HubOptions } from './hub.js';
import { livePage, pageAssets, type PageAssets } from './page.js';
import { GET_ROUTES, POST_ROUTES, statusOf } from './routes.js';
import { hostAllowed, securityHeaders, tokenMatches } from './security.js';

export interface PalaceOptions extends HubOptions {
  token: string;
  host: string;
  port: number;
  /** The agent the page opens first (default: the home's first). */
  agent?: string;
  /** Called with unexpected failures (the client only hears "internal error"). */
  onError?: (err: unknown) => void;
}

export interface Palace {
  url: string;
  port: number;
  hub: PalaceHub;
  close(): Promise<void>;
}

const MAX_BODY = 256 * 1024;

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...securityHeaders(), 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const sendJson = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
const refuse = (res: ServerResponse, status: number, code: string, message: string): void =>
  sendJson(res, status, { error: { code, message } });

async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
    throw new MemoryError('INVALID_ARGUMENT', 'a write must send application/json');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new MemoryError('INVALID_ARGUMENT', `the request body is larger than ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new MemoryError('INVALID_ARGUMENT', 'the request body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new MemoryError('INVALID_ARGUMENT', 'the request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** A write must come from the page itself: same origin, never a cross-site form or fetch. */
function sameOrigin(req: IncomingMessage): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = req.headers['origin'];
  return origin === undefined || origin === `http://${req.headers.host ?? ''}`;
}

function defaultAgent(o: PalaceOptions, hub: PalaceHub): string {
  const agents = hub.agents();
  if (o.agent !== undefined) return o.agent;
  return agents[0] ?? '';
}

async function api(
  o: PalaceOptions,
  hub: PalaceHub,
  req: IncomingMessage,
  res: ServerResponse,
  route: string,
  query: URLSearchParams,
): Promise<void> {
  if (route === 'agents' && req.method === 'GET') {
    const reply: AgentsReply = { agents: hub.agents(), current: defaultAgent(o, hub) };
    return sendJson(res, 200, reply);
  }
  const table = req.method === 'GET' ? GET_ROUTES : req.method === 'POST' ? POST_ROUTES : {};
  const handler = Object.hasOwn(table, route) ? table[route] : undefined;
  if (!handler)
    return refuse(res, req.method === 'GET' || req.method === 'POST' ? 404 : 405, 'NOT_FOUND', 'no such route');
  if (req.method === 'POST' && !sameOrigin(req))
    return refuse(res, 403, 'FORBIDDEN', 'writes come from the palace page only');
  const body = req.method === 'POST' ? await readJsonBody(req) : {};
  const agent = query.get('agent') ?? defaultAgent(o, hub);
  const view = await hub.agent(agent);
  sendJson(res, 200, await handler({ hub, view, query, body }));
}

function fail(o: PalaceOptions, res: ServerResponse, err: unknown): void {
  if (res.headersSent) return void res.destroy();
  if (isMemoryError(err) && err.code !== 'INTERNAL')
    return refuse(res, statusOf(err.code), err.code, err.message.split('\n')[0] ?? err.code);
  o.onError?.(err);
  refuse(res, 500, 'INTERNAL', 'internal error');
}

async function route(
  o: PalaceOptions,
  hub: PalaceHub,
  assets: PageAssets,
  port: () => number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  if (!hostAllowed(req.headers.host, { bind: o.host, port: port() }))
    return refuse(res, 403, 'FORBIDDEN', 'this server answers to its own address only');
  const url = new URL(req.url ?? '/', 'http://palace.invalid');
  const [, token = '', ...rest] = url.pathname.split('/');
  if (!tokenMatches(token, o.token)) return refuse(res, 401, 'UNAUTHORIZED', 'wrong or missing token');
  const path = rest.join('/');
  if (rest.length === 0) {
    res.writeHead(308, { ...securityHeaders(), Location: `/${token}/` });
    return void res.end();
  }
  if (path.startsWith('api/')) return api(o, hub, req, res, path.slice(4), url.searchParams);
  if (req.method !== 'GET') return refuse(res, 405, 'METHOD', 'method not allowed');
  if (path === '') return send(res, 200, 'text/html; charset=utf-8', livePage(assets));
  if (path === 'palace.js') return send(res, 200, 'text/javascript; charset=utf-8', assets.script);
  if (path === 'palace.css') return send(res, 200, 'text/css; charset=utf-8', assets.style);
  if (path === 'events') return openEvents(hub, req, res, url.searchParams.get('agent') ?? defaultAgent(o, hub));
  refuse(res, 404, 'NOT_FOUND', 'not found');
}

/**
 * Starts the palace; resolves once it listens.
 * @example const p = await startPalace({ home, env: process.env, token: newToken(), host: '127.0.0.1', port: 0 }); console.log(p.url)
 */
export async function startPalace(o: PalaceOptions): Promise<Palace> {
  const assets = pageAssets();
  const hub = new PalaceHub(o);
  let port = 0;
  const server: Server = createServer((req, res) => {
    route(o, hub, assets, () => port, req, res).catch((err: unknown) => fail(o, res, err));
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        new MemoryError('IO_ERROR', `cannot listen on ${o.host}:${o.port}: ${err.code ?? err.message}`, {
          data: { errno: err.code },
          cause: err,
        }),
      ),
    );
    server.listen(o.port, o.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  // The first page asks for the start agent's tree at HEAD: list it while the browser loads the page.
  // A failure here is the first request's to report.
  if (o.agent !== undefined)
    void hub
      .agent(o.agent)
      .then((v) => v.head().then((h) => v.tree(h)))
      .catch(() => undefined);
  const shownHost = o.host.includes(':') ? `[${o.host}]` : o.host === '0.0.0.0' ? '127.0.0.1' : o.host;
  return {
    url: `http://${shownHost}:${port}/${o.token}/`,
    port,
    hub,
    close: async () => {
      await hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
