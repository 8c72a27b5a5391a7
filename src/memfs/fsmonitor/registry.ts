/**
 * One watched clean check per memory directory per process: every handle a long-lived process opens on the
 * same memory (the daemon, the MCP server, a harness reopening) shares one watcher and one baseline.
 */
import { resolve } from 'node:path';
import { WatchedCleanCheck, type WatchedCheckOptions } from './watched-check.js';

const checks = new Map<string, WatchedCleanCheck>();

/**
 * The process's watched clean check for `memoryDir` (options apply when it is first made).
 * @example deps.cleanCheck = watchedCleanCheckFor('/m', { env })
 */
export function watchedCleanCheckFor(memoryDir: string, options: WatchedCheckOptions = {}): WatchedCleanCheck {
  const key = resolve(memoryDir);
  let check = checks.get(key);
  if (check === undefined) {
    check = new WatchedCleanCheck(key, options);
    checks.set(key, check);
  }
  return check;
}

/** Stops every watcher of this process (tests; a process's exit stops them anyway). */
export function closeWatchedCleanChecks(): void {
  for (const c of checks.values()) c.close();
  checks.clear();
}
