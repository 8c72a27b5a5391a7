/**
 * A lock beside a small file that several processes update (read, change, replace): `<file>.lock`, created
 * exclusively, removed when done; one older than {@link STALE_MS} is a crashed holder's and is taken over.
 * Synchronous, for updates that take microseconds (the reflection counter, a settings file).
 */
import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import { MemoryError } from '../errors.js';

const STALE_MS = 30_000;
const WAIT_MS = 5_000;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function lockAge(lock: string): number {
  try {
    return Date.now() - statSync(lock).mtimeMs;
  } catch {
    return 0; // released meanwhile: try again
  }
}

/**
 * Runs `fn` holding `<path>.lock`; LOCK_TIMEOUT naming `what` when another holder keeps it past 5 s.
 * @example withFileLock(settingsFile, 'the settings file', () => replace(settingsFile))
 */
export function withFileLock<T>(path: string, what: string, fn: () => T): T {
  const lock = `${path}.lock`;
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (lockAge(lock) > STALE_MS) rmSync(lock, { force: true });
      else if (Date.now() > deadline)
        throw new MemoryError('LOCK_TIMEOUT', `${what} ${lock} stayed locked`, { data: { lock } });
      else pause(10);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
