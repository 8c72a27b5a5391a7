/**
 * Runs a confined command to completion with a wall-clock limit and an abort signal, stopping it politely
 * first (SIGTERM), then for sure (SIGKILL) after a grace period. bwrap's --die-with-parent takes the
 * sandboxed tree down with it.
 */
import { spawn } from 'node:child_process';
import { MemoryError } from '../errors.js';
import type { ConfinedCommand } from './launch.js';

/** Options for {@link runConfined}. */
export interface RunConfinedOptions {
  cwd: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number;
  input?: string;
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

class Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    const room = this.max - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part !== chunk) this.truncated = true;
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * Spawns `confined.argv` with exactly `confined.env` in its own process group and collects its output.
 * Never throws for a non-zero exit; throws INVALID_ARGUMENT / SANDBOX_UNAVAILABLE when it cannot spawn.
 * @example
 *   const r = await runConfined(confineCommand({...}), { cwd: worktreeDir, timeoutMs: 600_000, signal });
 *   if (r.exitCode !== 0) console.error(r.stderr);
 */
export function runConfined(confined: ConfinedCommand, o: RunConfinedOptions): Promise<RunConfinedResult> {
  const [cmd, ...args] = confined.argv;
  if (cmd === undefined) return Promise.reject(new MemoryError('INVALID_ARGUMENT', 'empty confined argv', { data: {} }));
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: confined.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = new Collector(o.maxBuffer ?? 16 * 1024 * 1024);
    const err = new Collector(o.maxBuffer ?? 16 * 1024 * 1024);
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      signalGroup(child.pid, 'SIGTERM');
      killTimer ??= setTimeout(() => signalGroup(child.pid, 'SIGKILL'), o.graceMs ?? 2000);
    };
    const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), stop()), o.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      if (timer) clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    child.stdout.on('data', (c: Buffer) => out.add(c));
    child.stderr.on('data', (c: Buffer) => err.add(c));
    child.stdin.on('error', () => undefined);
    child.stdin.end(o.input ?? '');
    child.on('error', (e: NodeJS.ErrnoException) => {
      cleanup();
      const code = confined.backend === 'none' ? 'INVALID_ARGUMENT' : 'SANDBOX_UNAVAILABLE';
      reject(new MemoryError(code, `could not start ${cmd}: ${e.message}`, { cause: e, data: { argv0: cmd } }));
    });
    child.on('close', (exitCode, signal) => {
      cleanup();
      const truncated = out.truncated || err.truncated;
      resolvePromise({ exitCode, signal, stdout: out.text(), stderr: err.text(), timedOut, aborted, truncated });
    });
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
