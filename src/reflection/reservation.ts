/**
 * One reflection per agent per process: a second launch while one runs is queued, not
 * dropped — one pending launch per agent, the latest replacing earlier ones — and runs once after release.
 */

/** A reservation table keyed by agent (memory directory). `T` is the queued launch. */
export interface ReservationTable<T> {
  /** Reserves `key`; false when it is taken, in which case `queued` becomes the pending launch. */
  tryReserve(key: string, queued: T): boolean;
  /** Frees `key` and hands back the pending launch (if any), which the caller then starts. */
  release(key: string): T | undefined;
  isActive(key: string): boolean;
  pending(key: string): T | undefined;
}

/**
 * Creates a table. `merge(previous, next)` decides what replaces an already-queued launch (default: next).
 * @example
 *   const table = createReservationTable<Launch>();
 *   if (!table.tryReserve(memoryDir, launch)) return 'queued';
 *   try { await run() } finally { const next = table.release(memoryDir); if (next) queueMicrotask(() => start(next)) }
 */
export function createReservationTable<T>(merge: (previous: T, next: T) => T = (_p, n) => n): ReservationTable<T> {
  const active = new Set<string>();
  const queue = new Map<string, T>();
  return {
    tryReserve(key, queued) {
      if (!active.has(key)) {
        active.add(key);
        return true;
      }
      const previous = queue.get(key);
      queue.set(key, previous === undefined ? queued : merge(previous, queued));
      return false;
    },
    release(key) {
      active.delete(key);
      const next = queue.get(key);
      queue.delete(key);
      return next;
    },
    isActive: (key) => active.has(key),
    pending: (key) => queue.get(key),
  };
}
