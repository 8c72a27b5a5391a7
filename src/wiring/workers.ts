/**
 * The handle's background writers, wired once: a confined command or a trusted in-process body, run in a
 * private worktree (or on the checkout for a repair) and merged back; with a remote, the checkout is first
 * brought up to date with the configured credentials.
 */
import type { GitmemConfig } from '../config.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import type { MemoryWorkerDeps, MemoryWorkerOutcome } from '../worktree/worker-types.js';
import type { WorkerTask } from './operation-types.js';
import type { Memory } from './types.js';

/** What the workers need of the handle being built. */
export interface WorkerWiring {
  git: GitRunner;
  memoryDir: string;
  agentId: string | undefined;
  config: GitmemConfig;
  /** Starts the confined commands and their hook channels' git. */
  launch: Launcher;
  /** What follows a merge that moved main, as after a tool commit (the mirror push, housekeeping). */
  afterMerge?: (commit: string) => void;
}

function refreshParent(
  w: WorkerWiring,
  signal: AbortSignal | undefined,
): NonNullable<MemoryWorkerDeps['refreshParent']> {
  return async () => {
    const { prepareParentRefresh } = await import('../sync/refresh.js');
    const credentials = w.config.credentials();
    return prepareParentRefresh({
      git: w.git,
      memoryDir: w.memoryDir,
      home: w.config.home,
      credentials,
      signal,
    });
  };
}

async function runWorker(w: WorkerWiring, task: WorkerTask): Promise<MemoryWorkerOutcome> {
  const outcome = await runWorkerOnce(w, task);
  if (outcome.status === 'merged') w.afterMerge?.(outcome.head);
  return outcome;
}

async function runWorkerOnce(w: WorkerWiring, task: WorkerTask): Promise<MemoryWorkerOutcome> {
  const common = { type: task.type, description: task.description, paths: task.paths, signal: task.signal };
  if ('body' in task) {
    const { runMemoryWorker } = await import('../worktree/worker.js');
    return runMemoryWorker({ memoryDir: w.memoryDir, ...common }, task.body, {
      git: w.git,
      home: w.config.home,
      refreshParent: refreshParent(w, task.signal),
    });
  }
  const { runWorkerCommand } = await import('../worktree/command-body.js');
  return runWorkerCommand({
    ...common,
    memoryDir: w.memoryDir,
    gitmemHome: w.config.home,
    ...(w.agentId ? { agentId: w.agentId } : {}),
    command: task.command,
    env: w.config.env,
    git: w.git,
    launch: w.launch,
    refreshParent: refreshParent(w, task.signal),
    timeoutMs: task.timeoutMs,
    onWarning: task.onWarning,
    onOutput: task.onOutput,
    readPaths: task.readPaths,
  });
}

/**
 * The worker entries of a handle.
 * @example const w = memory.startWorker({ command: 'echo x >> notes/a.md && git commit -qam x' }); await w.outcome
 */
export function workerParts(w: WorkerWiring): Pick<Memory, 'runWorker' | 'startWorker' | 'pruneWorkers'> {
  return {
    runWorker: (task) => runWorker(w, task),
    startWorker: (task) => {
      const controller = new AbortController();
      const signal = task.signal ? AbortSignal.any([task.signal, controller.signal]) : controller.signal;
      const outcome = runWorker(w, { ...task, signal });
      outcome.catch(() => undefined); // the caller may never look; the rejection still reaches it when it does
      return { outcome, cancel: () => controller.abort() };
    },
    pruneWorkers: async () =>
      (await import('../worktree/prune.js')).pruneOrphanWorktrees({ memoryDir: w.memoryDir, git: w.git }),
  };
}
