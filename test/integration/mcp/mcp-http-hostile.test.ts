// MCP over HTTP against hostile requests: Host/Origin checks against DNS rebinding (before the token),
// bodies over the limit (declared, chunked, endless) and malformed ones, configured CORS origins, and no
// listener beyond loopback without a token the operator gave.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { startMcpHttpServer, type McpHttpServer } from '../../../src/mcp/index.js';
import { INIT, mcpHttpHelpers } from '../../helpers/mcp-http.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let home: string;
let env: Record<string, string>;
let server: McpHttpServer;
const { raw, end } = mcpHttpHelpers(() => server);

beforeAll(async () => {
  home = makeTmpDir('gitmem-mcp-http-hostile-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env });
  await initMemory({ home, agentId: 'bob', env });
  const memory = await createMemory({ home, agentId: 'ada', env });
  server = await startMcpHttpServer({ memory, home, env });
});
afterAll(async () => {
  await server?.close();
  cleanupTmp();
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
    const preflight = await raw('/mcp', {
      method: 'OPTIONS',
      token: null,
      headers: { Origin: 'http://evil.example' },
      body: '',
    });
    expect(preflight.status).toBe(403);
    expect(server.sessions).toBe(0);
  });

  it('a body over 4 MiB is 413 without being held, declared or chunked; a malformed one is a JSON-RPC error', async () => {
    const big = Buffer.alloc(4 * 1024 * 1024 + 10, 0x20);
    expect((await raw('/mcp', { body: big })).status).toBe(413);
    expect((await raw('/mcp', { body: big, headers: { 'Transfer-Encoding': 'chunked' } })).status).toBe(413);
    // An endless body: past a few times the limit the connection is cut, and the server goes on serving.
    const endless = await new Promise<string>((resolve) => {
      const req = request({
        host: '127.0.0.1',
        port: server.port,
        path: '/mcp',
        method: 'POST',
        headers: { Authorization: `Bearer ${server.token}`, 'Content-Type': 'application/json' },
      });
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
    expect(JSON.parse(batch.body).error.message).toMatch(
      /batches are not supported; send one JSON-RPC message per request/,
    );
    const notUtf8 = await raw('/mcp', { body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(JSON.parse(notUtf8.body).error.code).toBe(-32700);
    expect(server.sessions).toBe(0);
  });
});

describe('MCP over HTTP: configured CORS origins', () => {
  it('a configured origin gets its preflight and CORS headers; any other origin is 403; a bad configuration is refused', async () => {
    const memory = await createMemory({ home, agentId: 'bob', env });
    const cors = await startMcpHttpServer({ memory, corsOrigins: ['https://app.example'] });
    try {
      const pre = await raw('/mcp', {
        to: cors,
        method: 'OPTIONS',
        token: null,
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
        body: '',
      });
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('https://app.example');
      expect(pre.headers['access-control-allow-headers']).toMatch(/Authorization/);
      const init = await raw('/mcp', { to: cors, headers: { Origin: 'https://app.example' } });
      expect(init.status).toBe(200);
      expect(init.headers['access-control-expose-headers']).toMatch(/Mcp-Session-Id/);
      expect(await end(init, { Origin: 'https://app.example' }, cors)).toBe(200);
      expect((await raw('/mcp', { to: cors, token: null, headers: { Origin: 'https://app.example' } })).status).toBe(
        401,
      );
      expect((await raw('/mcp', { to: cors, headers: { Origin: 'https://evil.example' } })).status).toBe(403);
    } finally {
      await cors.close();
    }
    const bad = await startMcpHttpServer({ memory, corsOrigins: ['*'] }).catch((e: unknown) => e);
    expect(isMemoryError(bad, 'INVALID_ARGUMENT')).toBe(true);
  });
});

describe('MCP over HTTP: where it may listen', () => {
  it('beyond loopback without a token given is UNSAFE_BIND, before anything listens', async () => {
    const memory = await createMemory({ home, agentId: 'ada', env });
    // 192.0.2.1 (TEST-NET-1) is on no interface here: had the check been skipped, listen would fail with
    // IO_ERROR instead, so this test never listens beyond loopback (0.0.0.0 and :: are pinned in http-policy.test.ts).
    const err = await startMcpHttpServer({ memory, host: '192.0.2.1' }).catch((e: unknown) => e);
    expect(isMemoryError(err) ? err.code : err).toBe('UNSAFE_BIND');
    const given = await startMcpHttpServer({
      memory,
      host: '192.0.2.1',
      token: 'a-token-the-operator-chose-1234',
    }).catch((e: unknown) => e);
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
