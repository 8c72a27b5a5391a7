/**
 * Which agent's memory a call refers to (SPEC §3.2, "runtime first"): explicit agent id → the in-process
 * agent context → GITMEM_MEMORY_DIR / MEMORY_DIR → GITMEM_AGENT_ID / AGENT_ID → a clear error.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
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
  env: Record<string, string | undefined>;
}

export interface ResolvedScope {
  memoryDir: string;
  agentId: string | undefined;
  source: 'explicit' | 'context' | 'env-dir' | 'env-agent';
}

function firstNonEmpty(...values: Array<string | undefined>): string | undefined {
  return values.map((v) => v?.trim()).find((v) => v !== undefined && v !== '');
}

/**
 * Resolves the memory directory, or throws NO_MEMORY_DIR naming every way to provide one.
 * @example resolveScope({ home: '/h', env: { GITMEM_AGENT_ID: 'a' } }).memoryDir === '/h/agents/a/memory'
 */
export function resolveScope(input: ScopeInput): ResolvedScope {
  const explicit = firstNonEmpty(input.agentId);
  if (explicit) return { memoryDir: agentPaths(input.home, explicit).memoryDir, agentId: explicit, source: 'explicit' };
  const fromContext = currentAgentId();
  if (fromContext) return { memoryDir: agentPaths(input.home, fromContext).memoryDir, agentId: fromContext, source: 'context' };
  const dir = firstNonEmpty(input.env['GITMEM_MEMORY_DIR'], input.env['MEMORY_DIR']);
  const envAgent = firstNonEmpty(input.env['GITMEM_AGENT_ID'], input.env['AGENT_ID']);
  if (dir) return { memoryDir: resolve(dir), agentId: envAgent, source: 'env-dir' };
  if (envAgent) return { memoryDir: agentPaths(input.home, envAgent).memoryDir, agentId: envAgent, source: 'env-agent' };
  throw new MemoryError(
    'NO_MEMORY_DIR',
    'unable to resolve a memory directory: pass --agent <id> (or agentId), or set GITMEM_MEMORY_DIR / MEMORY_DIR or GITMEM_AGENT_ID / AGENT_ID',
  );
}

/** Shorthand used by adapters: the absolute memory directory for these inputs. */
export function resolveMemoryDir(input: ScopeInput): string {
  return resolveScope(input).memoryDir;
}
