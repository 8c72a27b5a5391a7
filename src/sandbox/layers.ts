/**
 * The one ordering rule both renderers share: later layers win (bwrap mounts over earlier mounts, seatbelt
 * takes the last matching rule), so plain roots come first, then denied trees, then re-opened carve-outs,
 * each group ancestors first so a nested root refines its parent rather than being buried by it.
 */
import type { SandboxPolicy } from './policy.js';
import { depth } from './policy.js';

/** One step of the layered policy, in application order. */
export type SandboxLayer =
  | { kind: 'plain'; path: string; writable: boolean }
  | { kind: 'denied'; path: string }
  | { kind: 'reopened'; path: string; writable: boolean };

function byDepth<T extends { path: string; writable?: boolean }>(items: T[]): T[] {
  // Stable: equal depth keeps writable before read-only, so the stricter rule is applied last.
  return items
    .map((item, i) => ({ item, i, d: depth(item.path) }))
    .sort((a, b) => a.d - b.d || Number(b.item.writable ?? 0) - Number(a.item.writable ?? 0) || a.i - b.i)
    .map(({ item }) => item);
}

/**
 * Orders a (normalised) policy into layers.
 * @example planLayers(policy).map((l) => l.kind) // ['plain', 'plain', 'denied', 'reopened', 'reopened']
 */
export function planLayers(policy: SandboxPolicy): SandboxLayer[] {
  const plain = byDepth([
    ...policy.writableRoots.map((path) => ({ kind: 'plain' as const, path, writable: true })),
    ...policy.readonlyRoots.map((path) => ({ kind: 'plain' as const, path, writable: false })),
  ]);
  const denied = byDepth(policy.deniedRoots.map((path) => ({ kind: 'denied' as const, path })));
  const reopened = byDepth(
    policy.reopenedRoots.map((r) => ({ kind: 'reopened' as const, path: r.path, writable: r.writable })),
  );
  return [...plain, ...denied, ...reopened];
}
