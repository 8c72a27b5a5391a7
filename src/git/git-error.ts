/**
 * The runner's typed error: one GitCommandError per failed git invocation, classified once, every field
 * redacted (message, argv, stdout, stderr, stack), with a one-line message.
 */
import { existsSync } from 'node:fs';
import { MemoryError, type MemoryErrorCode } from '../errors.js';
import { classifyGitFailure, type GitFailureKind } from './classify.js';
import { explainFailure, type AuthProblem, type FailureContext } from './auth-failure.js';
import type { RedirectVerdict } from './http-auth.js';
import { redactArgv, redactText } from './redact.js';
import type { ProcessResult } from '../process/run.js';

/** Error from a git invocation; every field is already redacted. */
export class GitCommandError extends MemoryError {
  readonly argv: string[];
  /** The git command without `-c` pairs, e.g. `push origin main` (redacted). */
  readonly command: string;
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly kind: GitFailureKind;

  constructor(
    code: MemoryErrorCode,
    message: string,
    fields: {
      argv: string[];
      command?: string;
      stdout: string;
      stderr: string;
      exitCode: number | null;
      kind: GitFailureKind;
      /** Where a refused redirect pointed (origins only, redacted). */
      redirect?: { from: string; to: string };
      /** What an auth or host-key failure was (see auth-failure.ts). */
      problem?: AuthProblem;
    },
  ) {
    const redirect = fields.redirect ? { redirect: fields.redirect } : {};
    const problem = fields.problem ? { problem: fields.problem } : {};
    super(code, message, {
      data: { argv: fields.argv, exitCode: fields.exitCode, kind: fields.kind, ...redirect, ...problem },
    });
    this.name = 'GitCommandError';
    this.argv = fields.argv;
    this.command = fields.command ?? fields.argv.join(' ');
    this.stdout = fields.stdout;
    this.stderr = fields.stderr;
    this.exitCode = fields.exitCode;
    this.kind = fields.kind;
  }
}

/** What the runner knows beyond git's output: a refused redirect, and what was sent and answered. */
export interface FailureDetails {
  redirect?: RedirectVerdict | undefined;
  failure?: FailureContext;
}

const KIND_CODES: Partial<Record<GitFailureKind, MemoryErrorCode>> = {
  redirect: 'GIT_REDIRECT',
  auth: 'GIT_AUTH',
  host_key: 'GIT_AUTH',
  dns: 'GIT_DNS',
  locked: 'GIT_LOCKED',
  transient: 'GIT_TRANSIENT',
};

/**
 * Builds the typed, redacted error of a failed run (a refused redirect, an auth, host-key or DNS failure
 * get their own one-line explanation).
 */
export function toGitError(
  argv: string[],
  r: ProcessResult,
  secrets: string[],
  cwd: string,
  details: FailureDetails = {},
): GitCommandError {
  const { redirect } = details;
  const cleanArgv = redactArgv(argv, secrets);
  const stderr = redactText(r.stderr, secrets);
  const stdout = redactText(r.stdout, secrets);
  const command = cleanArgv.filter((a, i) => !(a === '-c' || cleanArgv[i - 1] === '-c')).join(' ');
  const detail = stderr.trim() || stdout.trim() || (r.spawnError ? r.spawnError.message : '');
  const spawnText = r.spawnError ? `${r.spawnError.message}${existsSync(cwd) ? '' : ' (cwd ENOENT)'}` : '';
  const refused = redirect && !r.timedOut && !r.aborted ? redirectRefusal(command, redirect) : undefined;
  const kind = r.timedOut
    ? 'transient'
    : refused
      ? 'redirect'
      : classifyGitFailure(`${stderr}\n${stdout}\n${spawnText}`);
  const explained =
    details.failure && !refused ? explainFailure(kind, `${stderr}\n${stdout}`, details.failure) : undefined;
  let code: MemoryErrorCode = KIND_CODES[kind] ?? 'GIT_FAILED';
  let message =
    refused?.message ??
    (explained
      ? `git ${command}: ${explained.message}`
      : `git ${command} failed (exit ${r.exitCode ?? 'none'}): ${firstLines(detail)}`);
  if (r.aborted) [code, message] = ['ABORTED', `git ${command} was aborted`];
  else if (r.timedOut) [code, message] = ['GIT_TIMEOUT', `git ${command} timed out`];
  const error = new GitCommandError(code, redactText(message, secrets), {
    argv: cleanArgv,
    command: `git ${command}`,
    stdout,
    stderr,
    exitCode: r.exitCode,
    kind,
    ...(refused ? { redirect: { from: redactText(refused.from, secrets), to: redactText(refused.to, secrets) } } : {}),
    ...(explained?.problem ? { problem: explained.problem } : {}),
  });
  error.stack = redactText(error.stack ?? '', secrets);
  return error;
}

/** The one-line refusal of a redirect that would carry credentials elsewhere. */
function redirectRefusal(command: string, v: RedirectVerdict): { message: string; from: string; to: string } {
  if (v.follow) {
    const message = `git ${command}: the remote kept redirecting (last ${v.fromBase} → ${v.toBase}); update the remote URL to where the repository is now`;
    return { message, from: v.fromBase, to: v.toBase };
  }
  if (v.fromOrigin === v.toOrigin) {
    const message = `git ${command}: the remote at ${v.fromOrigin} answered with a redirect git cannot follow here; update the remote URL to where the repository is now`;
    return { message, from: v.fromOrigin, to: v.toOrigin };
  }
  const where = v.toBase ? ` (\`gitmem remote set ${v.toBase}\`)` : '';
  const message =
    `git ${command}: the remote at ${v.fromOrigin} redirected to ${v.toOrigin}; credentials are sent to one origin only, ` +
    `so the redirect was not followed. If the new location is right, update the remote URL${where}`;
  return { message, from: v.fromOrigin, to: v.toOrigin };
}

function firstLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.slice(0, 4).join(' | ') || 'no output';
}
