/**
 * Where gitmem keeps per-user runtime state (the CLI daemon's socket, tickets and log). One derivation,
 * used by both sides that need it: the daemon's address, and the sandbox, which hides every place a daemon
 * may have put it (a socket stays connectable through a read-only mount, and a daemon runs whatever it is
 * sent, unconfined).
 */
import { lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from './run.js';

type Env = Record<string, string | undefined>;

/** The variables {@link gitmemRuntimeDir} reads (besides the system temp dir's, which come from the process). */
export const RUNTIME_DIR_VARIABLES = ['XDG_RUNTIME_DIR', 'TMPDIR'] as const;

/**
 * The runtime directory for `env`: `$XDG_RUNTIME_DIR/gitmem-<uid>`, else `$TMPDIR/gitmem-<uid>`, else the
 * system temp dir's; none without uids (Windows) or without an absolute base.
 * @example gitmemRuntimeDir({ XDG_RUNTIME_DIR: '/run/user/1000' }) // '/run/user/1000/gitmem-1000'
 */
export function gitmemRuntimeDir(env: Env): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const base = env['XDG_RUNTIME_DIR']?.trim() || env['TMPDIR']?.trim() || tmpdir();
  return base.startsWith('/') ? join(base, `gitmem-${uid}`) : undefined;
}

/**
 * Every place a runtime directory of this user may be: {@link gitmemRuntimeDir} of `env` and of the
 * environments a daemon is commonly started with (no XDG_RUNTIME_DIR, no TMPDIR, the systemd and temp
 * defaults). A daemon started with any other base is out of a sandbox's sight anyway: reads are an
 * allow-list, so only these need hiding inside a path an operator exposes.
 * @example gitmemRuntimeDirCandidates({}) // ['/tmp/gitmem-1000', '/run/user/1000/gitmem-1000', '/var/tmp/gitmem-1000', …]
 */
export function gitmemRuntimeDirCandidates(env: Env): string[] {
  const uid = process.getuid?.();
  if (uid === undefined) return [];
  const variants: Env[] = [
    env,
    { ...env, XDG_RUNTIME_DIR: undefined },
    {},
    { XDG_RUNTIME_DIR: `/run/user/${uid}` },
    { TMPDIR: '/tmp' },
    { TMPDIR: '/var/tmp' },
    { TMPDIR: '/dev/shm' },
  ];
  return [...new Set(variants.map(gitmemRuntimeDir).filter((d): d is string => d !== undefined))];
}

/**
 * Whether `socket` still names the socket there now (by inode): a server that listened on it answers through
 * that path only while no other process has removed and replaced it.
 * @example const ours = socketOwnership(path); …; if (!ours()) server.unref()
 */
export function socketOwnership(socket: string): () => boolean {
  const ino = statSync(socket).ino;
  return () => {
    try {
      return statSync(socket).ino === ino;
    } catch {
      return false;
    }
  };
}

/** True when `dir` is a real directory owned by this user and closed to everyone else. */
export function isPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** Creates the runtime directory (0700) if needed; false when it exists but is not private. */
export function ensurePrivateDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // fall through: the check below decides
  }
  return isPrivateDir(dir);
}

/**
 * The prefix of a scratch directory of `kind` this process makes (a launcher's `launch`, a hook channel's
 * `gitmem-hook`): its pid and pid namespace, so a sweep from another namespace (a container sharing the
 * directory) never takes a live process's directory for a dead one's.
 * @example scratchPrefix('launch') // 'launch-4026531836-12345-'
 */
export function scratchPrefix(kind: string): string {
  return `${kind}-${pidNamespace() ?? 'x'}-${process.pid}-`;
}

function pidNamespace(): string | undefined {
  try {
    return /^pid:\[(\d+)\]$/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Removes the `kind` scratch directories (see {@link scratchPrefix}) of processes that are gone (killed before
 * they could clean up): only those of this pid namespace, owned by this user, real directories untouched for a
 * minute.
 * @example sweepDeadScratch(gitmemRuntimeDir(process.env)!, 'launch')
 */
export function sweepDeadScratch(parent: string, kind: string, now = Date.now()): void {
  const ns = pidNamespace();
  if (ns === undefined) return;
  try {
    const mine = new RegExp(`^${kind}-${ns}-(\\d+)-`);
    for (const name of readdirSync(parent)) {
      const pid = mine.exec(name)?.[1];
      if (pid === undefined || Number(pid) === process.pid || isProcessAlive(Number(pid))) continue;
      const path = join(parent, name);
      const st = lstatSync(path);
      if (!st.isDirectory() || st.uid !== process.getuid?.() || now - st.mtimeMs < 60_000) continue;
      rmSync(path, { recursive: true, force: true });
    }
  } catch {
    // housekeeping only
  }
}
