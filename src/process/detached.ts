/**
 * The one way gitmem starts a child that outlives the call that started it (the post-commit mirror push,
 * git's `gc --auto`, the CLI daemon, a harness hook's reflection job, the palace's browser opener): its own
 * session, unwaited (it never keeps this process alive), stdio closed or appended to a log, and a failed
 * start reported to the caller's sink rather than thrown, since nothing waits on these jobs.
 */
import { closeSync, openSync } from 'node:fs';
import { spawn, type SpawnOptions } from 'node:child_process';

/** Options of {@link spawnDetached}. */
export interface DetachedOptions {
  /** Default: this process's. */
  cwd?: string | undefined;
  /** The child's whole environment (default: this process's). */
  env?: Record<string, string | undefined> | undefined;
  /** Appends the child's stdout and stderr to this file (created 0600; its directory must exist). Default: both closed. */
  log?: string | undefined;
  /** Told when the child cannot start, whether the spawn throws or fails later (default: nothing is told). */
  onError?: ((err: Error) => void) | undefined;
}

/**
 * Starts `cmd args` detached and unwaited; returns at once and never throws for a failed start (`onError`
 * hears of it). Opening `log` may throw, before anything starts.
 * @example spawnDetached(process.execPath, [entry, 'daemon', 'run'], { cwd: '/', env })
 */
export function spawnDetached(cmd: string, args: readonly string[], o: DetachedOptions = {}): void {
  const fd = o.log === undefined ? undefined : openSync(o.log, 'a', 0o600);
  const onError = o.onError ?? (() => undefined);
  try {
    const options: SpawnOptions = {
      detached: true,
      stdio: fd === undefined ? 'ignore' : ['ignore', fd, fd],
      ...(o.cwd === undefined ? {} : { cwd: o.cwd }),
      ...(o.env === undefined ? {} : { env: o.env }),
    };
    const child = spawn(cmd, args, options);
    child.on('error', onError);
    child.unref();
  } catch (err) {
    onError(err instanceof Error ? err : new Error(String(err)));
  } finally {
    if (fd !== undefined) closeSync(fd); // the child holds its own copy
  }
}
