/**
 * Reflection and dream, wired: the configured model (resolved on first use), the runner, the environment
 * the sub-agent's sandbox is built from, the sync credentials for the parent's refresh, and the tree caps.
 * `createReflectionHarness` and `runDream` are the same wiring for callers without an open handle.
 */
import type { LanguageModel } from 'ai';
import { loadConfig, type GitmemConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import type { GitRunner } from '../git/runner.js';
import type { Launcher } from '../process/run.js';
import type { DreamOptions, DreamResult } from '../reflection/dream-types.js';
import {
  createReflectionHarness as harnessFor,
  type ReflectionHarness,
  type ReflectionHarnessOptions,
  type ReflectionLaunch,
} from '../reflection/harness.js';
import { launcherFor, runnerFor } from './open.js';
import type {
  MemoryDreamOptions,
  MemoryReflectionOptions,
  MemoryReflectionSelection,
  MemorySettingsOptions,
} from './operation-types.js';
import type { Memory } from './types.js';

/**
 * Resolves a model spec (or none: GITMEM_MODEL, then the config file's `model`) with the configured
 * providers; the provider packages load only here.
 * @example const model = await modelResolver(config)('openai:gpt-4.1-mini')
 */
export function modelResolver(config: GitmemConfig): (spec?: string) => Promise<LanguageModel> {
  return async (spec) => {
    const { resolveModel } = await import('../llm/provider.js');
    return resolveModel({ spec, settings: config.model, env: config.env, config: config.file() });
  };
}

interface ReflectionWiring {
  config: GitmemConfig;
  git: GitRunner;
  launch: Launcher;
  agentId: string;
}

function harness(w: ReflectionWiring, o: MemoryReflectionOptions): ReflectionHarness {
  return harnessFor({
    home: w.config.home,
    agentId: w.agentId,
    env: w.config.env,
    git: w.git,
    launch: w.launch,
    model: o.model ?? (() => modelResolver(w.config)()),
    projectDir: o.projectDir,
    settings: o.settings,
    onComplete: o.onComplete,
    run: { credentials: () => w.config.credentials(), treeLimits: w.config.treeLimits, ...o.run },
  });
}

/** The wired part of a dream's options. */
function dreamWiring(
  config: GitmemConfig,
  git: GitRunner,
  launch: Launcher,
  openMemory: DreamOptions['openMemory'],
): Omit<DreamOptions, 'cwd'> {
  return {
    home: config.home,
    configuredAgent: config.agent,
    env: config.env,
    git,
    launch,
    resolveModel: modelResolver(config),
    credentials: () => config.credentials(),
    treeLimits: config.treeLimits,
    ...(openMemory ? { openMemory } : {}),
  };
}

/**
 * The reflection entries of a handle (the harness module loads on first use).
 * @example memory.reflection().onTurnEnd('conv-1')
 */
export function reflectionParts(
  w: { config: GitmemConfig; git: GitRunner; launch: Launcher; agentId: string | undefined; memoryDir: string },
  reopen: (agentId: string) => Promise<Memory>,
): Pick<Memory, 'reflection' | 'dream' | 'settings'> {
  // A memory opened through GITMEM_MEMORY_DIR outside any home has no agent id: it has no transcripts either.
  const agentOf = (): string => {
    if (w.agentId !== undefined) return w.agentId;
    throw new MemoryError(
      'NO_MEMORY_DIR',
      `${w.memoryDir} is not an agent of a gitmem home: reflection needs an agent id (open it with agentId)`,
      { data: { memoryDir: w.memoryDir } },
    );
  };
  return {
    settings: settingsApi(w.config.home, w.agentId),
    reflection: reflectionEntry((o) =>
      harness({ config: w.config, git: w.git, launch: w.launch, agentId: agentOf() }, o),
    ),
    dream: async (o: MemoryDreamOptions = {}) => {
      const { runDream: run } = await import('../reflection/dream.js');
      return run({
        ...o,
        ...dreamWiring(w.config, w.git, w.launch, reopen),
        agentId: agentOf(),
        cwd: o.cwd ?? process.cwd(),
      });
    },
  };
}

/** `memory.reflection`: the harness, or with a selection one multi-conversation run through it. */
function reflectionEntry(make: (o: MemoryReflectionOptions) => ReflectionHarness): Memory['reflection'] {
  function entry(o: MemoryReflectionOptions & MemoryReflectionSelection): ReflectionLaunch;
  function entry(o?: MemoryReflectionOptions): ReflectionHarness;
  function entry(
    o: MemoryReflectionOptions & Partial<MemoryReflectionSelection> = {},
  ): ReflectionHarness | ReflectionLaunch {
    const { recent, conversations, auto, instruction, ...rest } = o;
    const h = make(rest);
    if (recent === undefined && conversations === undefined && auto === undefined) return h;
    return h.reflectMany({ recent, conversations, auto }, instruction !== undefined ? { instruction } : {});
  }
  return entry;
}

/** `memory.settings`: the settings store (reflection/settings-store.ts), loaded on first use. */
function settingsApi(home: string, handleAgent: string | undefined): Memory['settings'] {
  const place = (o: MemorySettingsOptions = {}) => {
    const agentId = o.agentId ?? handleAgent;
    return { home, projectDir: o.projectDir ?? process.cwd(), ...(agentId !== undefined ? { agentId } : {}) };
  };
  const store = () => import('../reflection/settings-store.js');
  return {
    get: async (key, o = {}) => (await store()).getSetting(place(o), key, o.scope),
    set: async (key, value, o = {}) => (await store()).setSetting(place(o), key, value, o.scope ?? 'global'),
    unset: async (key, o = {}) => (await store()).unsetSetting(place(o), key, o.scope ?? 'global'),
  };
}

/** Options of the wired {@link createReflectionHarness}: the harness's own, with the wiring optional. */
export type CreateReflectionHarnessOptions = Omit<
  ReflectionHarnessOptions,
  'home' | 'env' | 'git' | 'launch' | 'model'
> & {
  home?: string;
  env?: Record<string, string | undefined>;
  git?: GitRunner;
  launch?: Launcher;
  model?: ReflectionHarnessOptions['model'];
};

/**
 * The reflection entry points for one agent, wired from the configuration (no open handle needed):
 * recordTurn, onTurnEnd, onCompaction, reflectNow — each returns at once; the run goes on in the background.
 * @example
 *   const h = createReflectionHarness({ agentId: 'a1' });
 *   h.recordTurn('conv-1', rows); h.onTurnEnd('conv-1');
 */
export function createReflectionHarness(o: CreateReflectionHarnessOptions): ReflectionHarness {
  const config = loadConfig({ env: o.env, home: o.home });
  const git = runnerFor(config, o);
  const { home: _h, env: _e, git: _g, launch: _l, agentId, model, run, ...rest } = o;
  return harness({ config, git, launch: launcherFor(o), agentId }, { ...rest, model, run });
}

/** Options of the wired {@link runDream}: a dream's own, with the wiring optional. */
export type RunDreamOptions = Omit<
  DreamOptions,
  | 'home'
  | 'env'
  | 'git'
  | 'launch'
  | 'cwd'
  | 'configuredAgent'
  | 'resolveModel'
  | 'openMemory'
  | 'credentials'
  | 'treeLimits'
> & {
  home?: string;
  env?: Record<string, string | undefined>;
  cwd?: string;
  git?: GitRunner;
  launch?: Launcher;
};

/**
 * One dream (`gitmem dream` as a call): reflect on a stored conversation or an external transcript, in a
 * private worktree, and merge the result; user errors throw MemoryError before anything happens.
 * @example const r = await runDream({ agentId: 'a1', from: 'transcript:./t.jsonl' }); process.exitCode = dreamExitCode(r)
 */
export async function runDream(o: RunDreamOptions): Promise<DreamResult> {
  const cwd = o.cwd ?? process.cwd();
  const config = loadConfig({ env: o.env, cwd, home: o.home });
  const git = runnerFor(config, o);
  const { runDream: run } = await import('../reflection/dream.js');
  const { home: _h, env: _e, git: _g, launch: _l, ...rest } = o;
  // The `--to` document is synced into the agent's memory through a handle opened with the same wiring.
  const open = async (agentId: string): Promise<Memory> =>
    (await import('../memory.js')).createMemory({ config, agentId, git });
  return run({ ...rest, ...dreamWiring(config, git, launcherFor(o), open), cwd });
}
