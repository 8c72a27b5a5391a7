/** Starts a daemon in the background (detached, no terminal, in `/` so it pins no directory). */
import { spawn } from 'node:child_process';

/**
 * Spawns `node <entry> daemon run --home <home>` detached; returns at once.
 * @example startDaemon({ entry: '/usr/lib/node_modules/gitmem/dist/bin/gitmem.cjs', home, env: process.env })
 */
export function startDaemon(o: { entry: string; home: string; env: NodeJS.ProcessEnv }): void {
  try {
    const child = spawn(process.execPath, [o.entry, 'daemon', 'run', '--home', o.home], {
      cwd: '/',
      detached: true,
      stdio: 'ignore',
      env: o.env,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the daemon is an optimisation: a failed start only means the next call runs locally too
  }
}
