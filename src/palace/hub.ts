/**
 * The agents of one home as the palace serves them: a Memory handle per agent (opened on first use, the
 * same handle every surface uses), the tree index of each commit asked for (immutable, so cached by id),
 * and one `memory.watch()` per watched agent fanned out to every open page.
 */
import { join } from 'node:path';
import {
  createMemory,
  isMemoryError,
  listAgents,
  MemoryError,
  type Memory,
  type MemoryUpdatedEvent,
} from '../index.js';
import type { Launcher } from '../internals.js';
import type { UpdateEvent } from './api-types.js';
import { buildTreeIndex, type TreeIndex } from './tree-index.js';

/** Tree indexes kept per agent (the timeline moves between commits; each is a few MB at 10,000 files). */
const CACHED_TREES = 6;

export interface HubOptions {
  home: string;
  env: Record<string, string | undefined>;
  launch?: Launcher;
}

/** One agent's memory as the server uses it. */
export class AgentView {
  readonly agentDir: string;
  private readonly trees = new Map<string, Promise<TreeIndex>>();
  private readonly listeners = new Set<(e: UpdateEvent) => void>();
  private watcher: ReturnType<Memory['watch']> | undefined;
  private counted: { head: string; commits: Promise<number> } | undefined;

  constructor(
    readonly agent: string,
    readonly memory: Memory,
    home: string,
  ) {
    this.agentDir = join(home, 'agents', agent);
  }

  /** HEAD's commit id, or null before the first commit. */
  async head(): Promise<string | null> {
    try {
      return await this.memory.resolve('HEAD');
    } catch (err) {
      if (isMemoryError(err, 'UNKNOWN_REVISION')) return null;
      throw err;
    }
  }

  /** The commit `at` names (HEAD when absent); null only for HEAD of an empty repository. */
  async commitOf(at: string | undefined): Promise<string | null> {
    if (at === undefined || at === '') return this.head();
    return this.memory.resolve(at);
  }

  /** The directory index of one commit (cached). */
  tree(commit: string | null): Promise<TreeIndex> {
    if (commit === null) return Promise.resolve(buildTreeIndex(null, []));
    let found = this.trees.get(commit);
    if (found) {
      this.trees.delete(commit);
      this.trees.set(commit, found); // most recently used last
      return found;
    }
    found = this.memory.files({ at: commit }).then((r) => buildTreeIndex(r.commit, r.files));
    found.catch(() => this.trees.delete(commit as string));
    this.trees.set(commit, found);
    while (this.trees.size > CACHED_TREES) this.trees.delete(this.trees.keys().next().value as string);
    return found;
  }

  /** Commits reachable from `head` (counted once per head). */
  commitCount(head: string | null): Promise<number> {
    if (head === null) return Promise.resolve(0);
    if (this.counted?.head !== head) {
      const commits = this.memory.countCommits(head);
      this.counted = { head, commits };
    }
    return this.counted.commits;
  }

  /** Calls `fn` for every move of main until the returned function is called. */
  subscribe(fn: (e: UpdateEvent) => void): () => void {
    this.listeners.add(fn);
    if (!this.watcher) {
      this.watcher = this.memory.watch({ pollMs: 500 });
      this.watcher.on('memory_updated', (e: MemoryUpdatedEvent) => {
        const event: UpdateEvent = { ...e, agent: this.agent };
        for (const l of [...this.listeners]) l(event);
      });
      this.watcher.on('error', () => undefined); // looked at again on the next poll
    }
    return () => {
      this.listeners.delete(fn);
      if (this.listeners.size === 0) this.stopWatching();
    };
  }

  /** Resolves once the watcher knows the head it starts from (tests wait for it before writing). */
  async watching(): Promise<void> {
    await this.watcher?.ready;
  }

  stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }
}

/** Every agent of the home, opened on demand. */
export class PalaceHub {
  private readonly open = new Map<string, Promise<AgentView>>();

  constructor(private readonly options: HubOptions) {}

  get home(): string {
    return this.options.home;
  }

  /** The agents that have a memory repository in the home. */
  agents(): string[] {
    return listAgents(this.options.home).map((a) => a.agentId);
  }

  /** One agent's view; INVALID_AGENT_ID / MEMORY_DIR_MISSING when the home has no such agent. */
  agent(agent: string): Promise<AgentView> {
    let found = this.open.get(agent);
    if (!found) {
      if (!this.agents().includes(agent)) {
        return Promise.reject(
          new MemoryError('MEMORY_DIR_MISSING', `the home has no agent ${JSON.stringify(agent.slice(0, 130))}`, {
            data: { agentId: agent.slice(0, 130) },
          }),
        );
      }
      const { home, env, launch } = this.options;
      found = createMemory({ home, agentId: agent, env, launch }).then((m) => new AgentView(agent, m, home));
      found.catch(() => this.open.delete(agent));
      this.open.set(agent, found);
    }
    return found;
  }

  /** Stops every watcher. */
  async close(): Promise<void> {
    for (const p of this.open.values()) (await p.catch(() => undefined))?.stopWatching();
  }
}
