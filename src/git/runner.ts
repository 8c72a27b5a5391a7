/**
 * The one place that spawns git. Everything else describes a git operation (argv + parser) and hands
 * it here, so environment, timeouts, signing, auth, redaction, retry and typed errors are one policy.
 */
import { spawnDetached } from '../process/detached.js';
import { runProcess, type Launcher, type ProcessResult } from '../process/run.js';
import { mkdirSync } from 'node:fs';
import { isRetryableKind } from './classify.js';
import { waitedForLock, type LockWaits } from './lock-wait.js';
import { redactText } from './redact.js';
import {
  authConfigEntries,
  authEnv,
  judgeRedirect,
  stripCurlTrace,
  type GitAuth,
  type RedirectVerdict,
} from './http-auth.js';
import { GitCommandError, toGitError } from './git-error.js';
import type { AuthRefusal, FailureContext } from './auth-failure.js';

export type { GitAuth } from './http-auth.js';
export { GitCommandError } from './git-error.js';

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

/** Bounded exponential backoff: delays base, 2·base, 4·base… capped at maxDelayMs; `attempts` in total. */
export interface GitRetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs?: number;
}

/** Timeouts of the runner's policy. */
const DEFAULT_GIT_TIMEOUT_MS = 60_000;
export const CLONE_GIT_TIMEOUT_MS = 180_000;
/** The retry policy used for network commands. */
export const NETWORK_RETRY: GitRetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8_000 };

export interface GitRunOptions {
  cwd: string;
  input?: string | Buffer;
  timeoutMs?: number;
  signal?: AbortSignal;
  env?: Record<string, string>;
  okExitCodes?: number[];
  /** Sent as environment config, scoped to one origin, with redirects off (see http-auth.ts). */
  auth?: GitAuth;
  /** The remote URL a network command talks to when argv names it only as `origin` (for error messages only). */
  remote?: string;
  /** Extra `-c key=value` pairs placed before the command (never secrets: argv is world-readable). */
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

const NON_INTERACTIVE: Record<string, string> = {
  GIT_TERMINAL_PROMPT: '0',
  GCM_INTERACTIVE: 'never',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GIT_EDITOR: 'true',
  GIT_PAGER: 'cat',
  LC_ALL: 'C',
};

/** Variables git's children never need; the token's own variable stays out of hooks and helpers. */
const DROPPED_ENV = ['GITMEM_GIT_TOKEN'];

/** How many same-origin redirects an authenticated command follows before it gives up. */
const MAX_REDIRECT_HOPS = 3;

/** Builds the full argv: signing off first, then caller config, then the command. Auth never goes here. */
export function buildGitArgv(args: readonly string[], options: Pick<GitRunOptions, 'config'>): string[] {
  const argv = ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false'];
  for (const c of options.config ?? []) argv.push('-c', c);
  argv.push(...args);
  return argv;
}

function timeoutFor(args: readonly string[], options: GitRunOptions, defaultTimeout: number): number {
  return options.timeoutMs ?? (args[0] === 'clone' ? Math.max(defaultTimeout, CLONE_GIT_TIMEOUT_MS) : defaultTimeout);
}

interface SpawnContext {
  gitBinary: string;
  baseEnv: Record<string, string>;
  defaultTimeout: number;
  launch: Launcher | undefined;
}

/** One git process; an authenticated one also reports the redirects its curl trace shows. */
async function spawnOnce(
  ctx: SpawnContext,
  args: string[],
  options: GitRunOptions,
  extra: Array<[string, string]>,
): Promise<ProcessResult & { redirects: RedirectVerdict[]; refusal?: AuthRefusal }> {
  let env = { ...ctx.baseEnv, ...(options.env ?? {}), ...NON_INTERACTIVE };
  for (const k of DROPPED_ENV) delete env[k];
  if (options.auth) env = authEnv(env, authConfigEntries(options.auth, extra));
  const launch = ctx.launch ?? runProcess;
  const result = await launch(ctx.gitBinary, buildGitArgv(args, options), {
    cwd: options.cwd,
    env,
    input: options.input,
    timeoutMs: timeoutFor(args, options, ctx.defaultTimeout),
    signal: options.signal,
  });
  if (!options.auth) return { ...result, redirects: [] };
  const traced = stripCurlTrace(result.stderr);
  const scheme = options.auth.urlPrefix ? new URL(options.auth.urlPrefix).protocol : 'https:';
  const redirects = traced.redirects.map((r) => judgeRedirect(r, scheme));
  return { ...result, stderr: traced.stderr, redirects, ...(traced.refusal ? { refusal: traced.refusal } : {}) };
}

/** One run, following at most a few same-origin redirects of an authenticated command. */
async function runOnce(
  ctx: SpawnContext,
  secrets: readonly string[],
  args: string[],
  options: GitRunOptions,
): Promise<GitResult> {
  const allSecrets = [
    ...secrets,
    ...(options.auth?.secrets ?? []),
    ...(options.auth ? [options.auth.authorization] : []),
  ];
  if (options.ensureCwd) mkdirSync(options.cwd, { recursive: true });
  let [extra, firstBase] = [[] as Array<[string, string]>, undefined as string | undefined];
  for (let hop = 0; ; hop++) {
    const result = await spawnOnce(ctx, args, options, extra);
    const ok = result.exitCode === 0 || (options.okExitCodes ?? []).includes(result.exitCode ?? -1);
    if (ok && !result.timedOut && !result.aborted) {
      const { stdout, stderr, stdoutBuffer } = result;
      return { stdout, stderr, stdoutBuffer, exitCode: result.exitCode ?? 0 };
    }
    const redirect = result.redirects.at(-1);
    if (redirect?.follow && hop < MAX_REDIRECT_HOPS && !result.timedOut && !result.aborted) {
      // Same origin: rewrite the remote's base URL to the new one and ask again, redirects still off.
      firstBase ??= redirect.fromBase;
      extra = [[`url.${redirect.toBase}.insteadOf`, firstBase]];
      continue;
    }
    const sent = options.auth ? /^(\S+)/.exec(options.auth.authorization)?.[1]?.toLowerCase() : undefined;
    const failure: FailureContext = { sent, refusal: result.refusal, remote: options.remote ?? remoteInArgs(args) };
    throw toGitError(buildGitArgv(args, options), result, allSecrets, options.cwd, { redirect, failure });
  }
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
  const ctx: SpawnContext = { gitBinary, baseEnv, defaultTimeout, launch: deps.launch };

  async function run(args: string[], options: GitRunOptions): Promise<GitResult> {
    const attempts = Math.max(1, options.retry?.attempts ?? 1);
    let attempt = 1;
    const lockWaits: LockWaits = { count: 0, startedAt: Date.now(), sameSince: Date.now() };
    for (;;) {
      try {
        return await runOnce(ctx, secrets, args, { ...options, ensureCwd: options.ensureCwd || attempt > 1 });
      } catch (err) {
        if (!(err instanceof GitCommandError)) throw err;
        if (await waitedForLock(err, args, lockWaits, options.cwd, options.signal)) continue; // not one of the caller's attempts
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
      const env: Record<string, string> = { ...baseEnv, ...NON_INTERACTIVE };
      for (const k of DROPPED_ENV) delete env[k];
      spawnDetached(gitBinary, buildGitArgv(args, {}), { cwd: options.cwd, env });
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

/** A URL among a network command's arguments (`clone <url>`, `push <url> …`), for error messages. */
function remoteInArgs(args: readonly string[]): string | undefined {
  return args.find(
    (a, i) => i > 0 && !a.startsWith('-') && (/^[a-z][a-z0-9+.-]*:\/\//i.test(a) || /^[\w.-]+@[\w.-]+:/.test(a)),
  );
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}
