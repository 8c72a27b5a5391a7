/**
 * Renders a sandbox policy as a bubblewrap argv (pure). The root is read-only, denied trees are covered by
 * an empty read-only tmpfs, carve-outs are bind-mounted back, every namespace is unshared, user namespaces
 * are disabled inside, and all capabilities are dropped: as root, without `--cap-drop ALL` the process could
 * simply unmount the tmpfs or remount `/` read-write.
 */
import { normalizePolicy, type SandboxPolicy } from './policy.js';
import { planLayers, type SandboxLayer } from './layers.js';

/** Options for {@link renderBwrapArgv}. */
export interface BwrapRenderOptions {
  /** Resolved bwrap binary (default `bwrap`). */
  bwrapPath?: string;
  /**
   * Re-opened read-only roots that do not exist on disk. They become empty read-only directories, so the
   * process cannot create them (e.g. a missing `.git/hooks` inside a writable `.git`).
   */
  absentReadonly?: string[];
  /** Working directory inside the sandbox (default: bwrap keeps the caller's). */
  cwd?: string;
}

function layerArgs(layer: SandboxLayer, absent: Set<string>): string[] {
  const p = layer.path;
  if (layer.kind === 'denied') return ['--tmpfs', p];
  if (layer.kind === 'plain') return layer.writable ? ['--bind', p, p] : ['--ro-bind-try', p, p];
  if (layer.writable) return ['--bind', p, p];
  return absent.has(p) ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', p, p];
}

/**
 * The full argv: `[bwrap, ...flags, '--', ...command]`.
 * @example
 *   renderBwrapArgv(policy, ['git', 'status'], { bwrapPath: '/usr/bin/bwrap' })
 *   // ['/usr/bin/bwrap', '--ro-bind', '/', '/', '--dev', '/dev', ..., '--cap-drop', 'ALL', '--', 'git', 'status']
 */
export function renderBwrapArgv(policy: SandboxPolicy, command: string[], options: BwrapRenderOptions = {}): string[] {
  const p = normalizePolicy(policy);
  const absent = new Set(options.absentReadonly ?? []);
  const argv = [options.bwrapPath ?? 'bwrap', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  // Private /tmp first, so writable roots that live under /tmp are bound back on top of it.
  if (p.privateTmp === true) argv.push('--tmpfs', '/tmp');
  for (const layer of planLayers(p)) argv.push(...layerArgs(layer, absent));
  // Seal the denied tmpfs last: bwrap has already created the carve-outs' mount points inside it.
  for (const denied of p.deniedRoots) argv.push('--remount-ro', denied);
  argv.push('--unshare-all', '--unshare-user', '--disable-userns');
  if (p.allowNetwork) argv.push('--share-net');
  argv.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (options.cwd !== undefined) argv.push('--chdir', options.cwd);
  argv.push('--', ...command);
  return argv;
}
