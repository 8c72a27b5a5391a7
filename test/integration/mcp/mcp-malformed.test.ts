/**
 * `gitmem mcp` under bad input: a corpus of malformed JSON-RPC lines written raw to the server's stdin,
 * one at a time. Each gets exactly one answer with the right code (-32700 parse error, -32600 invalid
 * request, -32602 invalid params, -32601 unknown method), lines over the 4 MiB limit are refused and
 * the server keeps serving; afterwards the official MCP client connects on the same stdio and works.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp } from '../../helpers/tmp.js';

type Answer = { jsonrpc?: string; id?: unknown; result?: unknown; error?: { code: number; message: string } };

/** The server's stdout as a queue of parsed lines; after `handOver`, lines go to a client transport. */
class Wire {
  private buf = '';
  private lines: string[] = [];
  private waiters: Array<(line: string) => void> = [];
  forward: ((m: JSONRPCMessage) => void) | undefined;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (c: Buffer) => {
      this.buf += c.toString('utf8');
      for (let nl = this.buf.indexOf('\n'); nl >= 0; nl = this.buf.indexOf('\n')) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (this.forward) this.forward(JSON.parse(line) as JSONRPCMessage);
        else if (this.waiters.length > 0) this.waiters.shift()?.(line);
        else this.lines.push(line);
      }
    });
  }
  write(raw: string | Buffer): void {
    this.child.stdin.write(raw);
  }
  /** The next line the server writes (a guard turns a missing answer into a failure, not a hang). */
  next(label: string): Promise<Answer> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line) as Answer);
    return new Promise((resolve, reject) => {
      const guard = setTimeout(() => reject(new Error(`no answer to ${label}`)), 15_000);
      this.waiters.push((l) => (clearTimeout(guard), resolve(JSON.parse(l) as Answer)));
    });
  }
  pending(): number {
    return this.lines.length;
  }
}

const PARSE = -32700;
const INVALID_REQUEST = -32600;
const METHOD = -32601;
const PARAMS = -32602;
const req = (o: Record<string, unknown>): string => JSON.stringify({ jsonrpc: '2.0', ...o });
const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);

/** raw line (without the newline) → expected code and id (null when the id cannot be trusted). */
const CORPUS: Array<[string | Buffer, number, unknown]> = [
  // Not JSON at all, or cut short.
  ['garbage', PARSE, null],
  ['{', PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping"', PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping",}', PARSE, null],
  ["{'jsonrpc':'2.0','id':1,'method':'ping'}", PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping"}}', PARSE, null],
  ['{"jsonrpc":"2.0","id":1,"method":"ping"} trailing', PARSE, null],
  ['[1,2', PARSE, null],
  ['tru', PARSE, null],
  ['NaN', PARSE, null],
  ['{"jsonrpc":"2.0","id":01,"method":"ping"}', PARSE, null],
  [
    Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}}'),
    ]),
    PARSE,
    null,
  ],
  ['\u0000\u0001\u0002', PARSE, null],
  // JSON, but not a JSON-RPC message.
  ['[]', INVALID_REQUEST, null],
  [`[${req({ id: 3, method: 'ping' })}]`, INVALID_REQUEST, null],
  [`[${req({ id: 3, method: 'ping' })},${req({ id: 4, method: 'ping' })}]`, INVALID_REQUEST, null],
  ['[1,2,3]', INVALID_REQUEST, null],
  [deep(50_000), INVALID_REQUEST, null],
  ['1', INVALID_REQUEST, null],
  ['"ping"', INVALID_REQUEST, null],
  ['null', INVALID_REQUEST, null],
  ['true', INVALID_REQUEST, null],
  ['{}', INVALID_REQUEST, null],
  ['{"id":5,"method":"ping"}', INVALID_REQUEST, 5],
  ['{"jsonrpc":"1.0","id":6,"method":"ping"}', INVALID_REQUEST, 6],
  ['{"jsonrpc":2,"id":7,"method":"ping"}', INVALID_REQUEST, 7],
  ['{"jsonrpc":"2.0 ","id":8,"method":"ping"}', INVALID_REQUEST, 8],
  // Bad ids: never echoed.
  [req({ id: { a: 1 }, method: 'ping' }), INVALID_REQUEST, null],
  [req({ id: [9], method: 'ping' }), INVALID_REQUEST, null],
  [req({ id: 1.5, method: 'ping' }), INVALID_REQUEST, null],
  [req({ id: true, method: 'ping' }), INVALID_REQUEST, null],
  [req({ id: null, method: 'ping' }), INVALID_REQUEST, null],
  ['{"jsonrpc":"2.0","id":1e400,"method":"ping"}', INVALID_REQUEST, null],
  [req({ id: 2 ** 60, method: 'ping' }), INVALID_REQUEST, null],
  // Missing or bad method; responses that are not responses.
  [req({ id: 10 }), INVALID_REQUEST, 10],
  [req({ id: 11, method: 7 }), INVALID_REQUEST, 11],
  [req({ id: 12, method: null }), INVALID_REQUEST, 12],
  [req({ method: 5 }), INVALID_REQUEST, null],
  [req({ id: 13, result: {}, error: { code: 1, message: 'x' } }), INVALID_REQUEST, 13],
  [req({ id: 14, error: 'bad' }), INVALID_REQUEST, 14],
  [req({ id: 15, method: 'no/such/method' }), METHOD, 15],
  [req({ id: 16, method: '' }), METHOD, 16],
  // Params that are not an object.
  [req({ id: 17, method: 'ping', params: 5 }), PARAMS, 17],
  [req({ id: 18, method: 'ping', params: 'x' }), PARAMS, 18],
  [req({ id: 19, method: 'tools/list', params: [1] }), PARAMS, 19],
  [req({ id: 20, method: 'ping', params: null }), PARAMS, 20],
  [req({ method: 'notifications/initialized', params: 3 }), PARAMS, null],
  // Params of the wrong shape for the method.
  [req({ id: 21, method: 'tools/call', params: {} }), PARAMS, 21],
  [req({ id: 22, method: 'tools/call', params: { name: 5 } }), PARAMS, 22],
  [req({ id: 23, method: 'tools/call', params: { name: 'memory_tree', arguments: 'x' } }), PARAMS, 23],
  [req({ id: 24, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } }), PARAMS, 24],
  [req({ id: 25, method: 'tools/list', params: { cursor: 5 } }), PARAMS, 25],
  [req({ id: 26, method: 'initialize', params: {} }), PARAMS, 26],
  [req({ id: 27, method: 'tools/call', params: { name: 'memory_tree', _meta: 5 } }), PARAMS, 27],
  [req({ id: 'str-id', method: 'tools/call', params: { name: ['memory'] } }), PARAMS, 'str-id'],
];

const CLI = join(process.cwd(), 'dist/bin/gitmem.cjs');
let wire: Wire;

beforeAll(async () => {
  const fx = await memoryFixture('mcp-bad');
  const child = spawn(process.execPath, [CLI, 'mcp', '--agent', 'mcp-bad'], {
    env: fx.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  wire = new Wire(child);
});
afterAll(() => {
  wire?.child.kill();
  cleanupTmp();
});

describe('gitmem mcp answers every malformed message', () => {
  it(`answers each of ${CORPUS.length} malformed lines with one error of the right code`, async () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    for (const [i, [raw, code, id]] of CORPUS.entries()) {
      const label = `corpus[${i}] ${String(raw).slice(0, 80)}`;
      wire.write(Buffer.concat([Buffer.isBuffer(raw) ? raw : Buffer.from(raw), Buffer.from('\n')]));
      const answer = await wire.next(label);
      expect(answer.jsonrpc, label).toBe('2.0');
      expect(answer.error?.code, `${label} → ${JSON.stringify(answer)}`).toBe(code);
      expect(answer.id, label).toStrictEqual(id);
      expect(answer.error?.message, label).toMatch(/^[^\n]{1,300}$/);
      // Alive and in step: a ping right after is answered, and nothing else was sent.
      wire.write(`${req({ id: `ping-${i}`, method: 'ping' })}\n`);
      expect(await wire.next(`ping after ${label}`), label).toStrictEqual({
        jsonrpc: '2.0',
        id: `ping-${i}`,
        result: {},
      });
      expect(wire.pending(), label).toBe(0);
    }
  });

  it('hostile but valid messages are served normally; blank lines are skipped', async () => {
    wire.write(
      `\n   \r\n${req({ id: 'proto', method: 'ping', params: JSON.parse('{"__proto__":{"polluted":true}}') })}\n`,
    );
    expect(await wire.next('__proto__ params')).toStrictEqual({ jsonrpc: '2.0', id: 'proto', result: {} });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    wire.write(`{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"x":${deep(20_000)}}}\n`);
    expect(await wire.next('deep params')).toStrictEqual({ jsonrpc: '2.0', id: 'deep', result: {} });
  });

  it('refuses lines over the 4 MiB limit with an error (naming the request when it can) and keeps serving', async () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    wire.write(
      `{"method":"tools/call","params":{"name":"memory_tree","arguments":{"pad":"${big}"}},"jsonrpc":"2.0","id":900}\n`,
    );
    const a = await wire.next('5 MiB request');
    expect(a).toMatchObject({ jsonrpc: '2.0', id: 900, error: { code: INVALID_REQUEST } });
    expect(a.error?.message).toMatch(/4 MiB/);
    // Over the SDK's own 10 MB buffer, in many writes: refused, not fatal.
    for (let k = 0; k < 12; k++) wire.write('y'.repeat(1024 * 1024));
    wire.write('\n');
    expect(await wire.next('12 MiB garbage')).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: INVALID_REQUEST },
    });
    wire.write(`${req({ id: 'after-big', method: 'ping' })}\n`);
    expect(await wire.next('ping after big')).toStrictEqual({ jsonrpc: '2.0', id: 'after-big', result: {} });
  });

  it('after the corpus, the official MCP client connects on the same stdio and works', async () => {
    const transport: Transport = {
      start: async () => undefined,
      send: async (message) => void wire.write(`${JSON.stringify(message)}\n`),
      close: async () => undefined,
    };
    wire.forward = (m) => transport.onmessage?.(m);
    const client = new Client({ name: 'after-corpus', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('memory_tree');
    const tree = await client.callTool({ name: 'memory_tree', arguments: {} });
    expect(tree.isError).toBeFalsy();
    await client.close();
  });
});
