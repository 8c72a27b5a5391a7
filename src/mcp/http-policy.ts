/**
 * The MCP HTTP server's pure rules: which URL names which agent, which addresses count as loopback, the
 * Host and Origin values a server accepts (DNS-rebinding protection; checked here rather than through the
 * SDK transport's deprecated options, on every request, before anything else), and the CORS headers a
 * configured origin gets. No I/O.
 */
import { isIP } from 'node:net';

/** Which memory a request path names: the default agent (`/mcp`), or `/agents/<id>/mcp`. */
export type Route = { agent: undefined } | { agent: string };

/**
 * The route of a request path (query excluded), or null for any other path. The agent segment is taken
 * as it is (never percent-decoded): the agent-id rule decides whether it names an agent.
 * @example routeOf('/agents/a1/mcp') // { agent: 'a1' }
 */
export function routeOf(pathname: string): Route | null {
  if (pathname === '/mcp') return { agent: undefined };
  const m = /^\/agents\/([^/]{1,256})\/mcp$/.exec(pathname);
  return m ? { agent: m[1] as string } : null;
}

/**
 * True for an address that only this machine can reach: `localhost`, 127.0.0.0/8, `::1`, or an
 * IPv4-mapped 127 address.
 * @example isLoopbackHost('127.0.0.1') === true; isLoopbackHost('0.0.0.0') === false
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || /^::ffff:127\./.test(h) || /^(0{1,4}:){7}0{0,3}1$/.test(h);
  return false;
}

/** `host` as it appears in a URL (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}

/** Which Host and Origin values a server accepts (DNS-rebinding protection). */
export interface HeaderPolicy {
  /** `host:port` values (lower case) a request's Host must be; undefined = any (a server beyond loopback). */
  allowedHosts?: readonly string[];
  /** Origins a browser request may come from; a request without Origin (not a browser) is not checked. */
  allowedOrigins: readonly string[];
}

/**
 * The header policy of a server listening on `host:port`. A loopback server only answers to loopback
 * names with its port, so a page on a rebound DNS name never reaches it; browser origins are the server's
 * own loopback origins and the configured ones. Beyond loopback, Host can be any name the machine
 * answers to, and only configured origins are allowed.
 * @example headerPolicy('127.0.0.1', 8377, []).allowedHosts // ['127.0.0.1:8377', 'localhost:8377', '[::1]:8377']
 */
export function headerPolicy(host: string, port: number, corsOrigins: readonly string[]): HeaderPolicy {
  if (!isLoopbackHost(host)) return { allowedOrigins: [...corsOrigins] };
  const names = [...new Set([urlHost(host).toLowerCase(), '127.0.0.1', 'localhost', '[::1]'])];
  const allowedHosts = names.map((n) => `${n}:${port}`);
  return { allowedHosts, allowedOrigins: [...allowedHosts.map((h) => `http://${h}`), ...corsOrigins] };
}

/**
 * Why a request's Host or Origin is refused, or undefined when both pass. Checked before the token, so a
 * page on a rebound name learns nothing, not even whether its guess of the token was right.
 * @example refusedHeaders('evil.example:8377', undefined, headerPolicy('127.0.0.1', 8377, [])) // 'Host "evil.example:8377" is not allowed'
 */
export function refusedHeaders(
  hostHeader: string | undefined,
  origin: string | undefined,
  policy: HeaderPolicy,
): string | undefined {
  if (policy.allowedHosts && !policy.allowedHosts.includes((hostHeader ?? '').toLowerCase())) {
    return `Host ${JSON.stringify((hostHeader ?? '').slice(0, 200))} is not allowed`;
  }
  if (origin !== undefined && !policy.allowedOrigins.includes(origin))
    return `Origin ${JSON.stringify(origin.slice(0, 200))} is not allowed`;
  return undefined;
}

/**
 * Checks configured CORS origins: each an exact origin (`https://app.example`, no path); INVALID_ARGUMENT
 * is the caller's to throw, this returns the first bad one.
 * @example badOrigin(['https://a.example', 'https://b.example/x']) === 'https://b.example/x'
 */
export function badOrigin(origins: readonly string[]): string | undefined {
  return origins.find((o) => {
    try {
      const u = new URL(o);
      return u.origin !== o || !/^https?:$/.test(u.protocol);
    } catch {
      return true;
    }
  });
}

/** The headers the server's answers carry for an allowed cross-origin caller (none for any other). */
export function corsHeaders(origin: string | undefined, allowed: readonly string[]): Record<string, string> {
  if (origin === undefined || !allowed.includes(origin)) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    Vary: 'Origin',
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, WWW-Authenticate',
  };
}

/** The extra headers of a preflight (OPTIONS) answer for an allowed origin. */
export const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Methods': 'GET, POST, DELETE',
  'Access-Control-Allow-Headers':
    'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '600',
};
