// MCP over Streamable HTTP through the official MCP client: the bearer token is required and compared
// exactly (401 otherwise), several sessions at once, one server for several agents of a home (a session
// of one agent is unknown at another's URL, an unknown agent is 404), the session limit and idle sweep,
// createMcpServer on a harness's own transport. Hostile requests: mcp-http-hostile.test.ts.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMemory, initMemory } from '../../../src/memory.js';
import { createMcpServer, startMcpHttpServer, type McpHttpServer } from '../../../src/mcp/index.js';
import { mcpHttpHelpers, type Raw } from '../../helpers/mcp-http.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let home: string;
let env: Record<string, string>;
let server: McpHttpServer;
const logLines: string[] = [];
const { connect, raw, end, closeAll } = mcpHttpHelpers(() => server);

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
  await closeAll();
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
    const r = await a.client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'via http',
        file_path: 'notes/http.md',
        description: 'HTTP note',
        file_text: 'hi',
      },
    });
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
    await ada.client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'ada writes',
        file_path: 'notes/ada.md',
        description: 'a',
        file_text: 'ada',
      },
    });
    expect(subject('ada')).toBe('ada writes');
    expect(head('bob')).toBe(bobBefore);
    await bob.client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'bob writes',
        file_path: 'notes/bob.md',
        description: 'b',
        file_text: 'bob',
      },
    });
    expect(subject('bob')).toBe('bob writes');
    expect(subject('ada')).toBe('ada writes');
    const tree = await bob.client.callTool({ name: 'memory_tree', arguments: {} });
    expect(JSON.stringify(tree.content)).toContain('bob.md');
    expect(JSON.stringify(tree.content)).not.toContain('ada.md');
    // A session of ada's is unknown at bob's URL.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const cross = await raw('/agents/bob/mcp', {
      headers: { 'Mcp-Session-Id': ada.transport.sessionId ?? '', 'Mcp-Protocol-Version': '2025-06-18' },
      body: list,
    });
    expect(cross.status).toBe(404);
    await ada.transport.terminateSession();
    await bob.transport.terminateSession();
  });

  it('a write in one session reaches a subscriber in another, over its server-sent event stream', async () => {
    const watcher = await connect(server.agentUrl('ada'));
    const writer = await connect(server.url);
    const updates: string[] = [];
    watcher.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    await writer.client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'to watch',
        file_path: 'notes/watched.md',
        description: 'w',
        file_text: 'one',
      },
    });
    await watcher.client.subscribeResource({ uri: 'gitmem://ada/notes/watched.md' });
    await writer.client.callTool({
      name: 'memory',
      arguments: {
        command: 'str_replace',
        reason: 'edit watched',
        file_path: 'notes/watched.md',
        old_string: 'one',
        new_string: 'two',
      },
    });
    await vi.waitFor(() => expect(updates).toEqual(['gitmem://ada/notes/watched.md']), {
      timeout: 20_000,
      interval: 25,
    });
    await watcher.transport.terminateSession();
    await writer.transport.terminateSession();
  });

  it('an unknown agent is 404, an invalid agent id 400, another path 404; none opens a session', async () => {
    const unknown = await raw('/agents/nobody/mcp');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).error.message).toMatch(/no memory for agent "nobody"/);
    await expect(connect(server.agentUrl('nobody'))).rejects.toThrow(/no memory for agent/);
    for (const bad of [
      '/agents/..%2F..%2Fetc/mcp',
      '/agents/.git/mcp',
      '/agents/%2e%2e/mcp',
      '/agents/../mcp',
      '/agents/ada%00/mcp',
    ]) {
      const r = await raw(bad);
      expect(r.status, bad).toBe(400);
    }
    expect((await raw('/agents/ada/x')).status).toBe(404);
    for (const other of ['/', '/mcp/', '//mcp', '/agents//mcp', '/agents/ada/mcp/x', '/MCP'])
      expect((await raw(other)).status, other).toBe(404);
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
      const after = await raw('/mcp', {
        to: idle,
        body: list,
        headers: { 'Mcp-Session-Id': init.headers['mcp-session-id'] as string, 'Mcp-Protocol-Version': '2025-06-18' },
      });
      expect(after.status).toBe(404);
    } finally {
      await idle.close();
    }
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
    const r = await client.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'in memory transport',
        file_path: 'notes/im.md',
        description: 'i',
        file_text: 'i',
      },
    });
    expect(r.isError).toBeFalsy();
    expect(subject('bob')).toBe('in memory transport');
    // Arguments are still checked against the listed schema, whoever connected the server.
    const bad = await client.callTool({ name: 'memory_apply_patch', arguments: { reason: 'r', patch: 'x' } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/INVALID_ARGUMENT/);
    // And request params against the SDK's schemas (connect() wraps every transport): -32602, not a crash.
    await expect(
      client.request({ method: 'tools/call', params: { arguments: {} } }, CallToolResultSchema),
    ).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('MCP over HTTP: the log', () => {
  it('the generated token is 256 bits of base64url and appears in no log line', () => {
    expect(server.tokenGenerated).toBe(true);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(logLines.some((l) => l.includes('opened'))).toBe(true);
    expect(logLines.filter((l) => l.includes(server.token))).toEqual([]);
  });
});
