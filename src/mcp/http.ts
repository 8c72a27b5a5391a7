/**
 * MCP over Streamable HTTP: one `node:http` server that serves the default memory at `/mcp` and, given a
 * home, each of its agents at `/agents/<id>/mcp`, several sessions at once (http-sessions.ts). Every
 * request needs the bearer token (else 401 with `WWW-Authenticate: Bearer`); a body is bounded and
 * classified like a stdio line (http-body.ts); a loopback server checks Host and Origin through the SDK
 * transport's DNS-rebinding options; there is no CORS unless origins are configured.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMemory, MemoryError, type Memory } from '../index.js';
import { AgentMemories, type NoMemory, type OpenMemory } from './http-agents.js';
import { readBody } from './http-body.js';
import {
  badOrigin,
  corsHeaders,
  headerPolicy,
  isLoopbackHost,
  PREFLIGHT_HEADERS,
  refusedHeaders,
  routeOf,
  urlHost,
  type HeaderPolicy,
  type Route,
} from './http-policy.js';
import { SessionTable } from './http-sessions.js';
import { assertUsableToken, bearerMatches, generateToken, redactor } from './http-token.js';

export interface McpHttpOptions {
  /** The memory served at `/mcp`; default: the home's default agent (the usual default-agent rule). */
  memory?: Memory;
  /** Serve every agent of this home at `/agents/<id>/mcp` (without it, only `/mcp`). */
  home?: string;
  /** Environment for memories opened here (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** How a memory is opened (default `createMemory({ home, agentId, env })`). */
  openMemory?: OpenMemory;
  /** The bearer token; default a generated one (`server.token`). Beyond loopback a token must be given. */
  token?: string;
  /** Address to listen on; default `127.0.0.1`. */
  host?: string;
  /** Port; default 0 (any free port: read `server.port`). */
  port?: number;
  /** A session with no request and no open stream for this long is closed; default 30 minutes. */
  sessionIdleMs?: number;
  /** Sessions at once; default 64 (more → 503). */
  maxSessions?: number;
  /** Browser origins allowed to call the server (CORS); default none. */
  corsOrigins?: readonly string[];
  /** Where the server reports sessions and errors (the token is always redacted); default nowhere. */
  log?: (line: string) => void;
  /** The version the MCP server reports. */
  version?: string;
}

export interface McpHttpServer {
  /** The default memory's endpoint, e.g. `http://127.0.0.1:8377/mcp`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The bearer token every request must carry. */
  readonly token: string;
  /** True when the token was generated here (none was given). */
  readonly tokenGenerated: boolean;
  /** The endpoint of one agent of the home. */
  agentUrl(agentId: string): string;
  /** Sessions now open. */
  readonly sessions: number;
  /** Closes every session and watcher, then the listener. */
  close(): Promise<void>;
}

type Reply = (
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
  data?: Record<string, unknown>,
) => void;

function replier(res: ServerResponse): Reply {
  return (status, code, message, headers = {}, data) => {
    if (res.headersSent) return void res.end();
    const error = { code, message: message.replace(/\s*\n\s*/g, ' ').slice(0, 500), ...(data ? { data } : {}) };
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error }));
  };
}

/** Throws INVALID_ARGUMENT / UNSAFE_BIND for options that must not start a server. */
function checkOptions(o: McpHttpOptions, host: string): void {
  if (!o.memory && o.home === undefined && !o.openMemory)
    throw new MemoryError('INVALID_ARGUMENT', 'the MCP HTTP server needs a memory or a home to serve', {
      data: { field: 'memory' },
    });
  if (o.token !== undefined) assertUsableToken(o.token);
  if (!isLoopbackHost(host) && o.token === undefined) {
    throw new MemoryError(
      'UNSAFE_BIND',
      `refusing to listen on ${host} (beyond loopback) with a generated token: give the token yourself (gitmem mcp --http --token-file F)`,
      { data: { host } },
    );
  }
  const bad = badOrigin(o.corsOrigins ?? []);
  if (bad !== undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `CORS origin ${JSON.stringify(bad.slice(0, 200))} is not an origin (scheme://host[:port])`,
      { data: { field: 'corsOrigins' } },
    );
}

interface Served {
  headers: HeaderPolicy;
  token: string;
  cors: readonly string[];
  agents: AgentMemories;
  sessions: SessionTable;
}

/** One request: Host and Origin, CORS preflight, token, route, body, then the session's transport. */
async function handle(s: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const reply = replier(res);
  const refused = refusedHeaders(req.headers.host, origin, s.headers);
  if (refused !== undefined) return reply(403, -32000, `Forbidden: ${refused}`, { Connection: 'close' });
  const cors = corsHeaders(origin, s.cors);
  for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
  if (req.method === 'OPTIONS' && cors['Access-Control-Allow-Origin'])
    return void res.writeHead(204, PREFLIGHT_HEADERS).end();
  if (!bearerMatches(req.headers.authorization, s.token)) {
    const challenge =
      req.headers.authorization === undefined
        ? 'Bearer realm="gitmem"'
        : 'Bearer realm="gitmem", error="invalid_token"';
    return reply(401, -32000, 'Unauthorized: this server needs its bearer token (Authorization: Bearer <token>)', {
      'WWW-Authenticate': challenge,
      Connection: 'close',
    });
  }
  // The raw path, never URL-normalized: `/agents/%2e%2e/mcp` must not become `/mcp`.
  const route = routeOf((req.url ?? '/').split('?', 1)[0] as string);
  if (!route) return reply(404, -32000, 'Not found: the MCP endpoints are /mcp and /agents/<id>/mcp');
  let message: JSONRPCMessage | undefined;
  if (req.method === 'POST') {
    const verdict = await readBody(req);
    if ('cut' in verdict) return;
    if ('status' in verdict)
      return void res
        .writeHead(verdict.status, { 'Content-Type': 'application/json', Connection: 'close' })
        .end(JSON.stringify(verdict.reply));
    if ('accepted' in verdict) return void res.writeHead(202).end();
    message = verdict.message;
  }
  await dispatch(s, route, req, res, message);
}

async function dispatch(
  s: Served,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
  message: JSONRPCMessage | undefined,
): Promise<void> {
  const reply = replier(res);
  const key = route.agent === undefined ? '' : `agent:${route.agent}`;
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const session = s.sessions.find(sessionId, key);
    if (!session) return reply(404, -32001, 'Session not found');
    return s.sessions.serve(session, req, res, message);
  }
  if (!message || !isInitializeRequest(message))
    return reply(
      400,
      -32000,
      'Bad Request: Mcp-Session-Id header is required (open a session with an initialize request)',
    );
  if (!s.sessions.reserve())
    return reply(503, -32000, 'Service Unavailable: too many open sessions; close one (DELETE) or retry later');
  let found: { memory: Memory } | NoMemory;
  try {
    found = await s.agents.get(route.agent);
  } catch (err) {
    s.sessions.release();
    throw err;
  }
  if (!('memory' in found)) {
    s.sessions.release();
    const no: NoMemory = found;
    return reply(no.status, -32000, `${no.code}: ${no.message}`, {}, { code: no.code });
  }
  await s.sessions.open(key, found.memory, req, res, message);
}

function listen(server: HttpServer, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        new MemoryError('IO_ERROR', `cannot listen on ${urlHost(host)}:${port} (${err.code ?? err.message})`, {
          data: { host, port, errno: err.code },
        }),
      );
    });
    server.listen(port, host, () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/**
 * Starts an MCP server over Streamable HTTP.
 * @example const http = await startMcpHttpServer({ memory }); console.error(http.url, http.token)
 */
export async function startMcpHttpServer(options: McpHttpOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  checkOptions(options, host);
  const token = options.token ?? generateToken();
  const redact = redactor(token);
  const log = (line: string): void => options.log?.(redact(line));
  const env = options.env ?? process.env;
  const home = options.home ?? options.memory?.home;
  const open: OpenMemory =
    options.openMemory ??
    ((agentId) =>
      createMemory({ ...(home !== undefined ? { home } : {}), env, ...(agentId !== undefined ? { agentId } : {}) }));
  const agents = new AgentMemories(
    open,
    options.home !== undefined || options.openMemory !== undefined,
    options.memory,
  );
  const cors = options.corsOrigins ?? [];
  const http = createServer();
  const port = await listen(http, host, options.port ?? 0);
  const sessions = new SessionTable({
    idleMs: options.sessionIdleMs ?? 30 * 60_000,
    maxSessions: options.maxSessions ?? 64,
    version: options.version ?? '0.1.0',
    log,
  });
  const served: Served = { headers: headerPolicy(host, port, cors), token, cors, agents, sessions };
  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    handle(served, req, res).catch((err: unknown) => {
      log(`request failed: ${err instanceof Error ? err.message : String(err)}`);
      replier(res)(500, -32603, 'Internal error');
    });
  });
  const base = `http://${urlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url: `${base}/mcp`,
    host,
    port,
    token,
    tokenGenerated: options.token === undefined,
    agentUrl: (agentId) => `${base}/agents/${encodeURIComponent(agentId)}/mcp`,
    get sessions() {
      return sessions.size;
    },
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        await sessions.closeAll();
        http.closeAllConnections();
        await stopped;
      })()),
  };
}
