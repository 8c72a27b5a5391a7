/**
 * A real git smart-HTTP server for tests: `git http-backend` run as CGI behind node:http on 127.0.0.1
 * (or another loopback address), requiring a bearer token (or Basic with the token as password) — or only
 * one of the two schemes, or rejecting every credential with 401/403 — able to answer with redirects and to
 * hold each response a while, plus a fault-injecting proxy that answers 520 or drops the connection for the
 * first K matching requests.
 */
import { spawn, execFileSync } from 'node:child_process';
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { hermeticGitEnv } from './tmp.js';

export interface GitHttpServer {
  port: number;
  /** Base URL, e.g. `http://127.0.0.1:40123`; a repo is `${url}/<name>.git`. */
  url: string;
  /** Every request seen: method, path, whether it authenticated, and the raw Authorization header. */
  requests: Array<{ method: string; path: string; authorized: boolean; authorization: string | undefined }>;
  close(): Promise<void>;
}

/** Creates `<root>/<name>.git` as a bare repo on branch main that accepts pushes over HTTP. */
export function createBareRepo(root: string, name: string): string {
  const dir = join(root, `${name}.git`);
  const env = hermeticGitEnv(root);
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', dir], { env });
  execFileSync('git', ['config', 'http.receivepack', 'true'], { cwd: dir, env });
  return dir;
}

export type AuthSchemeName = 'bearer' | 'basic';

function authorized(
  header: string | undefined,
  token: string | undefined,
  schemes: readonly AuthSchemeName[],
): boolean {
  if (token === undefined) return true;
  if (!header) return false;
  if (header === `Bearer ${token}`) return schemes.includes('bearer');
  const m = /^Basic (.+)$/.exec(header);
  if (!schemes.includes('basic')) return false;
  if (!m?.[1]) return false;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1) === token;
}

function cgiEnv(req: IncomingMessage, root: string, url: URL): Record<string, string> {
  const env: Record<string, string> = {
    ...hermeticGitEnv(root),
    GIT_PROJECT_ROOT: root,
    GIT_HTTP_EXPORT_ALL: '1',
    REQUEST_METHOD: req.method ?? 'GET',
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.replace(/^\?/, ''),
    REMOTE_USER: 'tester',
    REMOTE_ADDR: '127.0.0.1',
  };
  const h = req.headers;
  if (h['content-type']) env['CONTENT_TYPE'] = h['content-type'];
  if (h['content-length']) env['CONTENT_LENGTH'] = h['content-length'];
  if (h['content-encoding']) env['HTTP_CONTENT_ENCODING'] = String(h['content-encoding']);
  if (h['git-protocol']) env['GIT_PROTOCOL'] = String(h['git-protocol']);
  return env;
}

function runBackend(req: IncomingMessage, res: ServerResponse, root: string): void {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const child = spawn('git', ['http-backend'], { env: cgiEnv(req, root, url), stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', () => undefined);
  child.stdin.on('error', () => undefined);
  req.pipe(child.stdin);
  child.on('close', () => {
    const buf = Buffer.concat(out);
    let sep = buf.indexOf('\r\n\r\n');
    let sepLen = 4;
    if (sep < 0) [sep, sepLen] = [buf.indexOf('\n\n'), 2];
    const head = sep < 0 ? '' : buf.subarray(0, sep).toString('utf8');
    const body = sep < 0 ? buf : buf.subarray(sep + sepLen);
    let status = 200;
    const headers: Record<string, string> = {};
    for (const line of head.split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i <= 0) continue;
      const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
      if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10) || 200;
      else headers[k] = v;
    }
    res.writeHead(status, headers);
    res.end(body);
  });
}

function listen(server: Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

export interface GitHttpServerOptions {
  root: string;
  /** Requests without this token (Bearer, or Basic with it as password) get 401. */
  token?: string;
  /** Loopback address to listen on (default 127.0.0.1), e.g. 127.0.0.2 for "another host". */
  host?: string;
  /**
   * Redirects: the Location (absolute or a path) to answer a request path with, or undefined to serve it.
   * Asked before the credentials are checked, as a moved repository answers everyone.
   */
  redirect?: (path: string) => string | undefined;
  /** Status of a redirect (default 301). */
  redirectStatus?: 301 | 302 | 303 | 307 | 308;
  /** Hold every response this long, so a test can watch the client's processes while they wait. */
  delayMs?: number;
  /** The Authorization schemes accepted, each advertised in a `WWW-Authenticate` header of a 401 (default both). */
  schemes?: readonly AuthSchemeName[];
  /** Answer every request that carries credentials with this status (a revoked token, or one without access). */
  rejectWith?: 401 | 403;
}

const CHALLENGE: Record<AuthSchemeName, string> = {
  basic: 'Basic realm="gitmem-test"',
  bearer: 'Bearer realm="gitmem-test"',
};

/**
 * Serves every bare repo under `root`. With `token`, requests without the right credentials get 401.
 * @example const srv = await startGitHttpServer({ root, token: 's3cret' }); createBareRepo(root, 'mem')
 */
export async function startGitHttpServer(opts: GitHttpServerOptions): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const schemes = opts.schemes ?? ['bearer', 'basic'];
  const server = createServer((req, res) => {
    const rejected = opts.rejectWith !== undefined && req.headers.authorization !== undefined;
    const ok = !rejected && authorized(req.headers.authorization, opts.token, schemes);
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      authorized: ok,
      authorization: req.headers.authorization,
    });
    const answer = (): void => {
      const location = opts.redirect?.(req.url ?? '/');
      if (location !== undefined) {
        req.resume();
        res.writeHead(opts.redirectStatus ?? 301, { Location: location, 'Content-Type': 'text/plain' });
        res.end('moved\n');
      } else if (!ok) {
        req.resume();
        const status = rejected ? (opts.rejectWith ?? 401) : 401;
        const challenge = status === 401 ? { 'WWW-Authenticate': schemes.map((k) => CHALLENGE[k]) } : {};
        res.writeHead(status, { ...challenge, 'Content-Type': 'text/plain' });
        res.end(status === 401 ? 'unauthorized\n' : 'forbidden\n');
      } else runBackend(req, res, opts.root);
    };
    if (opts.delayMs) setTimeout(answer, opts.delayMs);
    else answer();
  });
  const host = opts.host ?? '127.0.0.1';
  const port = await listen(server, host);
  return { port, url: `http://${host}:${port}`, requests, close: closer(server) };
}

export type Fault = '520' | '502' | 'drop' | 'drop-after-forward';

export interface FaultProxy {
  url: string;
  /** Faults still to inject, in order, one per matching request. */
  faults: Fault[];
  /** How many requests were faulted so far. */
  injected: number;
  requests: Array<{ method: string; path: string; fault: Fault | null }>;
  close(): Promise<void>;
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  targetPort: number,
  onResponse: (r: IncomingMessage) => void,
): void {
  const upstream = httpRequest(
    { host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers },
    onResponse,
  );
  upstream.on('error', () => undefined);
  upstream.end(body);
}

/**
 * A proxy in front of `targetPort` that injects `faults` into the first matching requests
 * (default: every request matches), then forwards faithfully.
 * @example const proxy = await startFaultProxy({ targetPort: srv.port, faults: ['520', 'drop'] })
 */
export async function startFaultProxy(opts: {
  targetPort: number;
  faults: Fault[];
  match?: (method: string, path: string) => boolean;
}): Promise<FaultProxy> {
  const proxy: Omit<FaultProxy, 'url' | 'close'> = { faults: [...opts.faults], injected: 0, requests: [] };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const matches = (opts.match ?? (() => true))(req.method ?? '', req.url ?? '');
      const fault = matches ? (proxy.faults.shift() ?? null) : null;
      proxy.requests.push({ method: req.method ?? '', path: req.url ?? '', fault });
      if (fault) proxy.injected++;
      if (fault === '520' || fault === '502') {
        res.writeHead(Number(fault), { 'Content-Type': 'text/plain' });
        res.end('injected failure\n');
      } else if (fault === 'drop') {
        req.socket.destroy();
      } else if (fault === 'drop-after-forward') {
        // The server applies the request; the client never hears back.
        forward(req, body, opts.targetPort, (r) => {
          r.resume();
          r.on('end', () => req.socket.destroy());
        });
      } else {
        forward(req, body, opts.targetPort, (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        });
      }
    });
  });
  const port = await listen(server);
  return Object.assign(proxy, { url: `http://127.0.0.1:${port}`, close: closer(server) }) as FaultProxy;
}
