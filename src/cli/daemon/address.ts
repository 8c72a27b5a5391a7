/**
 * Where the daemon for a gitmem home listens. Kept tiny: the CLI entry computes this on every call before
 * it decides whether to load the full CLI.
 *
 * One daemon serves one (user, home, build, node, TZ, umask): those shape a command's result beyond the
 * per-request environment and directory, which are sent with each request. The socket lives in a private
 * runtime directory (0700, owned by the user) so no other user can answer in the daemon's place.
 */
import { join } from 'node:path';
import { gitmemRuntimeDir } from '../../process/runtime-dir.js';

declare const __GITMEM_BUILD_ID__: string | undefined;

/** Identifies the code a daemon runs; set by the bundler (scripts/bundle.mjs), `dev` when run from source. */
export const BUILD_ID: string = typeof __GITMEM_BUILD_ID__ === 'string' ? __GITMEM_BUILD_ID__ : 'dev';

export interface DaemonAddress {
  /** The private runtime directory holding sockets and logs. */
  dir: string;
  socket: string;
  log: string;
}

// Unix socket paths are limited to 104 (macOS) / 108 (Linux) bytes.
const MAX_SOCKET_PATH = 100;

function fnv1a(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The daemon address for `home` (absolute), or undefined when this platform or path cannot have one.
 * @example daemonAddress('/home/me/.gitmem', process.env)?.socket // '/run/user/1000/gitmem-1000/1a2b….sock'
 */
export function daemonAddress(home: string, env: NodeJS.ProcessEnv): DaemonAddress | undefined {
  const dir = gitmemRuntimeDir(env);
  if (!dir) return undefined;
  // The resolved path, not its realpath: two spellings of one home at worst share it between two daemons,
  // which is safe (writers serialise on the repo's lease, not on the daemon).
  const identity = [process.getuid?.(), home, BUILD_ID, process.execPath, env['TZ'] ?? '', process.umask()].join('\0');
  const key = fnv1a(identity, 0x811c9dc5) + fnv1a(identity, 0x050c5d1f);
  const socket = join(dir, `${key}.sock`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) return undefined;
  return { dir, socket, log: join(dir, `${key}.log`) };
}

export { ensurePrivateDir, isPrivateDir } from '../../process/runtime-dir.js';
