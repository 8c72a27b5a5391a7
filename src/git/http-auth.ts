/**
 * How a token reaches git, and where it may go. Pure.
 *
 * The header travels as config entries in git's environment (`GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` /
 * `GIT_CONFIG_VALUE_<n>`, git ≥ 2.31), never on the command line: any local user can read a process's
 * argv in /proc, only its owner can read its environment. It is scoped to one exact origin
 * (`http.<origin>/.extraHeader`), and redirects are off for the whole command: with git's default
 * (`http.followRedirects=initial`) a redirected first request moves every later request — header
 * included — to the new origin. git's curl trace (headers only, Authorization redacted by git) tells
 * where a refused redirect pointed, so the runner can follow one within the same origin and name the
 * other origin when it refuses.
 */
import type { AuthRefusal } from './auth-failure.js';
import { withGitConfig } from './config-env.js';

/** Credentials for one invocation; never written to config. */
export interface GitAuth {
  /** Full header value, e.g. `Bearer abc` or `Basic base64(user:token)`. */
  authorization: string;
  /** Raw secret values to scrub from every output. */
  secrets: string[];
  /**
   * When set (e.g. `https://github.com/`), the header is sent only to URLs under this prefix
   * (`http.<prefix>.extraHeader`), so a token never travels to another host.
   */
  urlPrefix?: string;
}

/** Environment variables that would make git print headers or bodies in ways we do not control. */
const NOISY_ENV = [
  'GIT_CURL_VERBOSE',
  'GIT_TRACE_CURL',
  'GIT_TRACE_CURL_NO_DATA',
  'GIT_TRACE_REDACT',
  'GIT_REDACT_COOKIES',
];

/**
 * The config entries an authenticated command needs: no credential helper or askpass, the header for
 * exactly one origin, no redirects; `extra` (e.g. a same-origin `insteadOf`) after them.
 * @example authConfigEntries({ authorization: 'Bearer t', secrets: ['t'], urlPrefix: 'https://h/' })
 */
export function authConfigEntries(auth: GitAuth, extra: ReadonlyArray<[string, string]> = []): Array<[string, string]> {
  const header = auth.urlPrefix ? `http.${auth.urlPrefix}.extraHeader` : 'http.extraHeader';
  return [
    ['credential.helper', ''],
    ['core.askPass', ''],
    [header, `Authorization: ${auth.authorization}`],
    ['http.followRedirects', 'false'],
    ...extra,
  ];
}

/**
 * `env` plus `entries` as environment config (after any the caller's environment already carries), plus
 * git's curl trace of headers on stderr; git redacts the Authorization header in it.
 * @example authEnv({ PATH: '/usr/bin' }, [['http.followRedirects', 'false']]).GIT_CONFIG_KEY_0 === 'http.followRedirects'
 */
export function authEnv(
  env: Readonly<Record<string, string>>,
  entries: ReadonlyArray<[string, string]>,
): Record<string, string> {
  const out = withGitConfig(env, entries);
  for (const k of NOISY_ENV) delete out[k];
  out['GIT_TRACE_CURL'] = '2';
  out['GIT_TRACE_CURL_NO_DATA'] = '1';
  out['GIT_TRACE_REDACT'] = '1';
  return out;
}

/** A 3xx answer seen in the trace: the request it answered and where it pointed. */
export interface TracedRedirect {
  status: number;
  method: string;
  /** Origin-relative request target, e.g. `/mem.git/info/refs?service=git-upload-pack`. */
  path: string;
  /** `host[:port]` the request went to. */
  host: string;
  location: string;
}

// `12:34:56.789012 http.c:684              => Send header: GET /x HTTP/1.1`
const TRACE_LINE = /^\d{2}:\d{2}:\d{2}\.\d{6} [\w./-]+:\d+ +(== Info|=> Send|<= Recv)(.*)$/;

/** Scheme names of one `WWW-Authenticate` value (`Basic realm="a, b", Bearer x=1` → basic, bearer). */
function challengeSchemes(value: string): string[] {
  const parts = value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? [];
  return parts.flatMap((p) => {
    const m = /^\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)(?:\s|$)/.exec(p);
    return m?.[1] && !/^\s*[\w-]+\s*=/.test(p) ? [m[1].toLowerCase()] : [];
  });
}

/**
 * Splits git's stderr into its own lines and the curl trace, returning the former, every redirect the
 * trace shows, and the last 401/403 answer with the schemes it offered.
 * @example stripCurlTrace('12:00:00.000000 http.c:684 <= Recv header: HTTP/1.1 200 OK\nfatal: x').stderr === 'fatal: x'
 */
export function stripCurlTrace(stderr: string): { stderr: string; redirects: TracedRedirect[]; refusal?: AuthRefusal } {
  const kept: string[] = [];
  const redirects: TracedRedirect[] = [];
  let refusal: AuthRefusal | undefined;
  let request = { method: '', path: '', host: '' };
  let status = 0;
  for (const line of stderr.split('\n')) {
    const m = TRACE_LINE.exec(line);
    if (!m) {
      kept.push(line);
      continue;
    }
    const [dir, text] = [m[1], /^ header: ?(.*)$/.exec(m[2] ?? '')?.[1]?.trim()];
    if (text === undefined) continue;
    if (dir === '=> Send') {
      const start = /^([A-Z]+) (\S+) HTTP\/[\d.]+$/.exec(text);
      if (start) request = { method: start[1] ?? '', path: start[2] ?? '', host: '' };
      const host = /^host:\s*(\S+)$/i.exec(text);
      if (host) request.host = host[1] ?? '';
    } else if (dir === '<= Recv') {
      const statusLine = /^HTTP\/[\d.]+ (\d{3})\b/.exec(text);
      if (statusLine) status = Number(statusLine[1]);
      if (statusLine && (status === 401 || status === 403)) refusal = { status, schemes: [] };
      const location = /^location:\s*(\S+)$/i.exec(text);
      if (location && status >= 300 && status < 400)
        redirects.push({ status, ...request, location: location[1] ?? '' });
      const challenge = /^www-authenticate:\s*(.*)$/i.exec(text);
      if (challenge && refusal && status === refusal.status)
        refusal.schemes.push(...challengeSchemes(challenge[1] ?? ''));
    }
  }
  return { stderr: kept.join('\n'), redirects, ...(refusal ? { refusal } : {}) };
}

/** What to do about a redirect: follow it by rewriting one base URL to another, or refuse it. */
export type RedirectVerdict =
  | { follow: true; fromBase: string; toBase: string }
  | { follow: false; fromOrigin: string; toOrigin: string; toBase?: string };

const DISCOVERY = /\/info\/refs(\?service=git-(?:upload|receive)-pack)?$/;

/**
 * Judges one redirect of an authenticated command. Only the first request's (ref discovery, as git
 * itself would follow) may be followed, and only within the origin the request went to; the request's
 * scheme is `scheme` (from the header's scope). Anything else is refused.
 * @example judgeRedirect({ status: 301, method: 'GET', path: '/a.git/info/refs', host: 'h', location: '/b.git/info/refs' }, 'https:')
 */
export function judgeRedirect(r: TracedRedirect, scheme: string): RedirectVerdict {
  const fromOrigin = `${scheme}//${r.host}`;
  let from: URL;
  let to: URL;
  try {
    from = new URL(r.path, `${fromOrigin}/`);
    to = new URL(r.location, from);
  } catch {
    return { follow: false, fromOrigin, toOrigin: 'an unreadable location' };
  }
  const tail = DISCOVERY.exec(`${from.pathname}${from.search}`)?.[0];
  const target = `${to.pathname}${to.search}`;
  const toBase = tail && target.endsWith(tail) ? `${to.origin}${target.slice(0, -tail.length)}` : undefined;
  if (to.origin !== from.origin || r.method !== 'GET' || toBase === undefined) {
    return { follow: false, fromOrigin: from.origin, toOrigin: to.origin, ...(toBase ? { toBase } : {}) };
  }
  const fromPath = `${from.pathname}${from.search}`;
  return { follow: true, fromBase: `${from.origin}${fromPath.slice(0, -(tail ?? '').length)}`, toBase };
}
