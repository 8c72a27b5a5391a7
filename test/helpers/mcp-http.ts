/**
 * Talking to a gitmem MCP HTTP server in tests: through the official client, or raw (node:http, so Host,
 * Origin and bodies can be anything).
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { McpHttpServer } from '../../src/mcp/index.js';

export const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

export interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Default: an initialize request. */
  body?: string | Buffer;
  /** Default: the server's token; null sends none. */
  token?: string | null;
  /** Default: the server the helpers were made for. */
  to?: McpHttpServer;
}

export interface McpHttpHelpers {
  /** The official client connected to `url` (token null = none); closed by closeAll(). */
  connect: (
    url: string,
    token?: string | null,
  ) => Promise<{ client: Client; transport: StreamableHTTPClientTransport }>;
  /** One raw request. */
  raw: (path: string, o?: RawOptions) => Promise<Raw>;
  /** Ends (DELETE) the session a raw initialize opened; the status. */
  end: (r: Raw, headers?: Record<string, string>, to?: McpHttpServer) => Promise<number>;
  closeAll: () => Promise<void>;
}

/**
 * Helpers for the server `current()` returns.
 * @example const { raw } = mcpHttpHelpers(() => server); expect((await raw('/mcp', { token: null })).status).toBe(401)
 */
export function mcpHttpHelpers(current: () => McpHttpServer): McpHttpHelpers {
  const opened: Client[] = [];
  const raw = (path: string, o: RawOptions = {}): Promise<Raw> => {
    const to = o.to ?? current();
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
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }),
        );
      });
      req.on('error', reject);
      req.end(o.body ?? JSON.stringify(INIT));
    });
  };
  return {
    raw,
    async connect(url, token = current().token) {
      const headers: Record<string, string> = token === null ? {} : { Authorization: `Bearer ${token}` };
      const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
      const client = new Client({ name: 'gitmem-http-test', version: '1.0.0' });
      await client.connect(transport);
      opened.push(client);
      return { client, transport };
    },
    async end(r, headers = {}, to = current()) {
      const id = r.headers['mcp-session-id'] as string;
      return (
        await raw('/mcp', {
          to,
          method: 'DELETE',
          headers: { 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-06-18', ...headers },
          body: '',
        })
      ).status;
    },
    async closeAll() {
      await Promise.all(opened.splice(0).map((c) => c.close().catch(() => undefined)));
    },
  };
}
