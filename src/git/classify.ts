/**
 * Classifies git failures once, so no caller matches messages. Pure.
 */

export type GitFailureKind =
  | 'transient' // retryable network failure: HTTP 5xx/52x, reset, hung up, timed out, refused
  | 'auth' // credentials missing or rejected (never retried)
  | 'non_fast_forward' // push rejected because the remote has (or just got) commits we do not
  | 'conflict' // a merge/rebase stopped on conflicting changes
  | 'unrelated_histories' // local and remote share no commit
  | 'missing_remote_ref' // the remote has no such branch (e.g. an empty repository)
  | 'missing_cwd' // the working directory vanished
  | 'identity' // git knows no committer name/e-mail
  | 'locked' // another local git process holds a lock file (index.lock, config.lock, a ref's .lock); nothing was changed
  | 'dns' // the remote's host name does not resolve (never retried: a typo or an offline resolver does not heal in seconds)
  | 'host_key' // ssh does not know (or no longer recognises) the server's host key (never retried)
  | 'redirect' // an authenticated request was redirected; redirects are off for those (never retried)
  | 'other';

// "HTTP 502", "HTTP 520" (git's "RPC failed; HTTP 520 curl 22 …" form), "returned error: 503".
const TRANSIENT_HTTP = /\bHTTP[/ ]?(?:1\.1 |2 )?5(?:0[0-4]|2[0-4])\b|returned error:\s*5(?:0[0-4]|2[0-4])\b/i;
const RPC_FAILED = /RPC failed/i;
const TRANSIENT_TRANSPORT =
  /remote end hung up unexpectedly|connection reset by peer|operation timed out|timed out|SIGTERM|ETIMEDOUT|ECONNRESET|early EOF|Empty reply from server|Recv failure|unexpected disconnect|Failed to connect to|Connection refused|Couldn't connect to server/i;
// curl's "Could not resolve host: h", ssh's "Could not resolve hostname h: Name or service not known".
// Both only on lines of our own processes: a server's "remote: …" text cannot claim them.
const DNS = /^(?!remote:).*(?:Could not resolve host(?:name)?\b|Could not resolve proxy)/im;
const HOST_KEY =
  /^(?!remote:).*(?:Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No \S+ host key is known for)/im;
const AUTH =
  /could not read Username|could not read Password|Authentication failed|returned error: 40[13]\b|HTTP 40[13]\b|Permission denied \(publickey|invalid credentials|terminal prompts disabled|Invalid username or (?:password|token)/i;
const NON_FAST_FORWARD =
  /\(non-fast-forward\)|\(fetch first\)|updates were rejected|remote contains work that you do not have locally|tip of your current branch is behind|cannot lock ref '[^']+': is at [0-9a-f]+ but expected|incorrect old value provided/i;
const CONFLICT = /^CONFLICT \(|could not apply [0-9a-f]+|Resolve all conflicts manually|Merge conflict in /im;
const UNRELATED = /refusing to merge unrelated histories|no common commits|no merge base/i;
const MISSING_REF =
  /couldn't find remote ref|invalid upstream 'origin\/|unknown revision or path not in the working tree.*origin\//i;
const IDENTITY = /Please tell me who you are|unable to auto-detect email address|empty ident name/i;
// Only a lock git failed to take on this machine: a remote's "remote: error: … .lock" line is not ours to wait for.
const LOCKED =
  /^(?:fatal|error): .*(?:Unable to create '[^']+\.lock': File exists|could not lock config file .+: File exists)/m;
const LOCK_PATH =
  /^(?:fatal|error): .*?(?:Unable to create '([^']+\.lock)': File exists|could not lock config file (.+?): File exists)/m;
// git with `http.followRedirects=false` reports a 3xx as an error status.
const REDIRECT = /The requested URL returned error: 30[0-8]\b/i;
const MISSING_CWD = /Unable to read current working directory: No such file or directory|uv_cwd|cwd.*ENOENT/i;

/**
 * Decides what kind of failure a git error text describes. Order matters: a rejected credential is
 * never "transient", and a rejected push is never retried blindly.
 * @example classifyGitFailure('fatal: unable to access ...: The requested URL returned error: 520') === 'transient'
 */
export function classifyGitFailure(text: string): GitFailureKind {
  if (MISSING_CWD.test(text)) return 'missing_cwd';
  if (HOST_KEY.test(text)) return 'host_key';
  if (DNS.test(text)) return 'dns';
  if (AUTH.test(text)) return 'auth';
  if (REDIRECT.test(text)) return 'redirect';
  if (IDENTITY.test(text)) return 'identity';
  if (NON_FAST_FORWARD.test(text)) return 'non_fast_forward';
  if (LOCKED.test(text)) return 'locked';
  if (CONFLICT.test(text)) return 'conflict';
  if (UNRELATED.test(text)) return 'unrelated_histories';
  if (MISSING_REF.test(text)) return 'missing_remote_ref';
  if (TRANSIENT_HTTP.test(text)) return 'transient';
  if (RPC_FAILED.test(text) && TRANSIENT_TRANSPORT.test(text)) return 'transient';
  if (TRANSIENT_TRANSPORT.test(text)) return 'transient';
  return 'other';
}

/**
 * The lock file a `locked` failure names (as git printed it: absolute, or relative to git's cwd), or
 * undefined. A config lock is reported by the config file's name; its lock is that name plus `.lock`.
 * @example lockPathOf('error: could not lock config file .git/config: File exists') === '.git/config.lock'
 */
export function lockPathOf(text: string): string | undefined {
  const m = LOCK_PATH.exec(text);
  if (!m) return undefined;
  return m[1] ?? (m[2] === undefined ? undefined : `${m[2]}.lock`);
}

/** True for failures worth retrying with backoff. */
export function isRetryableKind(kind: GitFailureKind): boolean {
  return kind === 'transient' || kind === 'missing_cwd';
}
