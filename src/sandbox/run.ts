/**
 * Runs a confined command to completion with a wall-clock limit and an abort signal, stopping it politely
 * first (SIGTERM), then for sure (SIGKILL) after a grace period. bwrap's --die-with-parent takes the
 * sandboxed tree down with it.
 */
import { MemoryError } from '../errors.js';
import type { Launcher } from '../process/run.js';
import type { ConfinedCommand } from './launch.js';

/** Options for {@link runConfined}. */
export interface RunConfinedOptions {
  cwd: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number;
  input?: string;
  /** Delivered on the command's fd 3 once it settles (see ProcessOptions.heldInput): it starts before it may proceed. */
  heldInput?: Promise<string>;
  /**
   * How the command starts, passed in by the composition root (wiring/open.ts `launcherFor`: the handle's, by
   * default the process-wide shell launcher, so a caller's heap does not slow it). Its shells die with this
   * process (a parent-death signal), and bwrap's --die-with-parent takes the sandbox down with them: a killed
   * caller leaves nothing running that nobody enforces a timeout on. Where shells cannot be tied so, the
   * launcher spawns from this process instead.
   */
  launch: Launcher;
  /** Per stream; output beyond it is dropped and `truncated` set (default 16 MiB). */
  maxBuffer?: number;
}

/** How the confined command ended. */
export interface RunConfinedResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
}

/**
 * Spawns `confined.argv` with exactly `confined.env` in its own process group and collects its output.
 * Never throws for a non-zero exit; throws INVALID_ARGUMENT / SANDBOX_UNAVAILABLE when it cannot spawn.
 * @example
 *   const r = await runConfined(confineCommand({...}), { cwd: worktreeDir, timeoutMs: 600_000, signal, launch });
 *   if (r.exitCode !== 0) console.error(r.stderr);
 */
export async function runConfined(confined: ConfinedCommand, o: RunConfinedOptions): Promise<RunConfinedResult> {
  const [cmd, ...args] = confined.argv;
  if (cmd === undefined) throw new MemoryError('INVALID_ARGUMENT', 'empty confined argv', { data: {} });
  // Output past the cap stops the command: captured output is bounded on disk as well as in memory.
  const r = await o.launch(cmd, args, {
    ...o,
    env: confined.env,
    maxBuffer: o.maxBuffer ?? 16 * 1024 * 1024,
    killOnOverflow: true,
  });
  if (r.spawnError) {
    const code = confined.backend === 'none' ? 'INVALID_ARGUMENT' : 'SANDBOX_UNAVAILABLE';
    throw new MemoryError(code, `could not start ${cmd}: ${r.spawnError.message}`, {
      cause: r.spawnError,
      data: { argv0: cmd },
    });
  }
  const { exitCode, signal, stdout, stderr, timedOut, aborted, truncated } = r;
  return { exitCode, signal, stdout, stderr, timedOut, aborted, truncated };
}
