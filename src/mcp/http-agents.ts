/**
 * The memories an MCP HTTP server serves: the default one (`/mcp`) and each agent of the home
 * (`/agents/<id>/mcp`), opened on first use and kept; a failed open is not kept, so an agent created
 * later is found.
 */
import { isMemoryError, type Memory } from '../index.js';

/** How a memory is opened: `undefined` = the default agent. */
export type OpenMemory = (agentId: string | undefined) => Promise<Memory>;

/** Why a route has no memory, as an HTTP status and one line. */
export interface NoMemory {
  status: number;
  code: string;
  message: string;
}

/** Codes that mean "no such agent here" rather than a fault. */
const NOT_FOUND = new Set(['MEMORY_DIR_MISSING', 'NOT_A_GIT_REPO', 'NO_MEMORY_DIR']);

/** The answer for an open that failed. */
export function noMemory(err: unknown, agentId: string | undefined): NoMemory {
  const who = agentId === undefined ? 'the default agent' : `agent ${JSON.stringify(agentId.slice(0, 128))}`;
  if (isMemoryError(err, 'INVALID_AGENT_ID'))
    return { status: 400, code: err.code, message: `invalid agent id: ${err.message}` };
  if (isMemoryError(err) && NOT_FOUND.has(err.code))
    return { status: 404, code: err.code, message: `no memory for ${who}: ${err.message}` };
  if (isMemoryError(err)) return { status: 500, code: err.code, message: `cannot open ${who}: ${err.message}` };
  return { status: 500, code: 'INTERNAL', message: `cannot open ${who}` };
}

/**
 * Memories by route, opened lazily.
 * @example const r = await agents.get('a1'); if ('memory' in r) use(r.memory)
 */
export class AgentMemories {
  private readonly cache = new Map<string, Promise<Memory>>();

  /** `agents: false` serves only the default memory (no home to find agents in). */
  constructor(
    private readonly open: OpenMemory,
    private readonly agents: boolean,
    initial?: Memory,
  ) {
    if (initial) this.cache.set('', Promise.resolve(initial));
  }

  /** The memory of a route, or why there is none. */
  async get(agentId: string | undefined): Promise<{ memory: Memory } | NoMemory> {
    if (agentId !== undefined && !this.agents)
      return { status: 404, code: 'NOT_FOUND', message: 'this server serves one memory, at /mcp' };
    const key = agentId === undefined ? '' : `agent:${agentId}`;
    let opening = this.cache.get(key);
    if (!opening) {
      opening = this.open(agentId);
      this.cache.set(key, opening);
      opening.catch(() => this.cache.delete(key));
    }
    try {
      return { memory: await opening };
    } catch (err) {
      return noMemory(err, agentId);
    }
  }
}
