/**
 * Which agent's memory a call refers to — one rule for every caller ("runtime first"): explicit agent id →
 * the in-process agent context → GITMEM_MEMORY_DIR / MEMORY_DIR → GITMEM_AGENT_ID / AGENT_ID → the home's
 * only agent → an error listing the home's agents.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';
import { agentPaths } from './layout.js';

const context = new AsyncLocalStorage<{ agentId: string }>();

/**
 * Runs `fn` with `agentId` as the in-process agent context (what a harness sets for a turn).
 * @example await runWithAgent('agent-1', () => memoryTool(call))
 */
export function runWithAgent<T>(agentId: string, fn: () => T): T {
  return context.run({ agentId }, fn);
}

/** The agent id of the current in-process context, if any. */
export function currentAgentId(): string | undefined {
  return context.getStore()?.agentId;
}

export interface ScopeInput {
  home: string;
  agentId?: string | undefined;
  /** The agent the configuration names (config.ts: GITMEM_MEMORY_DIR / MEMORY_DIR, GITMEM_AGENT_ID / AGENT_ID). */
  configured?: { id?: string | undefined; memoryDir?: string | undefined } | undefined;
}

export interface ResolvedScope {
  memoryDir: string;
  agentId: string | undefined;
  source: 'explicit' | 'context' | 'env-dir' | 'env-agent' | 'only-agent';
}

function firstNonEmpty(...values: Array<string | undefined>): string | undefined {
  return values.map((v) => v?.trim()).find((v) => v !== undefined && v !== '');
}

/**
 * The agents that have a memory repository under `home`, sorted by id; none when `home` does not exist.
 * Throws HOME_UNUSABLE when `home` (or its agents/ folder) is not a readable directory.
 * @example listHomeAgents('/h') // [{ agentId: 'a1', memoryDir: '/h/agents/a1/memory' }]
 */
export function listHomeAgents(home: string): Array<{ agentId: string; memoryDir: string }> {
  const dir = join(home, 'agents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return []; // no home yet, or no agent yet
    throw new MemoryError(
      'HOME_UNUSABLE',
      `the gitmem home ${home} is not a readable directory (${code ?? 'error'} on ${dir})`,
      { data: { home } },
    );
  }
  return names
    .filter((n) => existsSync(join(dir, n, 'memory', '.git')))
    .sort()
    .map((agentId) => ({ agentId, memoryDir: join(dir, agentId, 'memory') }));
}

function noAgentError(home: string, agents: ReadonlyArray<{ agentId: string }>): MemoryError {
  const ids = agents.map((a) => a.agentId);
  const which =
    ids.length === 0
      ? `${home} has no agents yet (run \`gitmem init\`)`
      : `${home} has ${ids.length} agents (${ids.join(', ')}): say which one`;
  return new MemoryError(
    'NO_MEMORY_DIR',
    `no agent given and ${which}; pass --agent <id> (or agentId), or set GITMEM_AGENT_ID / AGENT_ID or GITMEM_MEMORY_DIR / MEMORY_DIR`,
    {
      data: { home, agents: ids },
    },
  );
}

/** The explicit id, else the in-process context's. */
function namedAgent(input: ScopeInput): { agentId: string; source: 'explicit' | 'context' } | undefined {
  const explicit = firstNonEmpty(input.agentId);
  if (explicit) return { agentId: explicit, source: 'explicit' };
  const fromContext = currentAgentId();
  return fromContext ? { agentId: fromContext, source: 'context' } : undefined;
}

/**
 * Resolves the memory directory by the rule above, or throws NO_MEMORY_DIR listing the home's agents.
 * @example resolveScope({ home: '/h', configured: { id: 'a' } }).memoryDir === '/h/agents/a/memory'
 */
export function resolveScope(input: ScopeInput): ResolvedScope {
  const named = namedAgent(input);
  if (named) return { memoryDir: agentPaths(input.home, named.agentId).memoryDir, ...named };
  const dir = firstNonEmpty(input.configured?.memoryDir);
  const envAgent = firstNonEmpty(input.configured?.id);
  if (dir) return { memoryDir: resolve(dir), agentId: envAgent, source: 'env-dir' };
  if (envAgent)
    return { memoryDir: agentPaths(input.home, envAgent).memoryDir, agentId: envAgent, source: 'env-agent' };
  const agents = listHomeAgents(input.home);
  if (agents.length === 1) return { ...(agents[0] as { agentId: string; memoryDir: string }), source: 'only-agent' };
  throw noAgentError(input.home, agents);
}

/**
 * The agent `init` sets up, by the same rule minus the memory-directory step (init creates agents under
 * the home): explicit → context → GITMEM_AGENT_ID / AGENT_ID → the home's only agent → `default` when the
 * home has none; with several and none named, NO_MEMORY_DIR listing them.
 * @example resolveInitAgent({ home: '/empty' }) === 'default'
 */
export function resolveInitAgent(input: ScopeInput): string {
  const named = namedAgent(input) ?? { agentId: firstNonEmpty(input.configured?.id) };
  if (named.agentId) return named.agentId;
  const agents = listHomeAgents(input.home);
  if (agents.length === 0) return 'default';
  if (agents.length === 1) return (agents[0] as { agentId: string }).agentId;
  throw noAgentError(input.home, agents);
}

/** Shorthand used by adapters: the absolute memory directory for these inputs. */
export function resolveMemoryDir(input: ScopeInput): string {
  return resolveScope(input).memoryDir;
}
