/**
 * The memory repo's sync remote: a normal `origin` in the repo's git config (never with a token in it).
 * `gitmem remote set|show|remove`.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MemoryError } from '../errors.js';
import { configValues, parseGitConfig, readGitConfigText } from '../git/config-text.js';
import { refMovesOp, type RefMove } from '../git/commands/commit-graph.js';
import type { GitRunner } from '../git/runner.js';
import { redactText, secretParamNames } from '../git/redact.js';
import { gitDirOf, readRepoState } from './repo-state.js';

/** The sync remote (`origin`) as stored; a URL never carries a token. */
export interface RemoteInfo {
  name: 'origin';
  /** The configured URL (redacted for display), or null. */
  url: string | null;
  /** Upstream of main, e.g. `origin/main`, or null before the first push/pull. */
  upstream: string | null;
  /** Commits on main not on the last-fetched remote main (null when unknown). */
  ahead: number | null;
  behind: number | null;
}

/**
 * Cleans and checks a remote URL: trims, strips trailing slashes, resolves a local path against `baseDir`,
 * and refuses credentials embedded in the URL (they would be stored in .git/config).
 * @example normalizeRemoteUrl('https://github.com/me/mem.git/', '/') === 'https://github.com/me/mem.git'
 */
export function normalizeRemoteUrl(raw: string, baseDir: string): string {
  const url = raw.trim().replace(/\/+$/, '');
  if (url === '') throw new MemoryError('INVALID_ARGUMENT', 'remote URL is empty');
  if (/[\s\0]/.test(url) && /:\/\//.test(url))
    throw new MemoryError('INVALID_ARGUMENT', 'remote URL contains whitespace');
  const problem = credentialInUrl(url);
  if (problem) {
    throw new MemoryError('INVALID_ARGUMENT', `refusing a remote URL with ${problem}: ${TOKEN_ADVICE}`, {
      data: { url: redactText(url) },
    });
  }
  if (SCHEME_URL.test(url) || SCP_LIKE.test(url)) return url;
  return isAbsolute(url) ? url : resolve(baseDir, url);
}

const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;
/**
 * git's scp-like address, `[user@]host:path`: a colon before any slash. A host or user starting with `-` is
 * not one (ssh would read it as an option; git refuses it too), nor one holding whitespace, nor a remote
 * helper's `transport::address` (git would run `git-remote-<transport>`).
 */
const SCP_LIKE = /^(?:[\w.+%~][^\s/@:]*@)?(?:\[[0-9A-Fa-f:.%\w]+\]|[\w][\w.-]*):[^\s:]/;

/** Why a local path is not a repository git could fetch from, or undefined when it is one. */
function localRepoProblem(path: string): string | undefined {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return `${path} does not exist`;
  }
  if (!isDir) return `${path} is not a directory`;
  // A work tree holds .git; a bare repository holds HEAD (and objects/, refs/).
  if (existsSync(join(path, '.git')) || (existsSync(join(path, 'HEAD')) && existsSync(join(path, 'objects'))))
    return undefined;
  return `${path} is not a git repository`;
}

/**
 * Why a normalised remote (normalizeRemoteUrl) is not one git can reach, or undefined: a URL must name a
 * host (`file://` an existing repository), an scp-like address is taken as given, and anything else is a
 * local path that must be an existing git repository — so a typo is refused now, not at the next sync.
 * @example remoteProblem('/tmp/no-such-dir') // '/tmp/no-such-dir does not exist'
 */
export function remoteProblem(url: string): string | undefined {
  if (/^file:/i.test(url)) {
    try {
      return localRepoProblem(fileURLToPath(url));
    } catch {
      return 'it is not a file:// URL of a local path';
    }
  }
  if (SCHEME_URL.test(url)) return /^[a-z][a-z0-9+.-]*:\/\/[\w[]/i.test(url) ? undefined : 'it names no host';
  if (SCP_LIKE.test(url)) return undefined;
  return localRepoProblem(url);
}

const TOKEN_ADVICE =
  'git would store it in .git/config and show it on command lines; put the token in GITMEM_GIT_TOKEN or $GITMEM_HOME/credentials and use the URL without it';

/**
 * What credential a remote URL carries, named without its value, or undefined: a password or token as
 * user info (`https://me:tok@h/…`, `https://<long token>@h/…`), or a credential-looking query/fragment
 * parameter (`?access_token=…`, `&private_token=…`, `sig=…`).
 * @example credentialInUrl('https://h/x.git?access_token=t') === 'a credential in its query string (access_token)'
 */
export function credentialInUrl(url: string): string | undefined {
  const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/@?#]*)@/i.exec(url)?.[1];
  if (userInfo !== undefined && (userInfo.includes(':') || userInfo.length >= 12))
    return 'embedded credentials (user info)';
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return undefined;
  const names = secretParamNames(url);
  return names.length > 0 ? `a credential in its query string (${[...new Set(names)].join(', ')})` : undefined;
}

/**
 * Refuses to hand git a configured URL that carries a credential (set behind gitmem's back): git would
 * pass it on the command line of its HTTP helper.
 * @example assertNoCredentialInUrl('https://h/x.git') // ok
 */
export function assertNoCredentialInUrl(url: string, what = 'the remote URL'): void {
  const problem = credentialInUrl(url);
  if (problem) {
    throw new MemoryError('INVALID_ARGUMENT', `${what} carries ${problem}; ${TOKEN_ADVICE} (gitmem remote set <url>)`, {
      data: { url: redactText(url) },
    });
  }
}

/**
 * The raw origin URL from the repo config, or null. Reads `.git/config` directly when it plainly holds
 * the answer (this runs after every agent turn); asks git whenever the file uses includes or is malformed.
 * @example await getOriginUrl(git, dir) // 'https://github.com/me/mem.git'
 */
export async function getOriginUrl(git: GitRunner, memoryDir: string): Promise<string | null> {
  const quick = readOriginFromConfigFile(memoryDir);
  if (quick !== undefined) return quick;
  const r = await git.run(['config', '--get', 'remote.origin.url'], { cwd: memoryDir, okExitCodes: [1] });
  const url = r.stdout.trim();
  return r.exitCode === 0 && url !== '' ? url : null;
}

/**
 * `remote.origin.url` from the repo's own config file: the URL, null when certainly absent, undefined
 * when unsure (includes, a malformed file, several values, unreadable file). Parsed by git/config-text.ts.
 * @example readOriginFromConfigFile('/mem') // 'git@github.com:me/mem.git'
 */
export function readOriginFromConfigFile(memoryDir: string): string | null | undefined {
  const text = readGitConfigText(gitDirOf(memoryDir) ?? join(memoryDir, '.git'));
  if (text === undefined) return undefined;
  const config = parseGitConfig(text);
  if (config.includes || config.malformed) return undefined;
  const urls = configValues(config, 'remote', 'url', 'origin');
  if (urls.length > 1) return undefined;
  return urls[0] ? urls[0] : null;
}

/**
 * Points `origin` at `url` (adding it when missing); INVALID_ARGUMENT for what is no remote (remoteProblem).
 * Returns the stored URL.
 * @example await setRemote({ git, memoryDir, url: 'https://github.com/me/mem.git' })
 */
export async function setRemote(input: {
  git: GitRunner;
  memoryDir: string;
  url: string;
  baseDir?: string;
}): Promise<RemoteInfo> {
  const url = normalizeRemoteUrl(input.url, input.baseDir ?? process.cwd());
  const problem = remoteProblem(url);
  if (problem) {
    const shown = JSON.stringify(redactText(input.url.trim()).slice(0, 200));
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${shown} is not a git remote: ${problem} (give a URL such as https://host/me/memory.git, an SSH address such as git@host:me/memory.git, or the path of a git repository)`,
      {
        data: { field: 'url', url: redactText(url) },
      },
    );
  }
  const existing = await getOriginUrl(input.git, input.memoryDir);
  const args = existing === null ? ['remote', 'add', 'origin', url] : ['remote', 'set-url', 'origin', url];
  await input.git.run(args, { cwd: input.memoryDir });
  return showRemote(input);
}

/**
 * Describes `origin` without touching the network.
 * @example (await showRemote({ git, memoryDir })).url
 */
export async function showRemote(input: { git: GitRunner; memoryDir: string }): Promise<RemoteInfo> {
  const url = await getOriginUrl(input.git, input.memoryDir);
  const state = await readRepoState(input.git, input.memoryDir);
  if (!state) throw new MemoryError('NOT_A_GIT_REPO', `${input.memoryDir} is not a git repository`);
  return {
    name: 'origin',
    url: url === null ? null : redactText(url),
    upstream: state.upstream,
    ahead: state.ahead,
    behind: state.behind,
  };
}

/**
 * How main's upstream (its remote-tracking ref) moved lately, newest first, as its reflog recorded it: the
 * fetches and pushes of this machine. None without an upstream or a reflog; nothing touches the network.
 * @example await upstreamMoves({ git, memoryDir }) // [{ date: '2026-12-01 12:00:00 +0100', what: 'update by push' }]
 */
export async function upstreamMoves(input: { git: GitRunner; memoryDir: string; limit?: number }): Promise<RefMove[]> {
  const state = await readRepoState(input.git, input.memoryDir);
  if (!state?.upstream) return [];
  return input.git.exec(refMovesOp(`refs/remotes/${state.upstream}`, input.limit ?? 10), { cwd: input.memoryDir });
}

/**
 * Removes `origin` (and its remote-tracking refs). Returns the URL it had, or null when none was set.
 * @example await removeRemote({ git, memoryDir })
 */
export async function removeRemote(input: { git: GitRunner; memoryDir: string }): Promise<{ removed: string | null }> {
  const existing = await getOriginUrl(input.git, input.memoryDir);
  if (existing === null) return { removed: null };
  await input.git.run(['remote', 'remove', 'origin'], { cwd: input.memoryDir });
  return { removed: redactText(existing) };
}
