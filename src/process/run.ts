/**
 * Runs one child process to completion in its own process group, with a wall-clock limit and an abort
 * signal that stop it politely (SIGTERM) and then for sure (SIGKILL). Shared by the git runner and the
 * sandbox launcher, so both stop a stuck child — and every helper it started — the same way.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Writable } from 'node:stream';

export interface ProcessOptions {
  cwd: string;
  env: Record<string, string>;
  input?: string | Buffer | undefined;
  /**
   * Text for the child's fd 3, delivered once it settles: a child started early waits on it (the sandbox's gate).
   * When it rejects the child is killed, never released.
   */
  heldInput?: Promise<string> | undefined;
  /** Stop the child (as for a timeout) once its output passes `maxBuffer`, instead of dropping the rest. */
  killOnOverflow?: boolean | undefined;
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Between SIGTERM and SIGKILL (default 2000 ms). */
  graceMs?: number | undefined;
  /** Per stream; output beyond it is dropped and `truncated` set (default 64 MiB). */
  maxBuffer?: number | undefined;
}

export interface ProcessResult {
  stdoutBuffer: Buffer;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  /** Set when the process could not be started at all. */
  spawnError?: Error;
}

/** Starts one child process to completion; `runProcess` is the default, shell-launcher.ts the daemon's. */
export type Launcher = (cmd: string, args: readonly string[], o: ProcessOptions) => Promise<ProcessResult>;

/** A stream's output up to a cap; what passes it is dropped and `truncated` set. */
export class Collector {
  private chunks: Buffer[] = [];
  private size = 0;
  truncated = false;
  constructor(private readonly max: number) {}
  add(chunk: Buffer): void {
    const room = this.max - this.size;
    const part = chunk.length > room ? chunk.subarray(0, Math.max(0, room)) : chunk;
    if (part !== chunk) this.truncated = true;
    if (part.length === 0) return;
    this.chunks.push(part);
    this.size += part.length;
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function signalGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    // already gone
  }
}

/** Writes the held input to the child's fd 3 once it settles; kills the child instead when it rejects. */
function releaseHeld(fd3: Writable | null, held: Promise<string>, kill: () => void): void {
  fd3?.on('error', () => undefined);
  held.then(
    (text) => fd3?.end(text),
    () => {
      kill();
      fd3?.destroy();
    },
  );
}

/**
 * Never rejects: a failure to start is reported in `spawnError`, a non-zero exit in `exitCode`.
 * @example const r = await runProcess('git', ['status'], { cwd, env, timeoutMs: 60_000 })
 */
export function runProcess(cmd: string, args: readonly string[], o: ProcessOptions): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const out = new Collector(o.maxBuffer ?? 64 * 1024 * 1024);
    const err = new Collector(o.maxBuffer ?? 64 * 1024 * 1024);
    let [timedOut, aborted, settled] = [false, false, false];
    const timers: NodeJS.Timeout[] = [];
    // Own process group: helpers (git-remote-http, ssh, the sandboxed tree) hold our pipes too.
    const child = spawn(cmd, args, {
      cwd: o.cwd,
      env: o.env,
      stdio: ['pipe', 'pipe', 'pipe', o.heldInput ? 'pipe' : 'ignore'],
      detached: true,
    }) as ChildProcessWithoutNullStreams;
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null, spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      o.signal?.removeEventListener('abort', onAbort);
      const stdoutBuffer = out.buffer();
      const truncated = out.truncated || err.truncated;
      const base = { stdoutBuffer, stdout: stdoutBuffer.toString('utf8'), stderr: err.buffer().toString('utf8') };
      resolve({ ...base, exitCode, signal, timedOut, aborted, truncated, ...(spawnError ? { spawnError } : {}) });
    };
    let stopping = false;
    const stop = (): void => {
      if (stopping) return;
      stopping = true;
      signalGroup(child.pid, 'SIGTERM');
      const kill = setTimeout(() => {
        signalGroup(child.pid, 'SIGKILL');
        // A helper that escaped the group may still hold the pipes: answer anyway.
        timers.push(setTimeout(() => finish(child.exitCode, 'SIGKILL'), 200).unref());
      }, o.graceMs ?? 2000);
      timers.push(kill.unref());
    };
    if (o.timeoutMs !== undefined) timers.push(setTimeout(() => ((timedOut = true), stop()), o.timeoutMs));
    const onAbort = (): void => ((aborted = true), stop());
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    const overflow = (): void => void (o.killOnOverflow && (out.truncated || err.truncated) && stop());
    child.stdout.on('data', (c: Buffer) => (out.add(c), overflow()));
    child.stderr.on('data', (c: Buffer) => (err.add(c), overflow()));
    child.on('error', (e) => finish(null, null, e));
    child.on('close', (code, signal) => finish(code, signal));
    child.stdin.on('error', () => undefined); // the child may exit before reading its input: that is its answer
    child.stdin.end(o.input ?? '');
    if (o.heldInput)
      releaseHeld(child.stdio[3] as Writable | null, o.heldInput, () => signalGroup(child.pid, 'SIGKILL'));
  });
}

/**
 * True when a process with this pid exists (EPERM means it exists but is not ours).
 * @example isProcessAlive(process.pid) === true
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
