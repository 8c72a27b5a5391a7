/**
 * `memory.watch()`: an event each time `main` moves, whoever moved it — a tool write, a raw shell commit, a
 * worker or reflection merge, a sync pull. It watches the ref files (`refs/heads/`, `packed-refs`, `HEAD`
 * in the git dir) with fs.watch and polls slowly as well (fs.watch misses events on some file systems).
 * Each move is reported once: moves that land close together are one event naming the range (`previous`
 * → `commit`, every file that differs between them), so none is ever dropped. Usable as an async iterator
 * and as an event emitter (`memory_updated`, `error`); `close()` (or leaving a `for await`) stops every
 * watcher and timer.
 */
import { EventEmitter } from 'node:events';
import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { readRefQuick } from '../git/read-ref.js';
import type { MemoryUpdatedEvent, ReadDeps } from './types.js';
import { mainHead, moveEvent } from './watch-event.js';

export interface WatchOptions {
  /** The slow poll, in ms (default 1,000). */
  pollMs?: number;
  /** How long to wait after a file event for the move to settle, in ms (default 25). */
  settleMs?: number;
  /** Keep the process alive while watching (default true, like fs.watch). */
  persistent?: boolean;
  clock?: () => Date;
}

/** Events waiting for an iterator beyond this many are merged into one range (nothing is dropped). */
const MAX_QUEUED = 64;

function mergeEvents(a: MemoryUpdatedEvent, b: MemoryUpdatedEvent): MemoryUpdatedEvent {
  const affected = [...new Set([...a.affected_paths, ...b.affected_paths])].sort();
  return { ...b, previous: a.previous, affected_paths: affected };
}

/** A running watch of one repository's `main`. */
export class MemoryWatcher extends EventEmitter implements AsyncIterableIterator<MemoryUpdatedEvent> {
  /** Settles once the starting head is known and the file watchers are in place. */
  readonly ready: Promise<void>;
  private last: string | null | undefined;
  private readonly gitDir: string;
  private readonly watchers: FSWatcher[] = [];
  private poll: ReturnType<typeof setInterval> | undefined;
  private settle: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private readonly queue: MemoryUpdatedEvent[] = [];
  private readonly waiting: Array<(r: IteratorResult<MemoryUpdatedEvent>) => void> = [];

  constructor(
    private readonly deps: ReadDeps,
    private readonly options: WatchOptions = {},
  ) {
    super();
    this.gitDir = resolveGitCommonDir(deps.memoryDir);
    this.last = readRefQuick(this.gitDir, 'refs/heads/main');
    this.ready = this.start();
    this.ready.catch(() => undefined);
  }

  private async start(): Promise<void> {
    if (this.last === undefined) this.last = await mainHead(this.deps);
    if (this.closed) return;
    const persistent = this.options.persistent !== false;
    for (const dir of [this.gitDir, join(this.gitDir, 'refs', 'heads')]) {
      try {
        const w = watch(dir, { persistent }, () => this.nudge());
        w.on('error', () => w.close()); // the poll still sees every move
        this.watchers.push(w);
      } catch {
        // no fs.watch here (or no inotify watches left): the poll alone
      }
    }
    this.poll = setInterval(() => this.nudge(0), Math.max(10, this.options.pollMs ?? 1000));
    if (!persistent) this.poll.unref();
    this.nudge(0); // a move between construction and now
  }

  /** Looks again soon; a burst of file events becomes one look. */
  private nudge(delay = this.options.settleMs ?? 25): void {
    if (this.closed || this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.check();
    }, delay);
    if (this.options.persistent === false) this.settle.unref();
  }

  private check(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.look()
      .catch((err: unknown) => {
        if (this.listenerCount('error') > 0) this.emit('error', err); // the move is looked at again on the next poll
      })
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.closed) {
          this.again = false;
          void this.check();
        }
      });
    return this.running;
  }

  private async look(): Promise<void> {
    const head = readRefQuick(this.gitDir, 'refs/heads/main') ?? (await mainHead(this.deps));
    if (this.closed || head === null || head === this.last || this.last === undefined) return;
    const event = await moveEvent(
      this.deps,
      this.gitDir,
      this.last,
      head,
      (this.options.clock ?? (() => new Date()))(),
    );
    if (this.closed) return;
    this.last = head;
    this.deliver(event);
  }

  private deliver(event: MemoryUpdatedEvent): void {
    const taker = this.waiting.shift();
    if (taker) taker({ value: event, done: false });
    else if (this.queue.length >= MAX_QUEUED)
      this.queue.push(mergeEvents(this.queue.pop() as MemoryUpdatedEvent, event));
    else this.queue.push(event);
    this.emit('memory_updated', event);
  }

  /** The next move (waits for one). */
  next(): Promise<IteratorResult<MemoryUpdatedEvent>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Leaving a `for await` loop closes the watcher. */
  return(): Promise<IteratorResult<MemoryUpdatedEvent>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Stops every file watcher and timer; pending iterations end. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.watchers.splice(0)) w.close();
    if (this.poll) clearInterval(this.poll);
    if (this.settle) clearTimeout(this.settle);
    for (const resolve of this.waiting.splice(0)) resolve({ value: undefined, done: true });
    this.emit('close');
  }
}

/**
 * Watches main. Both forms:
 * @example for await (const e of memory.watch()) console.log(e.writer, e.affected_paths)
 * @example const w = memory.watch(); w.on('memory_updated', (e) => …); … w.close()
 */
export function watchMemory(deps: ReadDeps, options: WatchOptions = {}): MemoryWatcher {
  return new MemoryWatcher(deps, options);
}
