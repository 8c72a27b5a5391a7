/**
 * What a confined process may see and touch, as a plain value: built and checked here without any I/O,
 * then rendered for a kernel backend by bwrap.ts or seatbelt.ts.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { MemoryError } from '../errors.js';

/**
 * A filesystem/network policy. Reads are an allow-list: a confined process sees its visible roots (plain
 * read-only and writable roots, re-opened carve-outs, its empty home and private /tmp) and nothing else of
 * the host; writes go nowhere but writable ones. Launchers add the system runtime (system-roots.ts).
 */
export interface SandboxPolicy {
  /** Visible, not writable. `/` is never one: name the directories. */
  readonlyRoots: string[];
  /** Visible and writable (bind-mounted read-write). */
  writableRoots: string[];
  /** Hidden even where a visible root contains them: an empty read-only tmpfs (bwrap) / read+write deny (seatbelt). */
  deniedRoots: string[];
  /**
   * Re-exposed inside denied roots, applied ancestors first (a read-only dir may hold a writable child).
   * A missing one refuses the start, unless `create` says to make it (a state directory).
   */
  reopenedRoots: Array<{ path: string; writable: boolean; create?: boolean }>;
  /** false ⇒ no network namespace access (`--unshare-net`, `(deny network*)`). */
  allowNetwork: boolean;
  /** Give the process an empty private `/tmp` (bwrap); on macOS the shared temp dirs become usable instead. */
  privateTmp?: boolean;
  /** HOME inside the sandbox: an empty directory here (bwrap: a private tmpfs; macOS: must exist, e.g. /var/empty). */
  emptyHome?: string;
  /**
   * Read-only host directories shown at another place inside (bwrap binds `path` at `inside`), so what a
   * writer is handed from the host's /tmp (its hook channel) does not show in its private /tmp. `inside`
   * must be clear of every other root ({@link canMoveTo}); launch.ts shows a root it cannot move where it is.
   */
  movedRoots?: Array<{ path: string; inside: string }>;
}

// Policies compare every root with every other one, so the same few dozen paths are asked about again and again.
const plainSeen = new Map<string, boolean>();

function isPlainAbsolute(path: string): boolean {
  const seen = plainSeen.get(path);
  if (seen !== undefined) return seen;
  const plain =
    sep === '/' && path.startsWith('/') && (path === '/' || (!path.endsWith('/') && !/\/\.{0,2}(?:\/|$)/.test(path)));
  if (plainSeen.size > 4096) plainSeen.clear();
  plainSeen.set(path, plain);
  return plain;
}

/**
 * True when `child` equals `parent` or lies below it (both absolute and normalised).
 * @example isWithin('/h/agents', '/h/agents/a1') // true;  isWithin('/h/agents', '/h/agentsX') // false
 */
export function isWithin(parent: string, child: string): boolean {
  // Fast path for the normalised absolute paths policies hold (path.relative is slow, and policies compare
  // every root with every other one).
  if (isPlainAbsolute(parent) && isPlainAbsolute(child)) {
    return child === parent || child.startsWith(parent === sep ? sep : parent + sep);
  }
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Number of path segments; used to apply nested mounts/rules ancestors first.
 * @example depth('/') // 0;  depth('/a/b') // 2
 */
export function depth(path: string): number {
  return path === sep ? 0 : path.split(sep).length - 1;
}

/**
 * A root as a normalised absolute path (no trailing slash), or INVALID_ARGUMENT naming the policy field.
 * @example absolute('/a/b/', 'writableRoots') // '/a/b'
 */
export function absolute(path: string, field: string): string {
  // A plain absolute path is its own normal form (no `//`, `.`/`..` segment or trailing slash).
  if (typeof path === 'string' && isPlainAbsolute(path) && !path.includes('\0')) return path;
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0') || !isAbsolute(path)) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `sandbox ${field} must be an absolute path, got ${JSON.stringify(path)}`,
      {
        data: { field, value: path },
      },
    );
  }
  const out = normalize(path);
  return out.length > 1 && out.endsWith(sep) ? out.slice(0, -1) : out;
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}

/**
 * Normalises every root and refuses layouts whose meaning would silently differ from the intent:
 * a plain root inside a denied one (it would be hidden) or a re-opened root that contains a denied one
 * (it would re-expose it).
 * @example normalizePolicy({ ...p, writableRoots: ['/a/b/'] }).writableRoots // ['/a/b']
 */
export function normalizePolicy(policy: SandboxPolicy): SandboxPolicy {
  const deniedRoots = unique(policy.deniedRoots.map((p) => absolute(p, 'deniedRoots')));
  const writableRoots = unique(policy.writableRoots.map((p) => absolute(p, 'writableRoots')));
  const readonlyRoots = unique(policy.readonlyRoots.map((p) => absolute(p, 'readonlyRoots'))).filter((p) => p !== sep);
  const seen = new Map<string, { writable: boolean; create?: boolean }>();
  for (const r of policy.reopenedRoots)
    seen.set(
      absolute(r.path, 'reopenedRoots'),
      r.create === true ? { writable: r.writable, create: true } : { writable: r.writable },
    );
  const reopenedRoots = [...seen].map(([path, r]) => ({ path, ...r }));
  const denied = new Set(deniedRoots);
  for (const plain of [...writableRoots, ...readonlyRoots]) {
    if (!hasAncestorIn(plain, denied)) continue;
    const hider = deniedRoots.find((d) => isWithin(d, plain));
    if (hider) {
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `sandbox root ${plain} lies inside denied ${hider}; list it in reopenedRoots`,
        {
          data: { root: plain, denied: hider },
        },
      );
    }
  }
  const reopened = new Set(seen.keys());
  if (!deniedRoots.some((d) => hasAncestorIn(d, reopened)))
    return finish(policy, { readonlyRoots, writableRoots, deniedRoots, reopenedRoots });
  for (const r of reopenedRoots) {
    const exposed = deniedRoots.find((d) => isWithin(r.path, d));
    if (exposed) {
      throw new MemoryError('INVALID_ARGUMENT', `re-opened root ${r.path} would re-expose denied ${exposed}`, {
        data: { root: r.path, denied: exposed },
      });
    }
  }
  return finish(policy, { readonlyRoots, writableRoots, deniedRoots, reopenedRoots });
}

function finish(
  policy: SandboxPolicy,
  roots: Pick<SandboxPolicy, 'readonlyRoots' | 'writableRoots' | 'deniedRoots' | 'reopenedRoots'>,
): SandboxPolicy {
  const emptyHome = policy.emptyHome === undefined ? {} : { emptyHome: absolute(policy.emptyHome, 'emptyHome') };
  const moved = policy.movedRoots?.map((m) => ({
    path: absolute(m.path, 'movedRoots'),
    inside: absolute(m.inside, 'movedRoots'),
  }));
  const normal = {
    ...policy,
    ...roots,
    allowNetwork: policy.allowNetwork === true,
    ...emptyHome,
    ...(moved ? { movedRoots: moved } : {}),
  };
  for (const m of moved ?? []) {
    if (!canMoveTo(normal, m.inside, m)) {
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `sandbox moved root ${m.path} cannot be shown at ${m.inside}: another root holds or lies under it`,
        {
          data: { root: m.path, inside: m.inside },
        },
      );
    }
  }
  return normal;
}

/**
 * Whether a read-only root may be shown at `inside` under `policy`: not `/`, and no other root of any kind,
 * private /tmp, empty home or other moved root is `inside`, above it or under it (its mount would go under
 * or over the moved one).
 * @example canMoveTo(writerPolicy, '/run/gitmem-hook') // true
 */
export function canMoveTo(policy: SandboxPolicy, inside: string, self?: { path: string; inside: string }): boolean {
  const others = [
    ...policy.readonlyRoots,
    ...policy.writableRoots,
    ...policy.deniedRoots,
    ...policy.reopenedRoots.map((r) => r.path),
    ...(policy.privateTmp === true ? ['/tmp'] : []),
    ...(policy.emptyHome !== undefined ? [policy.emptyHome] : []),
    ...(policy.movedRoots ?? []).filter((m) => m !== self).map((m) => m.inside),
  ];
  return inside !== sep && !others.some((r) => isWithin(r, inside) || isWithin(inside, r));
}

/**
 * Where a host path is seen inside a sandbox of `policy`: under a moved root, at its new place; anywhere
 * else, where it is.
 * @example insidePath({ ...p, movedRoots: [{ path: '/tmp/ch', inside: '/run/gitmem-hook' }] }, '/tmp/ch/h.sock') // '/run/gitmem-hook/h.sock'
 */
export function insidePath(policy: SandboxPolicy, hostPath: string): string {
  const m = (policy.movedRoots ?? []).find((r) => isWithin(r.path, hostPath));
  return m === undefined ? hostPath : join(m.inside, relative(m.path, hostPath));
}

/**
 * `path` and every directory above it, `/` included (a normalised absolute path).
 * @example ancestorsOf('/a/b') // ['/a/b', '/a', '/']
 */
export function ancestorsOf(path: string): string[] {
  const out = [path];
  for (let p = path; p !== sep;) {
    const cut = p.lastIndexOf(sep);
    out.push((p = cut <= 0 ? sep : p.slice(0, cut)));
  }
  return out;
}

/**
 * Whether `path` or one of its ancestors is in `set` (all normalised absolute paths): `isWithin(a, path)`
 * for some `a` of the set, in one walk up the path instead of one comparison per member.
 * @example hasAncestorIn('/etc/ssh/key', new Set(['/etc/ssh'])) // true
 */
export function hasAncestorIn(path: string, set: ReadonlySet<string>): boolean {
  if (set.size === 0) return false;
  for (let p = path; ;) {
    if (set.has(p)) return true;
    if (p === sep) return false;
    const cut = p.lastIndexOf(sep);
    p = cut <= 0 ? sep : p.slice(0, cut);
  }
}

/**
 * Adds read-only paths to `policy`: a path inside a denied root is re-opened there, any other becomes a plain
 * read-only root (a denied root inside it stays hidden).
 * @example withReadPaths(policy, ['/srv/notes']).readonlyRoots // [..., '/srv/notes']
 */
export function withReadPaths(policy: SandboxPolicy, paths: readonly string[]): SandboxPolicy {
  const readonlyRoots = [...policy.readonlyRoots];
  const reopenedRoots = [...policy.reopenedRoots];
  const denied = new Set(policy.deniedRoots.map((d) => absolute(d, 'deniedRoots')));
  for (const raw of paths) {
    const path = absolute(raw, 'readPaths');
    if (hasAncestorIn(path, denied)) reopenedRoots.push({ path, writable: false });
    else readonlyRoots.push(path);
  }
  return { ...policy, readonlyRoots, reopenedRoots };
}
