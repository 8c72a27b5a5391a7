/**
 * Where gitmem keeps per-user runtime state (the CLI daemon's socket, FIFOs and log). One place, because
 * two sides need it: the daemon's address, and the sandbox, which must hide it from confined writers
 * (a socket stays connectable through a read-only mount, and a daemon would run whatever it is sent).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The runtime directory: `$XDG_RUNTIME_DIR/gitmem-<uid>`, else `<tmp>/gitmem-<uid>`; none without uids (Windows). */
export function gitmemRuntimeDir(env: Record<string, string | undefined>): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const base = env['XDG_RUNTIME_DIR']?.trim() || env['TMPDIR']?.trim() || tmpdir();
  return join(base, `gitmem-${uid}`);
}

/** Every place a runtime directory of this user may be, whatever environment the daemon was started with. */
export function gitmemRuntimeDirCandidates(env: Record<string, string | undefined>): string[] {
  const uid = process.getuid?.();
  if (uid === undefined) return [];
  const bases = [env['XDG_RUNTIME_DIR'], `/run/user/${uid}`, env['TMPDIR'], tmpdir(), '/tmp'];
  return [...new Set(bases.map((b) => b?.trim()).filter((b): b is string => !!b && b.startsWith('/')).map((b) => join(b, `gitmem-${uid}`)))];
}
