/**
 * The bwrap backend's "etc view": one read-only bind of a private snapshot directory in place of a bind per
 * allow-listed `/etc` file (bwrap re-reads the mount table for every read-only bind, ~0.25 ms each). The
 * snapshot holds a copy of each small, readable file root directly under the root, the links prepare.ts asks
 * to recreate there, and an empty mount point for every other layer there (a directory, a denied root, a
 * writable one…), which bwrap then mounts on top as before. A confined process sees the same names, bytes,
 * links and directory binds as with the per-entry binds; anything the view cannot show exactly falls back to
 * them. A view is never changed once written: a changed source gets a new one, and an old one goes once no
 * sandbox holds it (bwrap's init keeps a read lock on one of its files) or when this process exits.
 */
import { lstatSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir, gitmemRuntimeDir, sweepDeadScratch } from '../process/runtime-dir.js';
import { bwrapMounts, etcViewFits, type BwrapEtcView, type BwrapMount } from './bwrap.js';
import { ETC_VIEW_KIND, lockedFiles, removeView, stampOf, writeView, type EtcViewEntry } from './etc-view-build.js';
import { hasAncestorIn, type SandboxPolicy } from './policy.js';
import type { PreparedPolicy } from './prepare.js';

/** The largest file copied (a bigger one keeps its own bind). */
export const ETC_VIEW_MAX_FILE = 1024 * 1024;

/** How long a replaced view stays at least (a bwrap started from it may still be setting up). */
const RETIRE_MS = 60_000;

/** What a view of `root` must hold for a prepared policy, and what it stands in for. */
export interface EtcViewPlan {
  entries: EtcViewEntry[];
  /** The plan's identity: the same key is the same view (sources stamped, so a changed file changes it). */
  key: string;
}

/** Readable by the confined process today (same uid, no capabilities), whatever its groups: else keep the bind. */
function readableToday(mode: number, owner: number, uid: number | undefined): boolean {
  return owner === uid ? (mode & 0o400) !== 0 : (mode & 0o044) === 0o044;
}

/** What the view holds for one mount directly in it: a copy, or a mount point of the kind bwrap mounts there. */
function entryFor(m: BwrapMount, rel: string, max: number, uid: number | undefined): EtcViewEntry | undefined {
  const path = m.layer.path;
  if (m.source === 'tmpfs') return { rel, kind: 'dir' };
  if (m.source === 'device') return { rel, kind: 'file' };
  let st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined) return undefined; // bwrap skips a missing `-try` source, or reports any other itself
  const copyable = m.layer.kind === 'plain' && !m.layer.writable && st.isFile() && st.size <= max;
  if (copyable && readableToday(st.mode, st.uid, uid)) return { rel, kind: 'copy', from: path, stamp: stampOf(st) };
  // bwrap follows a link in the host path (roots are real paths: only a race makes one)
  if (st.isSymbolicLink()) st = statSync(path, { throwIfNoEntry: false });
  return st === undefined ? undefined : { rel, kind: st.isDirectory() ? 'dir' : 'file' };
}

/** True when no two entries share a path and none lies inside another (it would be hidden, or need a directory). */
function flat(entries: readonly EtcViewEntry[]): boolean {
  const rels = new Set(entries.map((e) => e.rel));
  if (rels.size !== entries.length) return false;
  return entries.every((e) => {
    for (let d = dirname(e.rel); d !== '.'; d = dirname(d)) if (rels.has(d)) return false;
    return true;
  });
}

/**
 * What a view of `root` (a normalised absolute path) holds for `prepared` (statting the sources), or
 * undefined when the per-entry binds must stay: the view does not fit the policy (etcViewFits, bwrap.ts),
 * nothing would be copied, or the layout is one a flat snapshot cannot show. Only what lies directly in the
 * view is in it: a layer or link inside another layer under the root stays that layer's business.
 * @example planEtcView(prepared, '/etc')?.entries // [{ rel: 'passwd', kind: 'copy', … }, { rel: 'ssl/certs', kind: 'dir' }, …]
 */
export function planEtcView(prepared: PreparedPolicy, root: string, max = ETC_VIEW_MAX_FILE): EtcViewPlan | undefined {
  const { policy } = prepared;
  if (!etcViewFits(policy, root)) return undefined;
  const under = (p: string): boolean => p.startsWith(`${root}/`);
  // Only the roots under `root` decide what is mounted there (none is above it: etcViewFits), and the whole
  // policy is several times their number: this runs at every launch.
  const local: SandboxPolicy = {
    ...policy,
    readonlyRoots: policy.readonlyRoots.filter(under),
    writableRoots: policy.writableRoots.filter(under),
    deniedRoots: policy.deniedRoots.filter(under),
    reopenedRoots: policy.reopenedRoots.filter((r) => under(r.path)),
  };
  const mounts = bwrapMounts(local, prepared);
  const mounted = new Set(mounts.map((m) => m.layer.path));
  // Directly in the view: inside no other mount under the root.
  const direct = (p: string): boolean => !hasAncestorIn(p.slice(0, p.lastIndexOf('/')), mounted);
  const entries: EtcViewEntry[] = [];
  const uid = process.getuid?.();
  for (const m of mounts) {
    if (!direct(m.layer.path)) continue;
    const e = entryFor(m, m.layer.path.slice(root.length + 1), max, uid);
    if (e) entries.push(e);
  }
  for (const l of prepared.links) {
    if (under(l.path) && direct(l.path) && !mounted.has(l.path)) entries.push({ rel: l.path.slice(root.length + 1), kind: 'link', target: l.target });
  }
  if (!entries.some((e) => e.kind === 'copy') || !flat(entries)) return undefined;
  entries.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  return { entries, key: JSON.stringify(entries) };
}

/** Hands out fresh etc views of one root for one process. */
export interface EtcViews {
  /** The view to render `prepared` with (fresh: every source checked now), or undefined for per-entry binds. */
  viewFor(prepared: PreparedPolicy): BwrapEtcView | undefined;
  /** Removes every view directory (the process is exiting; its sandboxes die with it). */
  close(): void;
}

/** Options of {@link createEtcViews}. */
export interface EtcViewsOptions {
  /** A private directory (0700, this user's) the views are written in: every sandbox hides it. */
  parent: string;
  /** What the views mirror (default `/etc`; tests mirror a directory of their own). */
  root?: string;
  maxFileBytes?: number;
  /** How long a replaced view stays at least (default 60 s). */
  retireMs?: number;
  /**
   * Launches served by per-entry binds before the first view is written (default 1): writing one costs about
   * what it saves a launch, so a process that starts a single sandbox (a one-shot CLI) never pays for it.
   */
  warmUp?: number;
  /** Remove the views of dead processes from `parent` before writing the first one. */
  sweep?: boolean;
}

/** A written view and what the renderer is told about it. */
interface Live {
  key: string;
  dir: string;
  lockId: string;
  view: BwrapEtcView;
}

class EtcViewCache implements EtcViews {
  private readonly root: string;
  private readonly max: number;
  private readonly retireMs: number;
  private launches = 0;
  private current: Live | undefined;
  /** A plan that could not be written: not tried again until something in it changes. */
  private failed: string | undefined;
  private swept = false;
  private readonly retired: Array<{ dir: string; lockId: string; at: number }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: EtcViewsOptions) {
    [this.root, this.max, this.retireMs] = [o.root ?? '/etc', o.maxFileBytes ?? ETC_VIEW_MAX_FILE, o.retireMs ?? RETIRE_MS];
  }

  viewFor(prepared: PreparedPolicy): BwrapEtcView | undefined {
    if (this.launches < (this.o.warmUp ?? 1)) {
      this.launches++;
      return undefined;
    }
    let plan: EtcViewPlan | undefined;
    try {
      plan = planEtcView(prepared, this.root, this.max);
    } catch {
      return undefined; // a source vanished or became unreadable while looked at: bind it as before
    }
    if (plan === undefined || plan.key === this.failed) return undefined;
    if (this.current?.key === plan.key) return this.current.view;
    const next = this.write(plan);
    if (next === undefined) return undefined;
    if (this.current) this.retired.push({ dir: this.current.dir, lockId: this.current.lockId, at: Date.now() });
    this.current = next;
    this.arm();
    return next.view;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const r of this.retired.splice(0)) removeView(r.dir);
    if (this.current) removeView(this.current.dir);
    this.current = undefined;
  }

  private write(plan: EtcViewPlan): Live | undefined {
    if (this.o.sweep === true && !this.swept) sweepDeadScratch(this.o.parent, ETC_VIEW_KIND);
    this.swept = true;
    try {
      const w = writeView(this.o.parent, plan.entries, this.max);
      const paths = (kind: EtcViewEntry['kind']): string[] => plan.entries.flatMap((e) => (e.kind === kind ? [`${this.root}/${e.rel}`] : []));
      const view = { dir: w.dir, root: this.root, copied: paths('copy'), links: paths('link'), lockFile: `${this.root}/${w.lock.rel}` };
      return { key: plan.key, dir: w.dir, lockId: w.lock.id, view };
    } catch {
      this.failed = plan.key;
      return undefined;
    }
  }

  private arm(): void {
    if (this.retired.length > 0 && this.timer === undefined) this.timer = setTimeout(() => this.sweepRetired(), this.retireMs).unref();
  }

  /** Removes the retired views old enough that no sandbox holds (a held one is looked at again later). */
  private sweepRetired(): void {
    this.timer = undefined;
    const locked = lockedFiles();
    for (let i = this.retired.length - 1; i >= 0; i--) {
      const r = this.retired[i] as (typeof this.retired)[number];
      if (Date.now() - r.at < this.retireMs || locked === undefined || locked.has(r.lockId)) continue;
      removeView(r.dir);
      this.retired.splice(i, 1);
    }
    this.arm();
  }
}

/**
 * Etc views written under `o.parent`: one current view, reused while its plan (sources stamped) is the same;
 * a different plan writes a new directory and retires the old one, removed once `retireMs` have passed and no
 * sandbox holds its lock. Never throws: a view it cannot write means per-entry binds.
 * @example const views = createEtcViews({ parent: runtimeDir }); renderBwrapArgv(policy, cmd, { etcView: views.viewFor(prepared) })
 */
export function createEtcViews(o: EtcViewsOptions): EtcViews {
  return new EtcViewCache(o);
}

let shared: EtcViews | null | undefined;

/**
 * This process's etc views of `/etc` (linux only), written in gitmem's private runtime directory (every
 * sandbox hides it, system-view.ts); undefined without one. The first launch gets per-entry binds; views of
 * dead processes are swept before the first view is written, this process's own at exit.
 * @example renderBwrapArgv(policy, cmd, { etcView: sharedEtcViews()?.viewFor(prepared) })
 */
export function sharedEtcViews(): EtcViews | undefined {
  if (shared === undefined) {
    const runtime = process.platform === 'linux' ? gitmemRuntimeDir(process.env) : undefined;
    if (runtime === undefined || !ensurePrivateDir(runtime)) shared = null;
    else {
      const views = createEtcViews({ parent: runtime, sweep: true });
      process.once('exit', () => views.close());
      shared = views;
    }
  }
  return shared ?? undefined;
}
