/**
 * The lease every write runs under. Until the cross-process lease lands this is an in-process FIFO queue
 * per repository.
 */
const queues = new Map<string, Promise<unknown>>();

/** Returns a function that runs callbacks one at a time for `repoDir`. */
export function createLease(repoDir: string): <T>(fn: () => Promise<T>) => Promise<T> {
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const previous = queues.get(repoDir) ?? Promise.resolve();
    const next = previous.then(fn, fn);
    queues.set(repoDir, next.catch(() => undefined));
    return next;
  };
}
