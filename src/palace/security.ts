/**
 * The palace's front gate, pure: the URL token (256 random bits, compared in constant time), which Host
 * headers a request may carry (loopback names, or the one host the user bound to — a DNS-rebinding page
 * arrives with its own name and is refused), and the headers every answer carries (strict CSP, no sniffing,
 * no referrer, no framing, no CORS).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Characters a token may hold (base64url), and the shortest token accepted from a file (≥ 192 bits). */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,256}$/;

/**
 * A fresh token: 32 random bytes, base64url (43 characters).
 * @example newToken().length === 43
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True when `token` has the shape a palace token must have (checked for tokens read from a file). */
export function isWellFormedToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/**
 * Compares a presented token with the real one in time independent of where they differ (both are hashed
 * first, so their lengths leak nothing either).
 * @example tokenMatches('abc', 'abc') === true
 */
export function tokenMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** True for a host that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1' || h === '0:0:0:0:0:0:0:1';
}

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/** Splits a Host header into name and port; undefined when it is malformed. */
export function parseHostHeader(value: string | undefined): { name: string; port: number | undefined } | undefined {
  if (value === undefined || value.length > 300) return undefined;
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(value.trim());
  if (!m) return undefined;
  return { name: (m[1] as string).toLowerCase(), port: m[2] === undefined ? undefined : Number(m[2]) };
}

/**
 * Whether a request's Host header names this server: its port, and a loopback name; or, bound to another
 * host, that host (bound to a wildcard, any IP literal — a rebinding attack always comes with a name).
 * @example hostAllowed('127.0.0.1:8080', { bind: '127.0.0.1', port: 8080 }) === true
 * @example hostAllowed('evil.example:8080', { bind: '127.0.0.1', port: 8080 }) === false
 */
export function hostAllowed(header: string | undefined, server: { bind: string; port: number }): boolean {
  const host = parseHostHeader(header);
  if (!host || (host.port ?? 80) !== server.port) return false;
  if (isLoopbackHost(host.name)) return true;
  const bind = server.bind.toLowerCase();
  if (WILDCARDS.has(bind)) return isIP(host.name.replace(/^\[|\]$/g, '')) !== 0;
  return host.name.replace(/^\[|\]$/g, '') === bind.replace(/^\[|\]$/g, '');
}

/** The page's policy: only its own script, style and API; images only inline data; no frames, forms or plugins. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'none'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers on every answer, errors included. */
export function securityHeaders(): Record<string, string> {
  return {
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  };
}

/**
 * The policy of an exported page: nothing loads from anywhere — only the inline script and style whose
 * hashes are given run (a `<meta>` policy, since a file has no headers).
 */
export function exportPolicy(scriptHash: string, styleHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    `style-src 'sha256-${styleHash}'`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}
