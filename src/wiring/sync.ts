/**
 * The handle's sync side, wired once: pull/push with the configured credentials, the remote and the mirror —
 * each a call on the handle instead of a free function that takes a runner and a directory.
 */
import type { GitmemConfig } from '../config.js';
import type { GitRunner } from '../git/runner.js';
import type { GitCredentials } from '../sync/credentials.js';
import type { SyncResult } from '../sync/types.js';
import type { MemorySyncOptions } from './operation-types.js';
import type { Memory } from './types.js';

/** What the sync side needs of the handle being built. */
export interface SyncWiring {
  git: GitRunner;
  memoryDir: string;
  config: GitmemConfig;
}

function credentialsOf(config: GitmemConfig): { credentials?: GitCredentials } {
  const credentials = config.credentials();
  return credentials ? { credentials } : {};
}

function syncOptions(w: SyncWiring, o: MemorySyncOptions = {}) {
  return {
    git: w.git,
    memoryDir: w.memoryDir,
    home: w.config.home,
    ...credentialsOf(w.config),
    ...(o.onConflict ? { onConflict: o.onConflict } : {}),
    signal: o.signal,
  };
}

/** The agent a writer ref names: the configured id, else the `<home>/agents/<id>/memory` the handle opened. */
function agentOf(w: SyncWiring): string {
  const m = /[\\/]agents[\\/]([^\\/]+)[\\/]memory[\\/]?$/.exec(w.memoryDir);
  return m?.[1] ?? w.config.agent.id ?? 'agent';
}

/**
 * With `sync.mode = writer-refs`: the writer's sync (pull main, push its own ref; with `sync.integrator = lease`,
 * then a turn at the integration lease, waiting at most `maxWaitMs` for a push slot); undefined in the default mode.
 */
async function writerSync(
  w: SyncWiring,
  o: MemorySyncOptions | undefined,
  maxWaitMs: number,
): Promise<SyncResult | undefined> {
  const writers = await import('../sync/writer-refs.js');
  let settings;
  try {
    settings = writers.syncSettings(w.config.file());
  } catch (err) {
    return (await import('../sync/outcome.js')).failedResult(w.memoryDir, err); // a bad config: reported, never thrown
  }
  if (settings.mode === 'main') return undefined;
  const opts = { ...syncOptions(w, o), agent: agentOf(w), machine: settings.machine };
  if (settings.integrator === 'external') return writers.syncWriterRef(opts);
  const { syncWriterWithLease } = await import('../sync/integrate-lease.js');
  return syncWriterWithLease({ ...opts, pushesPerMinute: settings.pushesPerMinute, maxWaitMs });
}

/**
 * The sync entries of a handle (each module loaded on first use: the write path never pays for them).
 * @example Object.assign(handle, syncParts({ git, memoryDir, config }))
 */
export function syncParts(w: SyncWiring): Pick<Memory, 'sync' | 'integrate' | 'syncAfterTurn' | 'remote' | 'mirror'> {
  const { git, memoryDir } = w;
  const at = { git, memoryDir };
  return {
    sync: async (o) =>
      (await writerSync(w, o, 15_000)) ?? (await import('../sync/sync.js')).syncMemory(syncOptions(w, o)),
    integrate: async (o) => {
      const { syncSettings } = await import('../sync/writer-refs.js');
      const { pushesPerMinute } = syncSettings(w.config.file());
      const stop = o?.stop ? { stop: o.stop } : {};
      return (await import('../sync/integrate-writers.js')).integrateWriters({
        ...syncOptions(w, o),
        pushesPerMinute,
        ...stop,
      });
    },
    // In writer-refs mode the post-turn push goes to the writer's own ref as well: main is the integrator's. It
    // never waits for a push slot of main (it must not block the turn): the next sync takes the writes.
    syncAfterTurn: async (o) =>
      (await writerSync(w, o, 0)) ?? (await import('../sync/after-turn.js')).syncAfterTurn(syncOptions(w, o)),
    remote: {
      set: async (url, o = {}) => (await import('../sync/remote.js')).setRemote({ ...at, url, baseDir: o.baseDir }),
      show: async () => (await import('../sync/remote.js')).showRemote(at),
      remove: async () => (await import('../sync/remote.js')).removeRemote(at),
      moves: async (o = {}) =>
        (await import('../sync/remote.js')).upstreamMoves({
          ...at,
          ...(o.limit === undefined ? {} : { limit: o.limit }),
        }),
    },
    mirror: {
      set: async (url, o = {}) =>
        (await import('../sync/mirror.js')).setMirror({
          ...at,
          url,
          home: w.config.home,
          ...credentialsOf(w.config),
          baseDir: o.baseDir,
        }),
      push: async () => (await import('../sync/mirror.js')).pushMirror({ ...at, ...credentialsOf(w.config) }),
      status: async () => (await import('../sync/mirror.js')).mirrorStatus(at),
      unset: async () => (await import('../sync/mirror.js')).unsetMirror(at),
    },
  };
}
