/**
 * The policy of a background memory writer (buildMemoryWriterPolicy): which parts of the gitmem home one agent's
 * writer sees and writes. Apart from policy.ts, whose general rules every confined process (writers, the
 * agent's shell) shares; this is one use of them.
 */
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { absolute, isWithin, normalizePolicy, type SandboxPolicy } from './policy.js';
import { SANDBOX_HOME } from './system-roots.js';

/** Inputs of {@link buildMemoryWriterPolicy}; every path must be absolute. */
export interface MemoryWriterPolicyOptions {
  gitmemHome: string;
  agentId: string;
  memoryDir: string;
  worktreesDir: string;
  /** gitmem's own state the writer must update (transcript cursors, logs). */
  stateDirs?: string[];
  extraWritable?: string[];
  allowNetwork?: boolean;
  /** The writer's own worktree: its `.git` link file is pinned read-only so it cannot be redirected. */
  worktreeDir?: string;
}

function checkAgent(o: MemoryWriterPolicyOptions, agentsRoot: string, memoryDir: string): void {
  const id = o.agentId;
  if (typeof id !== 'string' || id === '' || id === '.' || id === '..' || /[/\\\0]/.test(id)) {
    throw new MemoryError('INVALID_AGENT_ID', `invalid agent id ${JSON.stringify(id)} for the sandbox policy`, {
      data: { agentId: id },
    });
  }
  if (isWithin(agentsRoot, memoryDir) && !isWithin(join(agentsRoot, id), memoryDir)) {
    throw new MemoryError('INVALID_ARGUMENT', `memory dir ${memoryDir} does not belong to agent ${id}`, {
      data: { agentId: id, memoryDir },
    });
  }
}

function stateRoots(
  o: MemoryWriterPolicyOptions,
  home: string,
  agentsRoot: string,
): { plain: string[]; reopened: string[] } {
  const plain: string[] = [];
  const reopened: string[] = [];
  for (const raw of [...(o.stateDirs ?? []), ...(o.extraWritable ?? [])]) {
    const dir = absolute(raw, 'stateDirs');
    if (isWithin(agentsRoot, dir) && !isWithin(join(agentsRoot, o.agentId), dir)) {
      throw new MemoryError('INVALID_ARGUMENT', `writable root ${dir} lies inside another agent's directory`, {
        data: { root: dir },
      });
    }
    if (isWithin(dir, home)) {
      throw new MemoryError('INVALID_ARGUMENT', `writable root ${dir} would expose the whole gitmem home`, {
        data: { root: dir },
      });
    }
    (isWithin(home, dir) ? reopened : plain).push(dir);
  }
  return { plain, reopened };
}

/**
 * The policy for a background memory writer: the whole gitmem home is hidden (every agent, the credentials
 * file); the worker's own memory checkout comes back read-only, with its common `.git` writable (worktree
 * commits land there) except the hooks and config (code the primary agent would run), and its worktrees
 * directory writable; gitmem's state dirs, an empty home and a private /tmp are writable; the network is
 * off unless asked for. Nothing else of the host is visible but the runtime the launcher adds.
 * @example
 *   buildMemoryWriterPolicy({ gitmemHome: '/h', agentId: 'a1', memoryDir: '/h/agents/a1/memory',
 *     worktreesDir: '/h/agents/a1/memory-worktrees' }).deniedRoots // ['/h']
 */
export function buildMemoryWriterPolicy(o: MemoryWriterPolicyOptions): SandboxPolicy {
  const home = absolute(o.gitmemHome, 'gitmemHome');
  const agentsRoot = join(home, 'agents');
  const memoryDir = absolute(o.memoryDir, 'memoryDir');
  const worktreesDir = absolute(o.worktreesDir, 'worktreesDir');
  checkAgent(o, agentsRoot, memoryDir);
  const gitDir = join(memoryDir, '.git');
  const state = stateRoots(o, home, agentsRoot);
  const reopenedRoots: SandboxPolicy['reopenedRoots'] = [
    { path: memoryDir, writable: false },
    { path: gitDir, writable: true },
    { path: join(gitDir, 'hooks'), writable: false },
    { path: join(gitDir, 'config'), writable: false },
    { path: worktreesDir, writable: true },
    ...state.reopened.map((path) => ({ path, writable: true, create: true })),
  ];
  if (o.worktreeDir !== undefined) {
    const wt = absolute(o.worktreeDir, 'worktreeDir');
    if (!isWithin(worktreesDir, wt)) {
      throw new MemoryError('INVALID_ARGUMENT', `worktree ${wt} is not inside ${worktreesDir}`, {
        data: { worktreeDir: wt },
      });
    }
    reopenedRoots.push({ path: join(wt, '.git'), writable: false });
  }
  return normalizePolicy({
    readonlyRoots: [],
    writableRoots: state.plain,
    deniedRoots: [home],
    reopenedRoots,
    allowNetwork: o.allowNetwork === true,
    privateTmp: true,
    emptyHome: SANDBOX_HOME,
  });
}
