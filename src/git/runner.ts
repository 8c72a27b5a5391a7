/**
 * The one place that spawns git. Everything else describes a git operation (argv + parser) and hands
 * it here, so environment, timeouts, signing, auth, redaction, retry and typed errors are one policy.
 */
import { spawn } from 'node:child_process';
import type { Launcher } from '../process.js';
import { spawnGit, type SpawnResult } from './spawn.js';
import { existsSync, mkdirSync } from 'node:fs';
import { MemoryError, type MemoryErrorCode } from '../errors.js';
import { classifyGitFailure, isRetryableKind, type GitFailureKind } from './classify.js';
import { redactArgv, redactText } from './redact.js';

/** A git operation as a value: pure argv building and output parsing, testable without git. */
export interface GitOp<T> {
  args: string[];
  input?: string | Buffer;
  /** Exit codes that are not failures for this op (e.g. 1 for `diff --quiet`). */
  okExitCodes?: number[];
  parse: (result: GitResult) => T;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Raw stdout bytes, for byte-exact parsers (e.g. `cat-file --batch`). */
  stdoutBuffer: Buffer;
}

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

/** Bounded exponential backoff: delays base, 2·base, 4·base… capped at maxDelayMs; `attempts` in total. */
export interface GitRetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs?: number;
}

/** Timeouts of the runner's policy (SPEC B6.10). */
export const DEFAULT_GIT_TIMEOUT_MS = 60_000;
export const CLONE_GIT_TIMEOUT_MS = 180_000;
/** The retry policy used for network commands (SPEC B6.17). */
export const NETWORK_RETRY: GitRetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface GitRunOptions {
  cwd: string;
  input?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
  okExitCodes?: number[];
  auth?: GitAuth;
  /** Extra `-c key=value` pairs placed before the command. */
  config?: string[];
  retry?: GitRetryPolicy;
  /** Recreate cwd if it vanished (worktrees cleaned under us). */
  ensureCwd?: boolean;
}

export interface GitRunner {
  run(args: string[], options: GitRunOptions): Promise<GitResult>;
  exec<T>(op: GitOp<T>, options: GitRunOptions): Promise<T>;
  /** Secrets this runner always scrubs (e.g. the configured token). */
  readonly secrets: readonly string[];
  /** Starts git in the background, detached and unwaited (housekeeping such as `gc --auto`). */
  detach(args: string[], options: { cwd: string }): void;
}

export interface GitRunnerDeps {
  gitBinary?: string;
  /** Base environment (the composition root passes an allow-listed copy of process.env). */
  env?: Record<string, string | undefined>;
  defaultTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  secrets?: string[];
  /** Called for each retry with a redacted message (logging is the caller's choice). */
  onRetry?: (message: string) => void;
  /** How git processes start (default: a spawn from this process; the CLI daemon passes a shell launcher). */
  launch?: Launcher;
}

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
    },
  ) {
    super(code, message, { data: { argv: fields.argv, exitCode: fields.exitCode, kind: fields.kind } });
    this.name = 'GitCommandError';
    this.argv = fields.argv;
    this.command = fields.command ?? fields.argv.join(' ');
    this.stdout = fields.stdout;
    this.stderr = fields.stderr;
    this.exitCode = fields.exitCode;
    this.kind = fields.kind;
  }
}

const NON_INTERACTIVE: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GCM_INTERACTIVE: 'never',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GIT_EDITOR: 'true',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
};

/** Builds the full argv: signing off first, then auth, then caller config, then the command. */
export function buildGitArgv(args: readonly string[], options: Pick<GitRunOptions, 'auth' | 'config'>): string[] {
  const argv = ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false'];
  if (options.auth) {
    argv.push('-c', 'credential.helper=', '-c', 'core.askPass=');
    const key = options.auth.urlPrefix ? `http.${options.auth.urlPrefix}.extraHeader` : 'http.extraHeader';
    argv.push('-c', `${key}=Authorization: ${options.auth.authorization}`);
  }
  for (const c of options.config ?? []) argv.push('-c', c);
  argv.push(...args);
  return argv;
}

/**
 * Commands that take their lock before they change anything, so a run that failed on a held lock changed
 * nothing and may simply run again once the other git process (an editor's `git status`, a shell commit,
 * a concurrent gc) lets go.
 */
const LOCK_WAITING = new Set(['update-index', 'update-ref', 'read-tree', 'reset', 'rm', 'add', 'commit', 'symbolic-ref', 'config', 'branch', 'checkout']);
/** About 1.5 s in all: far longer than a status or a commit holds index.lock, short enough to report a stale lock. */
const LOCK_WAITS_MS = [5, 10, 20, 40, 80, 150, 250, 400, 500];

function timeoutFor(args: readonly string[], options: GitRunOptions, defaultTimeout: number): number {
  return options.timeoutMs ?? (args[0] === 'clone' ? Math.max(defaultTimeout, CLONE_GIT_TIMEOUT_MS) : defaultTimeout);
}

/** Waits before lock retry number `waits` when `err` is a held lock worth waiting for; false otherwise. */
async function waitedForLock(err: GitCommandError, args: readonly string[], waits: number, signal?: AbortSignal): Promise<boolean> {
  const delay = LOCK_WAITS_MS[waits];
  if (err.kind !== 'locked' || !LOCK_WAITING.has(args[0] ?? '') || delay === undefined || signal?.aborted) return false;
  // A real timer even when the runner's `sleep` is stubbed: the other process needs wall time to let go.
  await new Promise((r) => setTimeout(r, delay));
  return true;
}

/**
 * Creates the git runner.
 * @example const git = createGitRunner({ env: process.env }); await git.run(['status'], { cwd });
 */
export function createGitRunner(deps: GitRunnerDeps = {}): GitRunner {
  const gitBinary = deps.gitBinary ?? 'git';
  const baseEnv = cleanEnv(deps.env ?? {});
  const defaultTimeout = deps.defaultTimeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const secrets = [...(deps.secrets ?? [])];

  async function runOnce(args: string[], options: GitRunOptions): Promise<GitResult> {
    const argv = buildGitArgv(args, options);
    const allSecrets = [...secrets, ...(options.auth?.secrets ?? [])];
    if (options.ensureCwd) mkdirSync(options.cwd, { recursive: true });
    const env = { ...baseEnv, ...(options.env ?? {}), ...NON_INTERACTIVE };
    const result = await spawnGit(gitBinary, argv, {
      cwd: options.cwd,
      env,
      input: options.input,
      timeoutMs: timeoutFor(args, options, defaultTimeout),
      signal: options.signal,
    }, deps.launch);
    const ok = result.exitCode === 0 || (options.okExitCodes ?? []).includes(result.exitCode ?? -1);
    if (ok && !result.timedOut && !result.aborted) {
      const { stdout, stderr, stdoutBuffer } = result;
      return { stdout, stderr, stdoutBuffer, exitCode: result.exitCode ?? 0 };
    }
    throw toGitError(argv, result, allSecrets, options.cwd);
  }

  async function run(args: string[], options: GitRunOptions): Promise<GitResult> {
    const attempts = Math.max(1, options.retry?.attempts ?? 1);
    let [attempt, lockWaits] = [1, 0];
    for (;;) {
      try {
        return await runOnce(args, { ...options, ensureCwd: options.ensureCwd || attempt > 1 });
      } catch (err) {
        if (!(err instanceof GitCommandError)) throw err;
        if (await waitedForLock(err, args, lockWaits++, options.signal)) continue; // not one of the caller's attempts
        if (!isRetryableKind(err.kind) || attempt >= attempts || options.signal?.aborted) throw err;
        const delay = backoffDelay(options.retry, attempt);
        const line = `git ${args[0] ?? ''} failed (attempt ${attempt}/${attempts}), retrying in ${delay} ms: ${err.message}`;
        deps.onRetry?.(redactText(line, [...secrets, ...(options.auth?.secrets ?? [])]));
        await sleep(delay);
        attempt++;
      }
    }
  }

  return {
    run,
    secrets,
    detach(args: string[], options: { cwd: string }): void {
      const env = { ...baseEnv, ...NON_INTERACTIVE };
      const child = spawn(gitBinary, buildGitArgv(args, {}), { cwd: options.cwd, env, detached: true, stdio: 'ignore' });
      child.on('error', () => undefined);
      child.unref();
    },
    async exec<T>(op: GitOp<T>, options: GitRunOptions): Promise<T> {
      const okExitCodes = [...(op.okExitCodes ?? []), ...(options.okExitCodes ?? [])];
      const input = op.input ?? options.input;
      const result = await run(op.args, { ...options, okExitCodes, ...(input === undefined ? {} : { input }) });
      return op.parse(result);
    },
  };
}

/**
 * Delay before retry number `attempt` (1-based): base·2^(attempt-1), capped.
 * @example backoffDelay({ attempts: 3, baseDelayMs: 500 }, 2) === 1000
 */
export function backoffDelay(policy: GitRetryPolicy | undefined, attempt: number): number {
  const base = policy?.baseDelayMs ?? NETWORK_RETRY.baseDelayMs;
  const cap = policy?.maxDelayMs ?? NETWORK_RETRY.maxDelayMs ?? Number.POSITIVE_INFINITY;
  return Math.min(cap, base * 2 ** (attempt - 1));
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

function toGitError(argv: string[], r: SpawnResult, secrets: string[], cwd: string): GitCommandError {
  const cleanArgv = redactArgv(argv, secrets);
  const stderr = redactText(r.stderr, secrets);
  const stdout = redactText(r.stdout, secrets);
  const command = cleanArgv.filter((a, i) => !(a === '-c' || cleanArgv[i - 1] === '-c')).join(' ');
  const detail = stderr.trim() || stdout.trim() || (r.spawnError ? r.spawnError.message : '');
  const spawnText = r.spawnError ? `${r.spawnError.message}${existsSync(cwd) ? '' : ' (cwd ENOENT)'}` : '';
  const kind = r.timedOut ? 'transient' : classifyGitFailure(`${stderr}\n${stdout}\n${spawnText}`);
  let code: MemoryErrorCode = 'GIT_FAILED';
  let message = `git ${command} failed (exit ${r.exitCode ?? 'none'}): ${firstLines(detail)}`;
  if (r.aborted) [code, message] = ['ABORTED', `git ${command} was aborted`];
  else if (r.timedOut) [code, message] = ['GIT_TIMEOUT', `git ${command} timed out`];
  else if (kind === 'auth') code = 'GIT_AUTH';
  else if (kind === 'locked') code = 'GIT_LOCKED';
  else if (kind === 'transient') code = 'GIT_TRANSIENT';
  const error = new GitCommandError(code, redactText(message, secrets), {
    argv: cleanArgv,
    command: `git ${command}`,
    stdout,
    stderr,
    exitCode: r.exitCode,
    kind,
  });
  error.stack = redactText(error.stack ?? '', secrets);
  return error;
}

function firstLines(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.slice(0, 4).join(' | ') || 'no output';
}
