import { describe, expect, it } from 'vitest';
import { badOrigin, corsHeaders, headerPolicy, isLoopbackHost, refusedHeaders, routeOf } from './http-policy.js';

describe('MCP HTTP policy', () => {
  it('routes /mcp and /agents/<id>/mcp only, the agent segment raw', () => {
    expect(routeOf('/mcp')).toEqual({ agent: undefined });
    expect(routeOf('/agents/a1/mcp')).toEqual({ agent: 'a1' });
    expect(routeOf('/agents/%2e%2e/mcp')).toEqual({ agent: '%2e%2e' }); // refused by the agent-id rule, never decoded to ..
    for (const p of [
      '/',
      '/mcp/',
      '//mcp',
      '/agents//mcp',
      '/agents/a/b/mcp',
      '/agents/a/mcp/',
      `/agents/${'a'.repeat(257)}/mcp`,
    ])
      expect(routeOf(p), p).toBeNull();
  });

  it('counts only this machine as loopback', () => {
    for (const h of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '0:0:0:0:0:0:0:1',
    ])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      '0.0.0.0',
      '::',
      '[::]',
      '192.168.1.2',
      '10.0.0.1',
      'example.com',
      'localhost.example.com',
      '127.0.0.1.nip.io',
      '::ffff:10.0.0.1',
      '',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('a loopback server answers to its loopback names with its port, and to its own origins', () => {
    const p = headerPolicy('127.0.0.1', 8377, []);
    expect(refusedHeaders('127.0.0.1:8377', undefined, p)).toBeUndefined();
    expect(refusedHeaders('Localhost:8377', 'http://localhost:8377', p)).toBeUndefined();
    expect(refusedHeaders('[::1]:8377', undefined, p)).toBeUndefined();
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:8378',
      'evil.example:8377',
      'localhost.evil.example:8377',
    ])
      expect(refusedHeaders(host, undefined, p), String(host)).toMatch(/^Host /);
    for (const origin of ['http://evil.example', 'null', 'https://127.0.0.1:8377', 'http://127.0.0.1:8378'])
      expect(refusedHeaders('127.0.0.1:8377', origin, p), origin).toMatch(/^Origin /);
    expect(
      refusedHeaders('127.0.0.1:8377', 'https://app.example', headerPolicy('127.0.0.1', 8377, ['https://app.example'])),
    ).toBeUndefined();
  });

  it('beyond loopback any Host, but only configured origins', () => {
    const p = headerPolicy('0.0.0.0', 8377, ['https://app.example']);
    expect(refusedHeaders('memory.lan:8377', undefined, p)).toBeUndefined();
    expect(refusedHeaders('memory.lan:8377', 'https://app.example', p)).toBeUndefined();
    expect(refusedHeaders('memory.lan:8377', 'http://memory.lan:8377', p)).toMatch(/^Origin /);
  });

  it('CORS headers only for a configured origin; configured origins must be bare origins', () => {
    expect(corsHeaders('https://app.example', ['https://app.example'])['Access-Control-Allow-Origin']).toBe(
      'https://app.example',
    );
    expect(corsHeaders('https://evil.example', ['https://app.example'])).toEqual({});
    expect(corsHeaders(undefined, ['https://app.example'])).toEqual({});
    expect(badOrigin(['https://a.example', 'http://127.0.0.1:3000'])).toBeUndefined();
    for (const o of ['https://a.example/', 'https://a.example/x', 'file:///x', '*', 'a.example', 'https://A.example'])
      expect(badOrigin([o]), o).toBe(o);
  });
});
