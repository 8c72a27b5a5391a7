/**
 * How the runner starts one git process. Only src/git/runner.ts calls it; everything else goes through the
 * runner.
 */
import { spawn } from 'node:child_process';

export interface SpawnResult {
  stdoutBuffer: Buffer;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  spawnError?: Error;
}

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  input: string | Buffer | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

const MAX_BUFFER = 64 * 1024 * 1024;
const KILL_GRACE_MS = 2_000;

/** Runs git asynchronously with a timeout and abort that signal its whole process group. */
export function spawnGit(bin: string, argv: string[], o: SpawnOptions): Promise<SpawnResult> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let aborted = false;
    let settled = false;
    // Own process group: git's helpers (git-remote-http, ssh) hold our pipes too, so a timeout or abort
    // must signal the whole group or 'close' would wait for a helper stuck on a silent server.
    const child = spawn(bin, argv, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    const signalGroup = (sig: NodeJS.Signals): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        child.kill(sig);
      }
    };
    const kill = (): void => {
      signalGroup('SIGTERM');
      setTimeout(() => {
        signalGroup('SIGKILL');
        // Helpers that escaped the group may still hold the pipes: answer anyway.
        setTimeout(() => finish(child.exitCode ?? null), 200).unref();
      }, KILL_GRACE_MS).unref();
    };
    const timer = setTimeout(() => ((timedOut = true), kill()), o.timeoutMs);
    const onAbort = (): void => ((aborted = true), kill());
    if (o.signal?.aborted) onAbort();
    else o.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (bucket: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BUFFER) bucket.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    const finish = (exitCode: number | null, spawnError?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      const stdoutBuffer = Buffer.concat(out);
      const base = { stdoutBuffer, stdout: stdoutBuffer.toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
      resolve({ ...base, exitCode, timedOut, aborted, ...(spawnError ? { spawnError } : {}) });
    };
    child.on('error', (e) => finish(null, e));
    child.on('close', (code) => finish(code));
    child.stdin.on('error', () => undefined); // git may exit before reading stdin; that is its answer
    child.stdin.end(o.input ?? '');
  });
}


