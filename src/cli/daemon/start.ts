/** Starts a daemon in the background (detached, no terminal, in `/` so it pins no directory). */
import { spawnDetached } from '../../process/detached.js';

/**
 * Spawns `node <entry> daemon run --home <home>` detached; returns at once.
 * @example startDaemon({ entry: '/usr/lib/node_modules/gitmem/dist/bin/gitmem.cjs', home, env: process.env })
 */
export function startDaemon(o: { entry: string; home: string; env: NodeJS.ProcessEnv }): void {
  // The daemon is an optimisation: a failed start only means the next call runs locally too.
  spawnDetached(process.execPath, [o.entry, 'daemon', 'run', '--home', o.home], { cwd: '/', env: o.env });
}
