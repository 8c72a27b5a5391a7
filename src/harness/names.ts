/**
 * The checks of connect's and disconnect's inputs: a harness from the catalogue, a scope, an agent
 * that has a memory under the home. Each refusal is one line naming what would be accepted.
 */
import { assertAgentId, listHomeAgents, MemoryError } from '../internals.js';
import { HARNESS_IDS, SCOPES, type HarnessId, type Scope } from './catalogue.js';

/**
 * The catalogue's harness called `name`; INVALID_ARGUMENT listing the names otherwise.
 * @example harnessNamed('codex') === 'codex'
 */
export function harnessNamed(name: string | undefined): HarnessId {
  const found = HARNESS_IDS.find((id) => id === name);
  if (found) return found;
  const what = name === undefined || name === '' ? 'no harness given' : `unknown harness ${JSON.stringify(name)}`;
  throw new MemoryError('INVALID_ARGUMENT', `${what}: use one of ${HARNESS_IDS.join(', ')}`, {
    data: { harnesses: HARNESS_IDS },
  });
}

/** `--scope`: user (default) or project. */
export function scopeNamed(value: string | undefined): Scope {
  if (value === undefined) return 'user';
  const found = SCOPES.find((s) => s === value);
  if (found) return found;
  throw new MemoryError('INVALID_ARGUMENT', `--scope must be ${SCOPES.join(' or ')}, not ${JSON.stringify(value)}`);
}

/**
 * Refuses a home without any agent (run `gitmem init` first) and an `agent` that has no memory there.
 * Returns the home's agents.
 */
export function checkAgent(home: string, agent: string | undefined): string[] {
  const agents = listHomeAgents(home).map((a) => a.agentId);
  if (agents.length === 0) {
    throw new MemoryError('NO_MEMORY_DIR', `${home} has no agent yet: run \`gitmem init\` first, then connect`, {
      data: { home },
    });
  }
  if (agent !== undefined) {
    assertAgentId(agent);
    if (!agents.includes(agent)) {
      throw new MemoryError(
        'MEMORY_DIR_MISSING',
        `agent ${JSON.stringify(agent)} has no memory in ${home} (agents: ${agents.join(', ')}); run \`gitmem init --agent ${agent}\` first`,
        {
          data: { home, agents },
        },
      );
    }
  }
  return agents;
}
