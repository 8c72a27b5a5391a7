/**
 * The main side of the work-tree watcher: collects the paths the watcher thread (worker-source.ts) reports
 * and answers "what changed since the last take()", after a cookie proved every earlier change delivered.
 * Whenever it cannot vouch for the answer (not ready, a watch failed, the thread died, more events than the
 * kernel queue holds, a name it could not decode at the top) it says so, and the caller walks everything.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { WATCHER_WORKER_SOURCE } from './worker-source.js';

/** What changed since the last take(): `paths` exactly, or `full` when the watcher cannot say. */
export type ChangeSnapshot = { full: false; paths: string[] } | { full: true; reason: string };

export interface WatcherOptions {
  /** Events between two takes after which a kernel queue overflow cannot be ruled out (default: half the queue). */
  maxEvents?: number;
  /** How long a cookie may take to come back before the watcher counts as broken (ms). */
  cookieTimeoutMs?: number;
}

/** Distinct changed paths kept between two checks; beyond, the next check walks everything. */
const MAX_TRACKED_PATHS = 20_000;

type Message = { p: string } | { d: string } | { c: string } | { n: number } | { ready: number } | { broken: string };

/** Half of the kernel's per-instance queue: an overflow needs the whole queue, all of which is then delivered. */
function defaultMaxEvents(): number {
  try {
    const n = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8').trim());
    if (Number.isFinite(n) && n > 0) return Math.max(1, Math.floor(n / 2));
  } catch {
    // not Linux, or /proc hidden: the kernel's default
  }
  return 8192;
}

export class WorkTreeWatcher {
  private readonly worker: Worker;
  private dirty = new Set<string>();
  private events = 0;
  private unknown: string | null = null;
  private brokenReason: string | null = null;
  private readyFiles: number | null = null;
  private readonly ready: Promise<number | null>;
  private readonly cookies = new Map<string, () => void>();
  private cookieSeq = 0;
  private readonly maxEvents: number;
  private readonly cookieTimeoutMs: number;

  /** Starts watching `root` (the work tree); cookies go to `cookieDir` (inside the git dir, created here). */
  constructor(
    private readonly root: string,
    private readonly cookieDir: string,
    options: WatcherOptions = {},
  ) {
    this.maxEvents = options.maxEvents ?? defaultMaxEvents();
    this.cookieTimeoutMs = options.cookieTimeoutMs ?? 5_000;
    mkdirSync(cookieDir, { recursive: true, mode: 0o700 });
    if (!lstatSync(cookieDir).isDirectory()) throw new Error('fsmonitor: the cookie directory is not a directory');
    // execArgv: none of the process's flags (`--input-type=module` would make the CommonJS source ESM).
    this.worker = new Worker(WATCHER_WORKER_SOURCE, { eval: true, execArgv: [], workerData: { root, cookieDir } });
    let settle: (files: number | null) => void = () => undefined;
    this.ready = new Promise((resolve) => (settle = resolve));
    this.worker.on('message', (batch: Message[]) => {
      for (const m of batch) this.onMessage(m);
      if (this.readyFiles !== null || this.brokenReason !== null) settle(this.readyFiles);
    });
    const die = (why: string): void => {
      this.brokenReason ??= why;
      settle(null);
      for (const wake of this.cookies.values()) wake();
    };
    this.worker.on('error', (err) => die(`watcher thread failed: ${err.message}`));
    this.worker.on('exit', () => die('watcher thread exited'));
    // After the listeners: adding a 'message' listener refs the thread's port again. The watcher never keeps
    // its process alive.
    this.worker.unref();
  }

  private onMessage(m: Message): void {
    if (this.dirty.size >= MAX_TRACKED_PATHS) {
      this.unknown ??= 'too many changed paths'; // the full walk is cheaper, and memory stays bounded
      this.dirty.clear();
    }
    if ('p' in m) this.dirty.add(m.p);
    else if ('d' in m) {
      if (m.d === '') this.unknown ??= 'a change at the top could not be named';
      else this.dirty.add(m.d);
    } else if ('c' in m) this.cookies.get(m.c)?.();
    else if ('n' in m) this.events += m.n;
    else if ('ready' in m) this.readyFiles = m.ready;
    else if ('broken' in m) this.brokenReason ??= m.broken;
  }

  /** Resolves once the initial walk is done: the regular files seen, or null when the watcher broke. */
  whenReady(): Promise<number | null> {
    return this.ready;
  }

  /** Starting (the initial walk runs), ready, or broken (nothing it says counts any more). */
  get state(): 'starting' | 'ready' | 'broken' {
    return this.brokenReason !== null ? 'broken' : this.readyFiles === null ? 'starting' : 'ready';
  }

  /** Why the watcher stopped counting (null while it counts). */
  get brokenBecause(): string | null {
    return this.brokenReason;
  }

  /** True while everything the watcher reported can be trusted. */
  get healthy(): boolean {
    return this.brokenReason === null && this.readyFiles !== null;
  }

  /**
   * Writes a cookie and waits for its event: inotify queues events in order, so every change made before
   * this call is then in `dirty`. False when the cookie did not come back (the watcher counts as broken).
   */
  async sync(): Promise<boolean> {
    if (!this.healthy) return false;
    const name = `cookie-${process.pid}-${++this.cookieSeq}-${randomBytes(4).toString('hex')}`;
    const path = join(this.cookieDir, name);
    const seen = new Promise<void>((resolve) => this.cookies.set(name, resolve));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.cookieTimeoutMs)));
    try {
      closeSync(openSync(path, 'wx', 0o600)); // O_EXCL: never follows a planted link
      let arrived = false;
      await Promise.race([seen.then(() => (arrived = true)), timeout]);
      if (!arrived) this.brokenReason ??= 'a cookie did not come back';
    } catch (err) {
      this.brokenReason ??= `cookie: ${(err as Error).message}`;
    } finally {
      clearTimeout(timer);
      this.cookies.delete(name);
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    }
    return this.healthy;
  }

  /** The changes since the last take(), and a fresh start for the next one. */
  take(): ChangeSnapshot {
    const paths = [...this.dirty];
    const events = this.events;
    const unknown = this.unknown;
    this.dirty = new Set();
    this.events = 0;
    this.unknown = null;
    if (this.brokenReason !== null) return { full: true, reason: this.brokenReason };
    if (this.readyFiles === null) return { full: true, reason: 'the watcher is not ready' };
    if (events >= this.maxEvents)
      return { full: true, reason: `${events} events: the kernel queue may have overflowed` };
    if (unknown !== null) return { full: true, reason: unknown };
    return { full: false, paths };
  }

  /** Test seam: the watcher thread, to kill it. */
  get thread(): Worker {
    return this.worker;
  }

  close(): void {
    this.brokenReason ??= 'closed';
    this.worker.postMessage('close');
    void this.worker.terminate();
  }
}
