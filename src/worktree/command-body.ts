/**
 * A worker body that is any shell command, run confined by the sandbox in the worker's private worktree
 * (cwd = worktree, MEMORY_DIR = worktree, git objects going to its private object directory). This is what
 * `gitmem worker run --command` uses; the LLM sub-agent of the reflection issue plugs in as another body.
 */
import { mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import { checkConfinable, confineCommand } from '../sandbox/launch.js';
import type { SandboxPolicy } from '../sandbox/policy.js';
import { buildMemoryWriterPolicy } from '../sandbox/writer-policy.js';
import { runConfined, type RunConfinedResult } from '../sandbox/run.js';
import type { Launcher } from '../process/run.js';
import { HOOK_SOCKET_ENV, reserveHookChannel, type ReservedHookChannel } from '../hooks/serve-hook-validation.js';
import { withGitConfig } from '../git/config-env.js';
import { harnessWorktreeEnv, worktreeGitDirs, type WorktreeGitDirs } from './git-env.js';
import { pinCommonGitDir } from './pin-common.js';
import { runMemoryWorker } from './worker.js';
import type {
  EarlyStartingBody,
  MemoryWorkerBody,
  MemoryWorkerContext,
  MemoryWorkerDeps,
  MemoryWorkerOutcome,
  MemoryWorkerType,
} from './worker-types.js';

export interface CommandBodyOptions {
  /** Shell text, run as `sh -c <command>`. */
  command: string;
  gitmemHome: string;
  agentId: string;
  /** The caller's environment (allow-listed into the sandbox; GITMEM_FS_SANDBOX / GITMEM_SANDBOX read here). */
  env: Record<string, string | undefined>;
  /** Starts the sandbox and the hook channel's git (the handle's launcher, wired by the composition root). */
  launch: Launcher;
  /** gitmem state dirs the command may write. */
  stateDirs?: string[];
  timeoutMs?: number;
  onWarning?: (message: string) => void;
  /** Receives the command's captured output when it ends. */
  onOutput?: (result: RunConfinedResult) => void;
  /** Extra read-only paths the command may see (besides GITMEM_SANDBOX_READ in `env`). */
  readPaths?: string[];
  /** Wraps the writer's reserved hook channel (tests: a channel whose start is slow). */
  wrapHookChannel?: (channel: ReservedHookChannel) => ReservedHookChannel;
  /** When given, the hook channel's teardown is pushed here instead of awaited (the caller awaits it). */
  closing?: Promise<unknown>[];
}

/**
 * The policy a command body runs under: the gitmem home hidden but for its own memory. An update worker
 * sees its own worktree and private git dir (writable) and the common `.git` (read-only), nothing else of
 * the repository (pin-common.ts); a repair worker gets its checkout writable instead.
 * @example commandBodyPolicy({ gitmemHome, agentId: 'a1', memoryDir, worktreeDir, type: 'update' })
 */
export function commandBodyPolicy(o: {
  gitmemHome: string;
  agentId: string;
  memoryDir: string;
  worktreeDir?: string;
  type: MemoryWorkerType;
  stateDirs?: string[];
  /** Ignored (the worker commits on a detached HEAD and needs no ref); kept so older callers still type-check. */
  branchName?: string;
}): SandboxPolicy {
  const memoryDir = resolve(o.memoryDir);
  const worktreesDir = join(dirname(memoryDir), 'memory-worktrees');
  const policy = buildMemoryWriterPolicy({
    gitmemHome: resolve(o.gitmemHome),
    agentId: o.agentId,
    memoryDir,
    worktreesDir,
    stateDirs: o.stateDirs,
    ...(o.type === 'update' && o.worktreeDir ? { worktreeDir: o.worktreeDir } : {}),
  });
  if (o.type === 'update') {
    return pinCommonGitDir(policy, {
      memoryDir,
      worktreesDir,
      ...(o.worktreeDir ? { worktreeDir: o.worktreeDir } : {}),
    });
  }
  return {
    ...policy,
    reopenedRoots: policy.reopenedRoots.map((r) => (r.path === memoryDir ? { ...r, writable: true } : r)),
  };
}

/** The command confined: the gate first, the writer's git settings and (when there is one) its hook channel inside. */
function confineFor(
  ctx: MemoryWorkerContext,
  o: CommandBodyOptions,
  policy: SandboxPolicy,
  hook: ReservedHookChannel | undefined,
) {
  return confineCommand({
    command: ['sh', '-c', GATE, 'gitmem-gate', o.command],
    policy,
    env: o.env,
    cwd: ctx.worktreeDir,
    onWarning: o.onWarning,
    readPaths: o.readPaths,
    // The channel is made in the host's /tmp; shown at a place of its own, the writer's private /tmp stays empty.
    ...(hook ? { movedPaths: [{ path: hook.dir, inside: HOOK_CHANNEL_INSIDE }] } : {}),
    extraEnv: (inside) => ({
      ...(hook ? withGitConfig(ctx.gitEnv, [['core.hooksPath', inside(hook.hooksDir)]]) : ctx.gitEnv),
      ...(hook ? { [HOOK_SOCKET_ENV]: inside(hook.socketPath) } : {}),
      MEMORY_DIR: ctx.worktreeDir,
      GITMEM_MEMORY_DIR: ctx.worktreeDir,
      GITMEM_WORKER_BRANCH: ctx.branch,
      GITMEM_WORKER_BASE: ctx.baseHead,
    }),
  });
}

/** A command that did not exit 0, as the worker's failure (the last lines of its stderr in the message). */
function commandFailure(result: Awaited<ReturnType<typeof runConfined>>): MemoryError {
  const why = result.timedOut
    ? 'timed out'
    : result.aborted
      ? 'was cancelled'
      : result.truncated
        ? 'was stopped: its output passed the 16 MiB cap'
        : `exited ${result.exitCode ?? result.signal}`;
  return new MemoryError(
    'WORKER_FAILED',
    `worker command ${why}${result.stderr.trim() ? `: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`,
    {
      data: { exitCode: result.exitCode, signal: result.signal, stderr: result.stderr.slice(-4000) },
    },
  );
}

/**
 * Builds the body: confine `sh -c <command>`, run it in the worktree, fail (WORKER_FAILED) on a non-zero exit.
 * @example await runMemoryWorker({ memoryDir }, createCommandBody({ command: './tidy.sh', gitmemHome, agentId, env, launch }), { git })
 */
export function createCommandBody(o: CommandBodyOptions): MemoryWorkerBody & EarlyStartingBody {
  const body = async (ctx: MemoryWorkerContext): Promise<void> => {
    const policy = commandBodyPolicy({
      ...o,
      memoryDir: ctx.task.memoryDir,
      worktreeDir: ctx.worktreeDir,
      type: ctx.type,
    });
    // The writer's pre-commit hook is answered from here, for this worktree only (no Node start inside).
    const dirs =
      ctx.type === 'update'
        ? worktreeGitDirs({ parentMemoryDir: ctx.task.memoryDir, worktreeDir: ctx.worktreeDir })
        : undefined;
    const reserved = dirs ? writerHookChannel(ctx, dirs, o) : undefined;
    const hook = reserved && o.wrapHookChannel ? o.wrapHookChannel(reserved) : reserved;
    try {
      const confined = confineFor(ctx, o, policy, hook);
      // The sandbox starts now; the channel while it does (off the path to the spawn); the command only once
      // the worktree is checked out and the channel's hooks are in place (the gate reads "go"). Hooks that
      // cannot be linked never release the command: its git config names that directory. A channel that
      // does not listen only means the writer's hook starts Node.
      const listening = afterThisTurn(() => hook?.start());
      const go = Promise.all([ctx.checkedOut, listening]).then(() => `${GATE_LINE}\n`);
      go.catch(() => undefined); // the launcher handles it once the sandbox runs; one that never starts must not leave it unhandled
      const result = await runConfined(confined, {
        cwd: ctx.worktreeDir,
        signal: ctx.signal,
        heldInput: go,
        launch: o.launch,
        ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
      });
      await ctx.checkedOut; // a failed checkout is the worker's failure, whatever the gate did
      await listening.catch((err: unknown) => {
        throw new MemoryError('WORKER_FAILED', `the writer's hooks could not be linked: ${(err as Error).message}`, {
          cause: err,
          data: {},
        });
      });
      o.onOutput?.(result);
      if (result.exitCode !== 0) throw commandFailure(result);
    } finally {
      // The channel's teardown need not hold up the merge when the caller collects it (runWorkerCommand does).
      const closing = hook?.close() ?? Promise.resolve();
      if (o.closing) o.closing.push(closing.catch(() => undefined));
      else await closing;
    }
  };
  return Object.assign(body, { startsBeforeCheckout: true });
}

/**
 * Where a writer sees its hook channel (bwrap): a place of its own outside every root, not the host's /tmp
 * path the channel was made at, which would show in the writer's private /tmp.
 */
const HOOK_CHANNEL_INSIDE = '/run/gitmem-hook';

/**
 * Runs inside the sandbox before the command: reads one line on fd 3 (then closes it) and runs the command
 * (`$1`) only when it is the release line, in the same shell (no second shell start), with no positional
 * parameters and no variable of its own left, as `sh -c <command>` would. The line is a shell no-op, so a
 * launcher shell that reads it after a sandbox that never started just skips it.
 */
const GATE_LINE = ': gitmem-go';
const GATE = `IFS= read -r gitmem_go <&3; exec 3<&-; [ "$gitmem_go" = '${GATE_LINE}' ] || exit 125; eval "unset gitmem_go; shift; $1"`;

/**
 * The hook channel of an update worker, reserved (its directory made, nothing served yet), or undefined when
 * none can be made (the writer's hook then starts Node).
 */
function writerHookChannel(
  ctx: MemoryWorkerContext,
  dirs: WorktreeGitDirs,
  o: Pick<CommandBodyOptions, 'env' | 'gitmemHome' | 'launch'>,
): ReservedHookChannel | undefined {
  try {
    return reserveHookChannel({
      worktree: ctx.worktreeDir,
      gitEnv: harnessWorktreeEnv(dirs),
      env: o.env,
      home: o.gitmemHome,
      launch: o.launch,
    });
  } catch {
    return undefined;
  }
}

/** Runs `f` on the next turn of the event loop, once what the current one started (a spawn) is under way. */
function afterThisTurn<T>(f: () => T | Promise<T>): Promise<T> {
  const p = new Promise<void>((resolve) => setImmediate(resolve)).then(f);
  p.catch(() => undefined); // awaited by the caller; a rejection must not go unhandled meanwhile
  return p;
}

export interface RunWorkerCommandOptions extends Omit<CommandBodyOptions, 'agentId'> {
  memoryDir: string;
  /** Default: the `<id>` of `<home>/agents/<id>/memory`. */
  agentId?: string;
  git: GitRunner;
  type?: MemoryWorkerType;
  description?: string;
  paths?: readonly string[];
  signal?: AbortSignal;
  /** Brings the checkout up to date with its remote before the merge (see MemoryWorkerDeps). */
  refreshParent?: MemoryWorkerDeps['refreshParent'];
}

/**
 * Runs a shell command as a confined memory worker and returns the outcome. Refuses up front (before any
 * worktree exists) when confinement is impossible: SANDBOX_UNAVAILABLE, SANDBOX_NESTED, MEMORY_DIR_MISSING.
 * @example await runWorkerCommand({ memoryDir, gitmemHome, command: 'echo hi >> system/x.md && git commit -qam x', env, git, launch })
 */
export async function runWorkerCommand(o: RunWorkerCommandOptions): Promise<MemoryWorkerOutcome> {
  const memoryDir = resolve(o.memoryDir);
  const agentId = o.agentId ?? basename(dirname(memoryDir));
  const type = o.type ?? 'update';
  mkdirSync(join(dirname(memoryDir), 'memory-worktrees'), { recursive: true });
  const policy = commandBodyPolicy({
    gitmemHome: o.gitmemHome,
    agentId,
    memoryDir,
    type,
    stateDirs: o.stateDirs,
  });
  checkConfinable({ policy, env: o.env, readPaths: o.readPaths }); // fail-closed, before any worktree exists
  const closing: Promise<unknown>[] = [];
  const body = createCommandBody({ ...o, agentId, closing });
  const outcome = runMemoryWorker(
    {
      memoryDir,
      type,
      description: o.description,
      paths: o.paths,
      signal: o.signal,
    },
    body,
    { git: o.git, home: o.gitmemHome, refreshParent: o.refreshParent },
  );
  return outcome.finally(() => Promise.all(closing));
}
