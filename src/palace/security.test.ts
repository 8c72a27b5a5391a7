import { describe, expect, it } from 'vitest';
import { hostAllowed, isLoopbackHost, isWellFormedToken, newToken, parseHostHeader, tokenMatches } from './security.js';

describe('the palace token', () => {
  it('is 256 random bits, base64url, and never repeats', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
    expect(isWellFormedToken(a)).toBe(true);
    expect(isWellFormedToken('short')).toBe(false);
    expect(isWellFormedToken(`${a}/`)).toBe(false);
  });

  it('matches only itself: another length, a prefix, one changed character all fail', () => {
    const t = newToken();
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t.slice(0, -1), t)).toBe(false);
    expect(tokenMatches(`${t}x`, t)).toBe(false);
    expect(tokenMatches('', t)).toBe(false);
    expect(tokenMatches(`${t.slice(0, -1)}${t.endsWith('a') ? 'b' : 'a'}`, t)).toBe(false);
  });
});

describe('the Host check', () => {
  const server = { bind: '127.0.0.1', port: 4000 };
  it('accepts loopback names on the server port only', () => {
    for (const h of ['127.0.0.1:4000', 'localhost:4000', '[::1]:4000', 'LOCALHOST:4000', '127.0.0.2:4000'])
      expect(hostAllowed(h, server), h).toBe(true);
    for (const h of [
      '127.0.0.1:4001',
      'localhost',
      'evil.example:4000',
      '127.0.0.1.evil.example:4000',
      'localhost.evil:4000',
      '',
      undefined,
      'a b:4000',
      '127.0.0.1:4000:4000',
    ])
      expect(hostAllowed(h, server), String(h)).toBe(false);
  });

  it('bound elsewhere: that host, or on a wildcard any IP literal, never a name', () => {
    expect(hostAllowed('192.168.1.5:4000', { bind: '192.168.1.5', port: 4000 })).toBe(true);
    expect(hostAllowed('10.0.0.1:4000', { bind: '192.168.1.5', port: 4000 })).toBe(false);
    expect(hostAllowed('10.0.0.1:4000', { bind: '0.0.0.0', port: 4000 })).toBe(true);
    expect(hostAllowed('rebind.example:4000', { bind: '0.0.0.0', port: 4000 })).toBe(false);
  });

  it('knows loopback from the rest', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('::1')).toBe(true);
    expect(isLoopbackHost('0.0.0.0')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
    expect(parseHostHeader('[::1]:80')).toEqual({ name: '[::1]', port: 80 });
  });
});
