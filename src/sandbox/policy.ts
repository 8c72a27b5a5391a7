/**
 * What a confined process may see and touch, as a plain value: built and checked here without any I/O,
 * then rendered for a kernel backend by bwrap.ts or seatbelt.ts.
 */
import { isAbsolute, join, normalize, relative, sep } from 'node:path';
import { MemoryError } from '../errors.js';

/** A filesystem/network policy. Reads are allowed everywhere except under denied roots; writes nowhere but writable ones. */
export interface SandboxPolicy {
  /** Visible, not writable (`/` is read-only anyway; useful inside a writable root). */
  readonlyRoots: string[];
  /** Bind-mounted read-write. */
  writableRoots: string[];
  /** Hidden: an empty read-only tmpfs over them (bwrap) / read+write deny (seatbelt). */
  deniedRoots: string[];
  /** Re-exposed inside denied roots, applied ancestors first (a read-only dir may hold a writable child). */
  reopenedRoots: Array<{ path: string; writable: boolean }>;
  /** false ⇒ no network namespace access (`--unshare-net`, `(deny network*)`). */
  allowNetwork: boolean;
  /** Give the process an empty private `/tmp` (bwrap); on macOS the shared temp dirs become writable instead. */
  privateTmp?: boolean;
}

/** Inputs of {@link buildMemoryWriterPolicy}; every path must be absolute. */
export interface MemoryWriterPolicyOptions {
  gitmemHome: string;
  agentId: string;
  memoryDir: string;
  worktreesDir: string;
  /** gitmem's own state the writer must update (transcript cursors, logs). */
  stateDirs?: string[];
  extraWritable?: string[];
  allowNetwork?: boolean;
  /** The writer's own worktree: its `.git` link file is pinned read-only so it cannot be redirected. */
  worktreeDir?: string;
}

/**
 * True when `child` equals `parent` or lies below it (both absolute and normalised).
 * @example isWithin('/h/agents', '/h/agents/a1') // true;  isWithin('/h/agents', '/h/agentsX') // false
 */
export function isWithin(parent: string, child: string): boolean {
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

function absolute(path: string, field: string): string {
  if (typeof path !== 'string' || path.trim() === '' || path.includes('\0') || !isAbsolute(path)) {
    throw new MemoryError('INVALID_ARGUMENT', `sandbox ${field} must be an absolute path, got ${JSON.stringify(path)}`, {
      data: { field, value: path },
    });
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
  const seen = new Map<string, boolean>();
  for (const r of policy.reopenedRoots) seen.set(absolute(r.path, 'reopenedRoots'), r.writable);
  const reopenedRoots = [...seen].map(([path, writable]) => ({ path, writable }));
  for (const plain of [...writableRoots, ...readonlyRoots]) {
    const hider = deniedRoots.find((d) => isWithin(d, plain));
    if (hider) {
      throw new MemoryError('INVALID_ARGUMENT', `sandbox root ${plain} lies inside denied ${hider}; list it in reopenedRoots`, {
        data: { root: plain, denied: hider },
      });
    }
  }
  for (const r of reopenedRoots) {
    const exposed = deniedRoots.find((d) => isWithin(r.path, d));
    if (exposed) {
      throw new MemoryError('INVALID_ARGUMENT', `re-opened root ${r.path} would re-expose denied ${exposed}`, {
        data: { root: r.path, denied: exposed },
      });
    }
  }
  return { ...policy, readonlyRoots, writableRoots, deniedRoots, reopenedRoots, allowNetwork: policy.allowNetwork === true };
}

function checkAgent(o: MemoryWriterPolicyOptions, agentsRoot: string, memoryDir: string): void {
  const id = o.agentId;
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id)) {
    throw new MemoryError('INVALID_AGENT_ID', `invalid agent id ${JSON.stringify(id)} for the sandbox policy`, {
      data: { agentId: id },
    });
  }
  if (isWithin(agentsRoot, memoryDir) && !isWithin(join(agentsRoot, id), memoryDir)) {
    throw new MemoryError('INVALID_ARGUMENT', `memory dir ${memoryDir} does not belong to agent ${id}`, {
      data: { agentId: id, memoryDir },
    });
  }
}

/**
 * The policy for a background memory writer: every agent's memory tree is hidden; the worker's own memory
 * checkout comes back read-only, with its common `.git` writable (worktree commits land there) except the
 * hooks and config (code the primary agent would run), and its worktrees directory writable; gitmem's state
 * dirs and a private /tmp are writable; the network is off unless asked for.
 * @example
 *   buildMemoryWriterPolicy({ gitmemHome: '/h', agentId: 'a1', memoryDir: '/h/agents/a1/memory',
 *     worktreesDir: '/h/agents/a1/memory-worktrees' }).deniedRoots // ['/h/agents']
 */
export function buildMemoryWriterPolicy(o: MemoryWriterPolicyOptions): SandboxPolicy {
  const home = absolute(o.gitmemHome, 'gitmemHome');
  const agentsRoot = join(home, 'agents');
  const memoryDir = absolute(o.memoryDir, 'memoryDir');
  const worktreesDir = absolute(o.worktreesDir, 'worktreesDir');
  checkAgent(o, agentsRoot, memoryDir);
  const gitDir = join(memoryDir, '.git');
  const reopenedRoots = [
    { path: memoryDir, writable: false },
    { path: gitDir, writable: true },
    { path: join(gitDir, 'hooks'), writable: false },
    { path: join(gitDir, 'config'), writable: false },
    { path: worktreesDir, writable: true },
  ];
  if (o.worktreeDir !== undefined) {
    const wt = absolute(o.worktreeDir, 'worktreeDir');
    if (!isWithin(worktreesDir, wt)) {
      throw new MemoryError('INVALID_ARGUMENT', `worktree ${wt} is not inside ${worktreesDir}`, { data: { worktreeDir: wt } });
    }
    reopenedRoots.push({ path: join(wt, '.git'), writable: false });
  }
  return normalizePolicy({
    readonlyRoots: [],
    writableRoots: [...(o.stateDirs ?? []), ...(o.extraWritable ?? [])],
    deniedRoots: [agentsRoot],
    reopenedRoots,
    allowNetwork: o.allowNetwork === true,
    privateTmp: true,
  });
}
