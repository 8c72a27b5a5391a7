/**
 * The calls that make an agent's memory rather than open one — `initMemory` and `cloneMemory` — wired like
 * a handle: the configuration, the runner (the shared shell launcher by default), the identity rule.
 */
import { DEFAULT_LAYOUT, LAYOUTS, parseLayoutName, type LayoutName } from '../blocks/layouts.js';
import { loadConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import { prepareHome } from '../home.js';
import { recordProtection } from '../hooks/protected.js';
import { agentIdentity, type Identity } from '../identity.js';
import { assertAgentId } from '../memfs/layout.js';
import type { InitResult } from '../memfs/init.js';
import { resolveInitAgent } from '../memfs/scope.js';
import type { CloneResult } from '../sync/clone.js';
import { runnerFor } from './open.js';
import type { MemoryOptions } from './types.js';

/** Options of {@link initMemory}. */
export interface InitOptions extends Omit<MemoryOptions, 'agentId' | 'onWriteStep'> {
  /** Default: the rule of memfs/scope.ts resolveInitAgent (… → the home's only agent → `default`). */
  agentId?: string;
  /** Display name used as commit author. */
  name?: string;
  /** Personality preset for the starter persona/human texts. */
  personality?: string;
  /** The repository's layout (src/blocks/layouts.ts), recorded as `gitmem.layout`; default `system`. */
  layout?: LayoutName;
}

async function starterFiles(
  personality: string | undefined,
  layout: LayoutName,
): Promise<Array<{ path: string; content: string }>> {
  const { defaultFilesFor, starterFilesFor } = await import('../blocks/defaults.js');
  if (!personality) return defaultFilesFor(LAYOUTS[layout]);
  const { getPersonality } = await import('../blocks/personalities.js');
  const p = getPersonality(personality);
  return starterFilesFor(
    LAYOUTS[layout],
    (['persona', 'human'] as const).map((name) => ({ name, description: p[name].description, body: p[name].body })),
  );
}

/**
 * Creates an agent's memory repository (or repairs the hooks of an existing one).
 * @example const r = await initMemory({ home: '/tmp/gm', agentId: 'a1' }); r.created === true
 */
export async function initMemory(options: InitOptions = {}): Promise<InitResult> {
  const config = options.config ?? loadConfig({ env: options.env, home: options.home });
  const home = config.home;
  const agentId = assertAgentId(resolveInitAgent({ home, agentId: options.agentId, configured: config.agent }));
  const git = runnerFor(config, options);
  const given: Partial<Identity> = { ...options.author, ...(options.name ? { name: options.name } : {}) };
  const author = agentIdentity(agentId, { given, configuredName: config.agent.name });
  const layout = options.layout ?? DEFAULT_LAYOUT;
  if (parseLayoutName(layout) === undefined)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `unknown layout ${JSON.stringify(String(layout).slice(0, 40))}: use system or index`,
    );
  const files = await starterFiles(options.personality, layout);
  const date = options.clock?.();
  prepareHome(home); // after every check of the arguments: a refused init creates nothing
  const { initMemoryRepo } = await import('../memfs/init.js');
  const result = await initMemoryRepo(git, {
    home,
    agentId,
    author,
    files,
    layout,
    explicitLayout: options.layout !== undefined,
    date,
  });
  await recordProtection(git, result.memoryDir);
  return result;
}

/** Options of {@link cloneMemory}. */
export interface CloneMemoryOptions extends Pick<MemoryOptions, 'config' | 'home' | 'env' | 'git' | 'launch'> {
  url: string;
  /** Default: the URL's last path segment without `.git` (and a trailing `-memory`). */
  agentId?: string;
  /** Resolves a relative path URL (default: the process's directory). */
  baseDir?: string;
  /** Author name of the first commit when the remote is empty (default: the agent id). */
  name?: string;
  signal?: AbortSignal;
  /** Blob-less partial clone: blobs are fetched from the remote on first read (docs/sync.md#readers-of-big-memories). */
  partial?: boolean;
  /** Sparse checkout of one directory, plus system/ and the root files the prompt needs. */
  scope?: string;
}

/**
 * Clones an agent's memory from a git remote into `<home>/agents/<id>/memory`, hooks installed, with the
 * configured credentials; an empty remote is initialised like `init` and its first commit pushed.
 * @example const r = await cloneMemory({ url: 'https://github.com/me/agent-7.git' }); r.agentId === 'agent-7'
 */
export async function cloneMemory(options: CloneMemoryOptions): Promise<CloneResult> {
  const config = options.config ?? loadConfig({ env: options.env, home: options.home });
  prepareHome(config.home);
  const credentials = config.credentials();
  const { cloneMemory: clone } = await import('../sync/clone.js');
  return clone({
    git: runnerFor(config, options),
    home: config.home,
    url: options.url,
    baseDir: options.baseDir,
    ...(options.agentId ? { agentId: options.agentId } : {}),
    ...(options.name ? { name: options.name } : {}),
    signal: options.signal,
    partial: options.partial,
    scope: options.scope,
    credentials,
  });
}
