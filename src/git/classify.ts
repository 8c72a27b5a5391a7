/**
 * Classifies git failures once, so no caller matches messages. Pure.
 */

export type GitFailureKind = 'transient' | 'auth' | 'non_fast_forward' | 'missing_cwd' | 'other';

const TRANSIENT_HTTP = /\b(?:HTTP|error:?)\s*5(?:0[0-4]|2[0-4])\b|returned error:\s*5\d\d\b/i;
const RPC_FAILED = /RPC failed/i;
const TRANSIENT_TRANSPORT =
  /remote end hung up unexpectedly|connection reset by peer|operation timed out|timed out|SIGTERM|ETIMEDOUT|ECONNRESET|early EOF|Empty reply from server|Recv failure|Failed to connect to 127\.0\.0\.1|Could not resolve host|connection refused/i;
const AUTH =
  /could not read Username|could not read Password|Authentication failed|returned error: 40[13]\b|HTTP 40[13]\b|Permission denied \(publickey|invalid credentials|terminal prompts disabled/i;
const NON_FAST_FORWARD =
  /non-fast-forward|fetch first|failed to push some refs|updates were rejected|remote contains work that you do not have locally|tip of your current branch is behind/i;
const MISSING_CWD = /Unable to read current working directory: No such file or directory|uv_cwd|cwd.*ENOENT/i;

/**
 * Decides what kind of failure a git error text describes.
 * @example classifyGitFailure('fatal: unable to access ...: The requested URL returned error: 520') === 'transient'
 */
export function classifyGitFailure(text: string): GitFailureKind {
  if (MISSING_CWD.test(text)) return 'missing_cwd';
  if (AUTH.test(text)) return 'auth';
  if (NON_FAST_FORWARD.test(text)) return 'non_fast_forward';
  if (TRANSIENT_HTTP.test(text)) return 'transient';
  if (RPC_FAILED.test(text) && TRANSIENT_TRANSPORT.test(text)) return 'transient';
  if (TRANSIENT_TRANSPORT.test(text)) return 'transient';
  return 'other';
}
