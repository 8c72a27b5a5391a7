// MCP over Streamable HTTP through the official MCP client: the bearer token is required and compared
// exactly (401 otherwise), several sessions at once, one server for several agents of a home (a session
// of one agent is unknown at another's URL, an unknown agent is 404), Host/Origin checks against DNS
// rebinding, the body and session limits, and no listener beyond loopback without a token given.
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isMemoryError } from '../../src/errors.js';
import { createMemory, initMemory } from '../../src/memory.js';
import { createMcpServer, startMcpHttpServer, type McpHttpServer } from '../../src/mcp/index.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../helpers/tmp.js';

let home: string;
let env: Record<string, string>;
let server: McpHttpServer;
const logLines: string[] = [];
const open: Client[] = [];

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

async function connect(url: string, token: string | null = server.token): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'gitmem-http-test', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, transport };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request (node:http, so Host can be set), with the server's token unless told otherwise. */
function raw(path: string, o: { method?: string; headers?: Record<string, string>; body?: string | Buffer; token?: string | null; to?: McpHttpServer } = {}): Promise<Raw> {
  const to = o.to ?? server;
  const token = o.token === undefined ? to.token : o.token;
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
    ...o.headers,
  };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: to.port, path, method: o.method ?? 'POST', headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(o.body ?? JSON.stringify(INIT));
  });
}

/** Ends the session a raw initialize opened. */
async function end(r: Raw, headers: Record<string, string> = {}, to: McpHttpServer = server): Promise<number> {
  const id = r.headers['mcp-session-id'] as string;
  return (await raw('/mcp', { to, method: 'DELETE', headers: { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18', ...headers }, body: '' })).status;
}

const head = (agent: string): string => git(`${home}/agents/${agent}/memory`, ['rev-parse', 'HEAD']);
const subject = (agent: string): string => git(`${home}/agents/${agent}/memory`, ['log', '-1', '--format=%s']);

beforeAll(async () => {
  home = makeTmpDir('gitmem-mcp-http-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env });
  await initMemory({ home, agentId: 'bob', env });
  const memory = await createMemory({ home, agentId: 'ada', env });
  server = await startMcpHttpServer({ memory, home, env, maxSessions: 4, log: (l) => logLines.push(l) });
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close().catch(() => undefined)));
  await server?.close();
  cleanupTmp();
});

describe('MCP over HTTP: the bearer token', () => {
  it('a request without the token is 401 with a Bearer challenge, and the client cannot connect', async () => {
    const r = await raw('/mcp', { token: null });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="gitmem"');
    expect(r.headers['mcp-session-id']).toBeUndefined();
    await expect(connect(server.url, null)).rejects.toThrow(/401|Unauthorized/);
    expect(server.sessions).toBe(0);
  });

  it('a wrong token is 401 invalid_token: one character off, a prefix, the token plus more, another scheme', async () => {
    const t = server.token;
    const wrong = [`${t.slice(0, -1)}${t.endsWith('A') ? 'B' : 'A'}`, t.slice(0, -1), `${t}x`];
    for (const token of wrong) {
      const r = await raw('/agents/bob/mcp', { token });
      expect(r.status, token).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer realm="gitmem", error="invalid_token"');
    }
    expect((await raw('/mcp', { token: null, headers: { Authorization: `Basic ${t}` } })).status).toBe(401);
    expect((await raw('/mcp', { token: null, headers: { Authorization: t } })).status).toBe(401);
    await expect(connect(server.url, wrong[0])).rejects.toThrow(/401|Unauthorized/);
    expect(server.sessions).toBe(0);
  });

});

describe('MCP over HTTP: sessions and agents', () => {
  it('two sessions at once on one agent, each with its own id; closing one leaves the other serving', async () => {
    const a = await connect(server.url);
    const b = await connect(server.url);
    expect(a.transport.sessionId).toBeTruthy();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    const [ta, tb] = await Promise.all([a.client.listTools(), b.client.listTools()]);
    expect(ta.tools.map((t) => t.name)).toContain('memory');
    expect(tb.tools).toEqual(ta.tools);
    const r = await a.client.callTool({ name: 'memory', arguments: { command: 'create', reason: 'via http', file_path: 'notes/http.md', description: 'HTTP note', file_text: 'hi' } });
    expect(r.isError).toBeFalsy();
    expect(subject('ada')).toBe('via http');
    const seen = await b.client.callTool({ name: 'memory_view', arguments: { path: 'notes/http.md' } });
    expect(JSON.stringify(seen.content)).toContain('hi');
    await a.transport.terminateSession();
    await a.client.close();
    const after = await b.client.callTool({ name: 'memory_tree', arguments: {} });
    expect(JSON.stringify(after.content)).toContain('http.md');
    await b.transport.terminateSession();
    await b.client.close();
    expect(server.sessions).toBe(0);
  });

  it('two agents on one server: each write lands in its own repository', async () => {
    const ada = await connect(server.agentUrl('ada'));
    const bob = await connect(server.agentUrl('bob'));
    const bobBefore = head('bob');
    await ada.client.callTool({ name: 'memory', arguments: { command: 'create', reason: 'ada writes', file_path: 'notes/ada.md', description: 'a', file_text: 'ada' } });
    expect(subject('ada')).toBe('ada writes');
    expect(head('bob')).toBe(bobBefore);
    await bob.client.callTool({ name: 'memory', arguments: { command: 'create', reason: 'bob writes', file_path: 'notes/bob.md', description: 'b', file_text: 'bob' } });
    expect(subject('bob')).toBe('bob writes');
    expect(subject('ada')).toBe('ada writes');
    const tree = await bob.client.callTool({ name: 'memory_tree', arguments: {} });
    expect(JSON.stringify(tree.content)).toContain('bob.md');
    expect(JSON.stringify(tree.content)).not.toContain('ada.md');
    // A session of ada's is unknown at bob's URL.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const cross = await raw('/agents/bob/mcp', { headers: { 'Mcp-Session-Id': ada.transport.sessionId ?? '', 'Mcp-Protocol-Version': '2025-06-18' }, body: list });
    expect(cross.status).toBe(404);
    await ada.transport.terminateSession();
    await bob.transport.terminateSession();
  });

  it('a write in one session reaches a subscriber in another, over its server-sent event stream', async () => {
    const watcher = await connect(server.agentUrl('ada'));
    const writer = await connect(server.url);
    const updates: string[] = [];
    watcher.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await writer.client.callTool({ name: 'memory', arguments: { command: 'create', reason: 'to watch', file_path: 'notes/watched.md', description: 'w', file_text: 'one' } });
    await watcher.client.subscribeResource({ uri: 'gitmem://ada/notes/watched.md' });
    await writer.client.callTool({ name: 'memory', arguments: { command: 'str_replace', reason: 'edit watched', file_path: 'notes/watched.md', old_string: 'one', new_string: 'two' } });
    await vi.waitFor(() => expect(updates).toEqual(['gitmem://ada/notes/watched.md']), { timeout: 20_000, interval: 25 });
    await watcher.transport.terminateSession();
    await writer.transport.terminateSession();
  });

  it('an unknown agent is 404, an invalid agent id 400, another path 404; none opens a session', async () => {
    const unknown = await raw('/agents/nobody/mcp');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.message).toMatch(/no memory for agent "nobody"/);
    await expect(connect(server.agentUrl('nobody'))).rejects.toThrow(/no memory for agent/);
    for (const bad of ['/agents/..%2F..%2Fetc/mcp', '/agents/.git/mcp', '/agents/%2e%2e/mcp', '/agents/../mcp', '/agents/ada%00/mcp']) {
      const r = await raw(bad);
      expect(r.status, bad).toBe(400);
    }
    expect((await raw('/agents/ada/x')).status).toBe(404);
    for (const other of ['/', '/mcp/', '//mcp', '/agents//mcp', '/agents/ada/mcp/x', '/MCP']) expect((await raw(other)).status, other).toBe(404);
    expect(server.sessions).toBe(0);
  });

  it('a request of a session without its id, or with an unknown id, opens nothing', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect((await raw('/mcp', { body: list })).status).toBe(400);
    expect((await raw('/mcp', { body: list, headers: { 'Mcp-Session-Id': 'made-up' } })).status).toBe(404);
    expect(server.sessions).toBe(0);
  });

  it('at most maxSessions at once (503 beyond, also for concurrent initializes); a closed one frees its slot', async () => {
    const results = await Promise.all(Array.from({ length: 7 }, () => raw('/mcp')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 503, 503, 503]);
    expect(server.sessions).toBe(4);
    const [first, ...rest] = results.filter((r) => r.status === 200) as [Raw, ...Raw[]];
    expect(await end(first)).toBe(200);
    expect(server.sessions).toBe(3);
    const again = await raw('/mcp');
    expect(again.status).toBe(200);
    for (const r of [...rest, again]) expect(await end(r)).toBe(200);
    expect(server.sessions).toBe(0);
  });
});

describe('MCP over HTTP: idle sessions', () => {
  it('a session with no request and no open stream for sessionIdleMs is closed, and its id is then unknown', async () => {
    const memory = await createMemory({ home, agentId: 'bob', env });
    const idle = await startMcpHttpServer({ memory, sessionIdleMs: 1 });
    try {
      // Raw requests: the SDK client keeps a GET stream open, and a session with an open stream is never idle.
      const init = await raw('/mcp', { to: idle });
      expect(init.status).toBe(200);
      await vi.waitFor(() => expect(idle.sessions).toBe(0), { timeout: 20_000, interval: 20 });
      const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const after = await raw('/mcp', { to: idle, body: list, headers: { 'Mcp-Session-Id': init.headers['mcp-session-id'] as string, 'Mcp-Protocol-Version': '2025-06-18' } });
      expect(after.status).toBe(404);
    } finally {
      await idle.close();
    }
  });
});

describe('MCP over HTTP: hostile requests', () => {
  it('a Host that is not a loopback name with the port is 403 (DNS rebinding), before the token is looked at', async () => {
    for (const host of ['evil.example', `evil.example:${server.port}`, `127.0.0.1:${server.port + 1}`, '127.0.0.1']) {
      const r = await raw('/mcp', { headers: { Host: host } });
      expect(r.status, host).toBe(403);
      expect((await raw('/mcp', { token: null, headers: { Host: host } })).status, host).toBe(403);
    }
    for (const host of [`localhost:${server.port}`, `LOCALHOST:${server.port}`, `[::1]:${server.port}`]) {
      const r = await raw('/mcp', { headers: { Host: host } });
      expect(r.status, host).toBe(200);
      expect(await end(r, { Host: host })).toBe(200);
    }
  });

  it('a browser Origin other than the server itself is 403 and gets no CORS header', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${server.port + 1}`]) {
      const r = await raw('/mcp', { headers: { Origin: origin } });
      expect(r.status, origin).toBe(403);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    const preflight = await raw('/mcp', { method: 'OPTIONS', token: null, headers: { Origin: 'http://evil.example' }, body: '' });
    expect(preflight.status).toBe(403);
    expect(server.sessions).toBe(0);
  });

  it('a body over 4 MiB is 413 without being held, declared or chunked; a malformed one is a JSON-RPC error', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 10, 0x20);
    expect((await raw('/mcp', { body: big })).status).toBe(413);
    expect((await raw('/mcp', { body: big, headers: { 'Transfer-Encoding': 'chunked' } })).status).toBe(413);
    // An endless body: past a few times the limit the connection is cut, and the server goes on serving.
    const endless = await new Promise<string>((resolve) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST', headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' } });
      req.on('response', (res) => resolve(`status ${res.statusCode ?? 0}`));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = (): void => {
        while (req.write(chunk));
        req.once('drain', pump);
      };
      pump();
    });
    expect(['ECONNRESET', 'EPIPE']).toContain(endless);
    const notJson = await raw('/mcp', { body: '{"jsonrpc":' });
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body).error.code).toBe(-32700);
    const batch = await raw('/mcp', { body: JSON.stringify([INIT]) });
    expect(JSON.parse(batch.body).error.message).toMatch(/batches are not supported; send one JSON-RPC message per request/);
    const notUtf8 = await raw('/mcp', { body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(JSON.parse(notUtf8.body).error.code).toBe(-32700);
    expect(server.sessions).toBe(0);
  });
});

describe('gitmem/mcp createMcpServer', () => {
  it('is the configured server, not yet connected: it serves on a transport of the harness', async () => {
    const memory = await createMemory({ home, agentId: 'bob', env });
    const mcp = createMcpServer(memory);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: 'in-memory', version: '1.0.0' });
    await client.connect(clientSide);
    expect(client.getInstructions()).toMatch(/gitmem serves one agent's memory/);
    const r = await client.callTool({ name: 'memory', arguments: { command: 'create', reason: 'in memory transport', file_path: 'notes/im.md', description: 'i', file_text: 'i' } });
    expect(r.isError).toBeFalsy();
    expect(subject('bob')).toBe('in memory transport');
    // Arguments are still checked against the listed schema, whoever connected the server.
    const bad = await client.callTool({ name: 'memory_apply_patch', arguments: { reason: 'r', patch: 'x' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/INVALID_ARGUMENT/);
    // And request params against the SDK's schemas (connect() wraps every transport): -32602, not a crash.
    await expect(client.request({ method: 'tools/call', params: { arguments: {} } }, CallToolResultSchema)).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('MCP over HTTP: configured CORS origins', () => {
  it('a configured origin gets its preflight and CORS headers; any other origin is 403; a bad configuration is refused', async () => {
    const memory = await createMemory({ home, agentId: 'bob', env });
    const cors = await startMcpHttpServer({ memory, corsOrigins: ['https://app.example'] });
    try {
      const pre = await raw('/mcp', { to: cors, method: 'OPTIONS', token: null, headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' }, body: '' });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
      const init = await raw('/mcp', { to: cors, headers: { Origin: 'https://app.example' } });
      expect(init.status).toBe(200);
      expect(init.headers['access-control-expose-headers']).toMatch(/Mcp-Session-Id/);
      expect(await end(init, { Origin: 'https://app.example' }, cors)).toBe(200);
      expect((await raw('/mcp', { to: cors, token: null, headers: { Origin: 'https://app.example' } })).status).toBe(401);
      expect((await raw('/mcp', { to: cors, headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    } finally {
      await cors.close();
    }
    const bad = await startMcpHttpServer({ memory, corsOrigins: ['*'] }).catch((e: unknown) => e);
    expect(isMemoryError(bad, 'INVALID_ARGUMENT')).toBe(true);
  });
});

describe('MCP over HTTP: where it may listen', () => {
  it('the generated token is 256 bits of base64url and appears in no log line', () => {
    expect(server.tokenGenerated).toBe(true);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(logLines.some((l) => l.includes('opened'))).toBe(true);
    expect(logLines.filter((l) => l.includes(server.token))).toEqual([]);
  });

  it('beyond loopback without a token given is UNSAFE_BIND, before anything listens', async () => {
    const memory = await createMemory({ home, agentId: 'ada', env });
    // 192.0.2.1 (TEST-NET-1) is on no interface here: had the check been skipped, listen would fail with
    // IO_ERROR instead, so this test never listens beyond loopback (0.0.0.0 and :: are pinned in http-policy.test.ts).
    const err = await startMcpHttpServer({ memory, host: '192.0.2.1' }).catch((e: unknown) => e);
    expect(isMemoryError(err) ? err.code : err).toBe('UNSAFE_BIND');
    const given = await startMcpHttpServer({ memory, host: '192.0.2.1', token: 'a-token-the-operator-chose-1234' }).catch((e: unknown) => e);
    expect(isMemoryError(given) ? given.code : given).toBe('IO_ERROR');
  });

  it('a token too short or with characters outside token68 is refused, without echoing it', async () => {
    const memory = await createMemory({ home, agentId: 'ada', env });
    for (const token of ['short', 'has spaces in the token here', 'newline\nin-the-token-1234']) {
      const err = await startMcpHttpServer({ memory, token }).catch((e: unknown) => e);
      expect(isMemoryError(err, 'INVALID_ARGUMENT')).toBe(true);
      expect((err as Error).message).not.toContain(token);
    }
  });
});
