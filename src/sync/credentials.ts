/**
 * Where a git token comes from (`GITMEM_GIT_TOKEN` or a 0600 `$GITMEM_HOME/credentials` file) and how it
 * becomes the runner's per-invocation `auth` option. The token is never written to git config.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import type { GitAuth } from '../git/runner.js';

export type AuthScheme = 'bearer' | 'basic';

/** A token and how to present it. */
export interface GitCredentials {
  token: string;
  scheme: AuthScheme;
  /** User name for Basic auth (default `x-access-token`, which GitHub and Gitea accept). */
  username: string;
  /** When set, the token is only sent to remotes under this URL prefix. */
  url?: string;
  source: 'env' | 'file';
}

const DEFAULT_USER = 'x-access-token';

/**
 * Parses a credentials file: either a single line holding the token, or `key = value` lines with
 * `token`, `scheme` (bearer|basic), `username`, `url`. `#` starts a comment.
 * @example parseCredentialsFile('token = abc\nscheme = basic').scheme === 'basic'
 */
export function parseCredentialsFile(text: string): Omit<GitCredentials, 'source'> | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (lines.length === 0) return undefined;
  if (lines.length === 1 && !/^[a-z_]+\s*=/i.test(lines[0] ?? '')) return withDefaults({ token: lines[0] ?? '' });
  const fields: Record<string, string> = {};
  for (const line of lines) {
    const eq = line.indexOf('=');
    if (eq <= 0) throw new MemoryError('INVALID_ARGUMENT', 'credentials file: expected `key = value` lines');
    fields[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  if (!fields['token']) return undefined;
  return withDefaults(fields as { token: string; scheme?: string; username?: string; url?: string });
}

function withDefaults(f: {
  token: string;
  scheme?: string;
  username?: string;
  url?: string;
}): Omit<GitCredentials, 'source'> {
  const scheme = (f.scheme ?? (f.username ? 'basic' : 'bearer')).toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'basic') {
    throw new MemoryError('INVALID_ARGUMENT', `unknown auth scheme ${JSON.stringify(f.scheme)} (use bearer or basic)`);
  }
  return { token: f.token, scheme, username: f.username || DEFAULT_USER, ...(f.url ? { url: f.url } : {}) };
}

/**
 * Credentials from a token given directly (config.ts passes GITMEM_GIT_TOKEN and its companions): a user
 * name means Basic unless a scheme says otherwise.
 * @example credentialsFromToken({ token: 't', username: 'me' }).scheme === 'basic'
 */
export function credentialsFromToken(given: { token: string; username?: string; scheme?: string }): GitCredentials {
  return { ...withDefaults(given), source: 'env' };
}

/**
 * The credentials file `<home>/credentials`, which must not be readable by group or others
 * (CREDENTIALS_INSECURE); undefined when there is none (remotes then use the user's own git/SSH setup).
 * @example readCredentialsFile('/home/me/.gitmem')?.source === 'file'
 */
export function readCredentialsFile(home: string): GitCredentials | undefined {
  const file = join(home, 'credentials');
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch {
    return undefined;
  }
  if (process.platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new MemoryError(
      'CREDENTIALS_INSECURE',
      `${file} is readable by group or others (mode ${(mode & 0o777).toString(8)}); run: chmod 600 ${file}`,
      { data: { file, mode: mode & 0o777 } },
    );
  }
  const parsed = parseCredentialsFile(readFileSync(file, 'utf8'));
  return parsed ? { ...parsed, source: 'file' } : undefined;
}

/**
 * Turns credentials into the runner's `auth` option for one remote URL. The header is scoped to the
 * remote's origin (`http.<origin>/.extraHeader`), so it never reaches another host; non-HTTP remotes
 * (paths, SSH) get no header. Returns undefined when nothing should be sent.
 * @example authForRemote(cred, 'https://github.com/me/mem.git')?.urlPrefix === 'https://github.com/'
 */
export function authForRemote(cred: GitCredentials | undefined, remoteUrl: string): GitAuth | undefined {
  if (!cred) return undefined;
  const origin = httpOrigin(remoteUrl);
  if (!origin) return undefined;
  if (cred.url && !withinScope(remoteUrl, cred.url)) return undefined;
  const basic = Buffer.from(`${cred.username}:${cred.token}`).toString('base64');
  const authorization = cred.scheme === 'basic' ? `Basic ${basic}` : `Bearer ${cred.token}`;
  return { authorization, secrets: [cred.token, basic], urlPrefix: `${origin}/` };
}

/**
 * True when `url` lies under `scope`: the same scheme, host and port, and a path under the scope's path
 * at a segment boundary — so a scope `https://git.example.com` never matches `https://git.example.com.evil/`
 * and `https://h/team` never matches `https://h/team-b/`.
 */
function withinScope(url: string, scope: string): boolean {
  try {
    const [u, s] = [new URL(url), new URL(scope)];
    if (u.origin !== s.origin) return false;
    const base = s.pathname.endsWith('/') ? s.pathname : `${s.pathname}/`;
    return `${u.pathname}/`.startsWith(base);
  } catch {
    return false;
  }
}

function httpOrigin(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url)) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return undefined;
  }
}
