/**
 * Renders a sandbox policy as a bubblewrap argv (pure). The root is an empty tmpfs, sealed read-only at the
 * end: only the policy's visible roots are bound into it (reads are an allow-list), a fresh /dev and /proc,
 * an empty private /tmp and home, moved roots at their own place (outside that /tmp); denied trees inside
 * visible ones are covered by an empty read-only tmpfs, carve-outs are bound back, every namespace is
 * unshared, user namespaces are disabled inside, and all capabilities are dropped: as root, without
 * `--cap-drop ALL` the process could simply unmount the tmpfs.
 */
import { dirname } from 'node:path';
import { ancestorsOf, hasAncestorIn, normalizePolicy, type SandboxPolicy } from './policy.js';
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
  /** Symbolic links to recreate (e.g. `/bin -> usr/bin`), from prepare.ts. */
  links?: Array<{ path: string; target: string }>;
  /** Denied roots that are files: covered by an empty device instead of a tmpfs. */
  deniedFiles?: string[];
  /** Working directory inside the sandbox (default: bwrap keeps the caller's). */
  cwd?: string;
  /** Keep the host's /dev (with a writable `/`: the agent's shell, whose files may live in /dev/shm) instead of a fresh one. */
  hostDev?: boolean;
}

function layerArgs(layer: SandboxLayer, absent: ReadonlySet<string>, files: ReadonlySet<string>): string[] {
  const p = layer.path;
  if (layer.kind === 'denied') return files.has(p) ? ['--ro-bind', '/dev/null', p] : ['--tmpfs', p];
  if (layer.kind === 'plain') return layer.writable ? ['--bind', p, p] : ['--ro-bind-try', p, p];
  if (layer.writable) return ['--bind', p, p];
  return absent.has(p) ? ['--tmpfs', p, '--remount-ro', p] : ['--ro-bind', p, p];
}

/**
 * The denied roots that hide something: inside a visible root, or holding a carve-out (their tmpfs, sealed
 * read-only, is what the carve-outs are mounted in). Any other is invisible already.
 */
function visibleDenied(p: SandboxPolicy): Set<string> {
  // (normalised paths: "inside a visible root" is an ancestor in that set; "holding a carve-out" is being
  // an ancestor of one)
  const plain = new Set([...p.readonlyRoots, ...p.writableRoots]);
  const holders = new Set(p.reopenedRoots.flatMap((r) => ancestorsOf(r.path)));
  return new Set(p.deniedRoots.filter((d) => hasAncestorIn(d, plain) || holders.has(d)));
}

/** True when, walking up from `path`, a directory of `covers` comes before one of `stops` (`/` is never bound). */
function coveredFirst(path: string, covers: ReadonlySet<string>, stops: ReadonlySet<string>): boolean {
  for (let d = dirname(path); d !== '/' && d !== '.'; d = dirname(d)) {
    if (stops.has(d)) return false;
    if (covers.has(d)) return true;
  }
  return false;
}

/**
 * A plain read-only root inside another one with no writable root between them (`/usr/bin` under `/usr`):
 * bwrap's read-only binds are recursive, so it is already visible and read-only, and each mount costs the
 * launch time.
 */
function coveredReadonly(l: SandboxLayer, readonly: ReadonlySet<string>, writable: ReadonlySet<string>): boolean {
  return l.kind === 'plain' && !l.writable && coveredFirst(l.path, readonly, writable);
}

/**
 * A read-only carve-out inside another read-only one with no other root of any kind between them (a
 * writer's `.git/hooks` and `.git/config` inside its read-only `.git`): the outer bind is recursive, so the
 * inner one shows the same files, read-only, at one mount more.
 */
function coveredReopened(l: SandboxLayer, reopenedRo: ReadonlySet<string>, others: ReadonlySet<string>): boolean {
  return l.kind === 'reopened' && !l.writable && coveredFirst(l.path, reopenedRo, others);
}

/** The layers the argv mounts, in order (`/` is never one): denied roots nothing shows and covered ones left out. */
function renderedLayers(p: SandboxPolicy, denied: ReadonlySet<string>): SandboxLayer[] {
  const readonly = new Set(p.readonlyRoots);
  const writable = new Set(p.writableRoots);
  const reopenedRo = new Set(p.reopenedRoots.filter((r) => !r.writable).map((r) => r.path));
  const others = new Set([
    ...readonly,
    ...writable,
    ...p.deniedRoots,
    ...p.reopenedRoots.filter((r) => r.writable).map((r) => r.path),
  ]);
  const covered = (l: SandboxLayer): boolean =>
    coveredReadonly(l, readonly, writable) || coveredReopened(l, reopenedRo, others);
  return planLayers(p).filter((l) => l.path !== '/' && (l.kind !== 'denied' || denied.has(l.path)) && !covered(l));
}

/**
 * The full argv: `[bwrap, ...flags, '--', ...command]`.
 * @example
 *   renderBwrapArgv(policy, ['git', 'status'], { bwrapPath: '/usr/bin/bwrap' })
 *   // ['/usr/bin/bwrap', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', ..., '--cap-drop', 'ALL', '--', 'git', 'status']
 */
export function renderBwrapArgv(policy: SandboxPolicy, command: string[], options: BwrapRenderOptions = {}): string[] {
  const p = normalizePolicy(policy);
  const absent = new Set(options.absentReadonly ?? []);
  const files = new Set(options.deniedFiles ?? []);
  const denied = visibleDenied(p);
  const layers = renderedLayers(p, denied);
  const argv = [options.bwrapPath ?? 'bwrap'];
  // A writable `/` (tests, or a caller who asks for it) goes under everything else.
  if (p.writableRoots.includes('/')) argv.push('--bind', '/', '/');
  if (options.hostDev !== true) argv.push('--dev', '/dev');
  argv.push('--proc', '/proc');
  // Private /tmp and home first, so writable roots that live under them are bound back on top.
  if (p.privateTmp === true) argv.push('--tmpfs', '/tmp');
  if (p.emptyHome !== undefined) argv.push('--tmpfs', p.emptyHome);
  for (const layer of layers) argv.push(...layerArgs(layer, absent, files));
  for (const link of options.links ?? []) argv.push('--symlink', link.target, link.path);
  // Moved roots at their own place, clear of every other root (normalizePolicy checked): their mount points go in the root.
  for (const m of p.movedRoots ?? []) argv.push('--ro-bind', m.path, m.inside);
  // Seal the denied tmpfs and the root last: bwrap has already created every mount point and link in them.
  for (const d of p.deniedRoots) if (denied.has(d) && !files.has(d)) argv.push('--remount-ro', d);
  if (!p.writableRoots.includes('/')) argv.push('--remount-ro', '/');
  argv.push('--unshare-all', '--unshare-user', '--disable-userns');
  if (p.allowNetwork) argv.push('--share-net');
  argv.push('--die-with-parent', '--new-session', '--cap-drop', 'ALL');
  if (options.cwd !== undefined) argv.push('--chdir', options.cwd);
  argv.push('--', ...command);
  return argv;
}
