/**
 * Where an agent's memory lives on disk: `$GITMEM_HOME/agents/<agentId>/memory` (the repo) and the sibling
 * `memory-worktrees/`. Pure path arithmetic plus agent-id validation.
 */
import { join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';

export interface AgentPaths {
  agentId: string;
  /** `$GITMEM_HOME/agents/<id>` */
  agentDir: string;
  /** The git repository root. */
  memoryDir: string;
  /** Sibling directory holding background writers' private worktrees. */
  worktreesDir: string;
}

const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * Throws INVALID_AGENT_ID unless `id` is a safe single path segment.
 * @example assertAgentId('agent-1') // ok;  assertAgentId('../x') // throws
 */
export function assertAgentId(id: string): string {
  if (!AGENT_ID.test(id) || id.includes('..')) {
    throw new MemoryError(
      'INVALID_AGENT_ID',
      `invalid agent id ${JSON.stringify(id)}: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit`,
      { data: { agentId: id } },
    );
  }
  return id;
}

/**
 * Paths of one agent under a gitmem home.
 * @example agentPaths('/home/me/.gitmem', 'a1').memoryDir === '/home/me/.gitmem/agents/a1/memory'
 */
export function agentPaths(home: string, agentId: string): AgentPaths {
  assertAgentId(agentId);
  const agentDir = join(resolve(home), 'agents', agentId);
  return { agentId, agentDir, memoryDir: join(agentDir, 'memory'), worktreesDir: join(agentDir, 'memory-worktrees') };
}
