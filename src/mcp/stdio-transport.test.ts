import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { readLine } from './envelope.js';
import { LineStdioTransport } from './stdio-transport.js';

function harness(maxLineBytes = 64) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const t = new LineStdioTransport(stdin, stdout, maxLineBytes);
  const received: JSONRPCMessage[] = [];
  const written: unknown[] = [];
  t.onmessage = (m) => received.push(m);
  let buf = '';
  stdout.on('data', (c: Buffer) => {
    buf += c.toString();
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      written.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  const settle = (): Promise<void> => new Promise((r) => setImmediate(r));
  return { stdin, t, received, written, settle };
}

describe('readLine', () => {
  it('hands on requests, notifications and responses as the SDK would parse them', () => {
    expect(readLine('{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}')).toEqual({
      message: { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} },
    });
    expect(readLine('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toHaveProperty('message');
    expect(readLine('{"jsonrpc":"2.0","id":3,"result":{}}')).toHaveProperty('message');
    expect(readLine('{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"no"}}')).toHaveProperty('message');
  });

  it("never answers blank lines or a peer's own error reports (no ping-pong)", () => {
    for (const line of [
      '',
      '   ',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}',
      '{"jsonrpc":"2.0","error":{"code":1,"message":"x"}}',
    ]) {
      expect(readLine(line), line).toEqual({ skip: true });
    }
  });

  it('keeps every message to one line', () => {
    const v = readLine('{"jsonrpc":"2.0","id":1,"result":5}');
    expect(v).toMatchObject({ reply: { id: 1, error: { code: -32600 } } });
    expect('reply' in v && v.reply.error.message).not.toContain('\n');
  });
});

describe('LineStdioTransport', () => {
  it('splits lines across chunks, takes CRLF and multi-byte characters split between chunks', async () => {
    const h = harness(1024);
    await h.t.start();
    const line = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"é€"}}\r\n');
    for (let i = 0; i < line.length; i += 3) h.stdin.write(line.subarray(i, i + 3));
    await h.settle();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping', params: { s: 'é€' } }]);
  });

  it('refuses an oversized line with its id, skips the rest of it, and reads the next line', async () => {
    const h = harness(64);
    await h.t.start();
    h.stdin.write(`{"method":"ping","params":{"pad":"${'x'.repeat(50)}`);
    h.stdin.write(`${'y'.repeat(500)}"},"jsonrpc":"2.0","id":42}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n`);
    await h.settle();
    expect(h.written).toEqual([
      { jsonrpc: '2.0', id: 42, error: { code: -32600, message: expect.stringMatching(/line limit/) } },
    ]);
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('answers invalid UTF-8 with a parse error', async () => {
    const h = harness();
    await h.t.start();
    h.stdin.write(Buffer.from([0x7b, 0xff, 0x7d, 0x0a]));
    await h.settle();
    expect(h.written).toMatchObject([{ id: null, error: { code: -32700 } }]);
  });

  it('at the end of input, closes only once every request handed on was answered', async () => {
    const h = harness(1024);
    let closed = false;
    h.t.onclose = () => (closed = true);
    await h.t.start();
    h.stdin.end('{"jsonrpc":"2.0","id":7,"method":"ping"}\n');
    await h.settle();
    expect(h.received).toHaveLength(1);
    expect(closed).toBe(false);
    await h.t.send({ jsonrpc: '2.0', id: 7, result: {} });
    await h.t.closed;
    expect(closed).toBe(true);
  });
});
