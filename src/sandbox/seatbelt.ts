/**
 * Renders a sandbox policy as a macOS Seatbelt profile plus `sandbox-exec` argv (pure). Paths travel as
 * `-D` parameters, so the profile text never needs SBPL string escaping. Seatbelt takes the last matching
 * rule, so the layer order from layers.ts carries over unchanged. Reads are an allow-list as under bwrap:
 * file contents and listings are denied everywhere but the visible roots; metadata (stat) stays allowed,
 * because path lookup, realpath and the dynamic loader need it on every ancestor.
 */
import { dirname } from 'node:path';
import { isWithin, normalizePolicy, type SandboxPolicy } from './policy.js';
import { planLayers, type SandboxLayer } from './layers.js';

/** Absolute path, never PATH-resolved (a PATH entry must not be able to swap the sandbox out). */
export const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** A rendered profile and the parameter values it references. */
export interface SeatbeltProfile {
  profile: string;
  params: Array<[name: string, path: string]>;
}

class Params {
  readonly list: Array<[string, string]> = [];
  private counts = new Map<string, number>();

  ref(prefix: string, path: string): string {
    const i = this.counts.get(prefix) ?? 0;
    this.counts.set(prefix, i + 1);
    const name = `${prefix}_${i}`;
    this.list.push([name, path]);
    return `(param "${name}")`;
  }
}

/** Directories strictly between a denied root and a carve-out inside it (they need metadata reads for lookup). */
function passages(policy: SandboxPolicy): string[] {
  const out = new Set<string>();
  for (const r of policy.reopenedRoots) {
    const denied = policy.deniedRoots.find((d) => isWithin(d, r.path) && d !== r.path);
    if (!denied) continue;
    for (let dir = dirname(r.path); dir !== denied && isWithin(denied, dir); dir = dirname(dir)) {
      // Directories inside another carve-out are readable already.
      if (!policy.reopenedRoots.some((o) => isWithin(o.path, dir))) out.add(dir);
    }
  }
  return [...out].sort();
}

function layerRules(layer: SandboxLayer, params: Params): string[] {
  if (layer.kind === 'denied') {
    const name = params.ref('DENIED', layer.path);
    // The literal metadata allow lets path canonicalisation (git linked worktrees) step through the root
    // without exposing anything inside it.
    return [`(deny file-read* file-write* (subpath ${name}))`, `(allow file-read-metadata (literal ${name}))`];
  }
  if (layer.kind === 'plain') {
    if (layer.writable) return [`(allow file-read* file-write* (subpath ${params.ref('WRITABLE', layer.path)}))`];
    const name = params.ref('READONLY', layer.path);
    return [`(allow file-read* (subpath ${name}))`, `(deny file-write* (subpath ${name}))`];
  }
  const name = params.ref('REOPENED', layer.path);
  if (layer.writable) return [`(allow file-read* file-write* (subpath ${name}))`];
  return [`(allow file-read* (subpath ${name}))`, `(deny file-write* (subpath ${name}))`];
}

/**
 * The profile text and its `-D` parameters.
 * @example renderSeatbeltProfile(policy).profile.startsWith('(version 1)\n(allow default)') // true
 */
export function renderSeatbeltProfile(policy: SandboxPolicy): SeatbeltProfile {
  const p = normalizePolicy(policy);
  const params = new Params();
  const lines = ['(version 1)', '(allow default)'];
  if (!p.allowNetwork) lines.push('(deny network*)');
  lines.push(
    '(deny file-read* file-write* (subpath "/"))',
    '(allow file-read-metadata)',
    '(allow file-read* file-write* (subpath "/dev"))',
  );
  // macOS has no private mount namespace: the shared temp dirs are the closest equivalent of a private /tmp.
  if (p.privateTmp === true)
    lines.push('(allow file-read* file-write* (subpath "/private/tmp") (subpath "/private/var/folders"))');
  // The home must be an existing empty directory there (/var/empty): visible, never writable.
  if (p.emptyHome !== undefined) lines.push(`(allow file-read* (subpath ${params.ref('HOME', p.emptyHome)}))`);
  const layers = planLayers(p);
  const firstReopened = layers.findIndex((l) => l.kind === 'reopened');
  layers.forEach((layer, i) => {
    if (i === firstReopened) {
      for (const dir of passages(p)) lines.push(`(allow file-read-metadata (literal ${params.ref('PASSAGE', dir)}))`);
    }
    lines.push(...layerRules(layer, params));
  });
  return { profile: `${lines.join('\n')}\n`, params: params.list };
}

/**
 * The full argv: `[/usr/bin/sandbox-exec, '-p', profile, '-DNAME=path'..., '--', ...command]`.
 * @example renderSeatbeltArgv(policy, ['git', 'status'])[0] === '/usr/bin/sandbox-exec'
 */
export function renderSeatbeltArgv(policy: SandboxPolicy, command: string[]): string[] {
  const { profile, params } = renderSeatbeltProfile(policy);
  return [SANDBOX_EXEC, '-p', profile, ...params.map(([name, path]) => `-D${name}=${path}`), '--', ...command];
}
