/**
 * `gitmem defrag` as a library call: the defragmentation sub-agent run as a background writer, exactly as a
 * reflection is — refuse a dirty parent before anything exists, a private worktree with every directory
 * checked out, the sub-agent with confined file tools and the sandboxed shell, then its commits imported,
 * checked for dropped content (defrag-preserve.ts) and merged through the validated, markdown-aware merge
 * (defrag-settle.ts). Unlike a reflection it reads no transcript and moves no cursor.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { readSystemBudget } from '../hooks/budget-config.js';
import { describeModel } from '../llm/provider.js';
import { agentPaths } from '../memfs/layout.js';
import { DEFAULT_TREE_LIMITS } from '../blocks/tree-limits.js';
import { discardWorktree } from '../worktree/cleanup.js';
import { dirtyPaths } from '../worktree/inspect.js';
import { buildDefragPrompt } from './defrag-prompt.js';
import { settleDefrag } from './defrag-settle.js';
import type { DefragAgentEnd, DefragOptions, DefragResult, PreparedDefrag } from './defrag-types.js';
import { makeFullWorktree } from './prepare.js';
import { systemPromptFor } from './prompts.js';
import { assertReflectionSandbox } from './shell.js';
import { runWriterAgent } from './writer-agent.js';

async function prepareDefrag(o: DefragOptions): Promise<PreparedDefrag> {
  const { agentDir, memoryDir } = agentPaths(o.home, o.agentId);
  const dirty = await dirtyPaths(o.git, memoryDir);
  if (dirty.length > 0)
    throw new MemoryError(
      'REPO_DIRTY',
      'Parent memory has uncommitted changes; commit or discard them before defragmenting.',
      { data: { paths: dirty.slice(0, 20) } },
    );
  mkdirSync(join(agentDir, 'memory-worktrees'), { recursive: true });
  assertReflectionSandbox({
    gitmemHome: o.home,
    agentId: o.agentId,
    memoryDir,
    env: o.env,
    onWarning: o.onWarning,
  });
  const { wt, snap } = await makeFullWorktree(o.git, memoryDir, 'defrag');
  try {
    const system = o.systemPrompt ?? systemPromptFor('defragmentation');
    const systemChars = [...snap.markdown]
      .filter(([p]) => p.startsWith('system/'))
      .reduce((n, [, text]) => n + text.length, 0);
    const { prompt } = buildDefragPrompt(
      {
        snap,
        systemBudget: readSystemBudget(memoryDir, o.home),
        systemChars,
        treeLimits: o.treeLimits ?? DEFAULT_TREE_LIMITS,
        instruction: o.instruction,
      },
      system.length,
    );
    return { wt, agentDir, system, prompt };
  } catch (err) {
    await discardWorktree(wt, o.git).catch(() => undefined);
    throw err;
  }
}

async function runAgent(o: DefragOptions, p: PreparedDefrag): Promise<Omit<DefragAgentEnd, 'startedAt' | 't0'>> {
  const model = describeModel(o.model);
  o.onProgress?.(`Defragmenting the memory of ${o.agentId} with ${model}…`);
  const onStep = (message: string): void => o.onProgress?.(message);
  return { ...(await runWriterAgent(o, { wt: p.wt, system: p.system, prompt: p.prompt, onStep })), model };
}

/**
 * Runs one defragmentation to its outcome. Throws (before anything is created) REPO_DIRTY for a parent with
 * uncommitted changes and SANDBOX_UNAVAILABLE / SANDBOX_NESTED when it cannot be confined; every later
 * failure is an outcome (`failed`, `merge_conflict` with the branch kept, `content_dropped`, …).
 * @example const r = await runDefrag({ home, agentId: 'a1', model, env: process.env, git, launch, dryRun: true })
 */
export async function runDefrag(o: DefragOptions): Promise<DefragResult> {
  const startedAt = (o.clock ?? (() => new Date()))();
  const t0 = Date.now();
  o.onProgress?.(`Preparing a defragmentation of ${o.agentId}…`);
  const prepared = await prepareDefrag(o);
  let end: Omit<DefragAgentEnd, 'startedAt' | 't0'>;
  try {
    end = await runAgent(o, prepared);
  } catch (err) {
    await discardWorktree(prepared.wt, o.git).catch(() => undefined);
    throw err;
  }
  return settleDefrag(o, prepared, { ...end, startedAt, t0 });
}
