/**
 * One reflection run end to end: gate (parent clean, payload present) → private
 * worktree → sub-agent (confined file tools + sandboxed shell) → finalize → cursor, recompile, run log.
 * It is the body of a background memory writer; callers that must not block start it and do not await it.
 */
import { rmSync } from 'node:fs';
import type { MemoryErrorCode } from '../errors.js';
import { describeModel } from '../llm/provider.js';
import type { SubAgentRun } from '../llm/sub-agent.js';
import { discardWorktree } from '../worktree/cleanup.js';
import { finishReflection } from './finish.js';
import { prepareReflection, type PreparedReflection } from './prepare.js';
import type { ReflectionResult, ReflectionRunOptions } from './run-types.js';
import { runWriterAgent } from './writer-agent.js';

async function runAgent(
  o: ReflectionRunOptions,
  p: PreparedReflection,
): Promise<{ run?: SubAgentRun; error?: string; errorCode?: MemoryErrorCode }> {
  o.onProgress?.({
    phase: 'reflecting',
    message: `Reflecting on ${o.multi ? o.multi.reviewed : `${o.conversationId} lines ${p.lines.from}-${p.lines.to}`} with ${describeModel(o.model)}…`,
  });
  const task = { wt: p.wt, system: p.system, prompt: p.prompt, transcriptPath: p.payloadPath };
  const end = await runWriterAgent(o, { ...task, onStep: (message) => o.onProgress?.({ phase: 'step', message }) });
  return end.error ? { run: end.run, error: end.error.message, errorCode: end.error.code } : { run: end.run };
}

/**
 * Runs one reflection over the unreflected part of a conversation and resolves to its result. Skips (no
 * throw) on `parent_dirty` and `no_payload`; throws for infrastructure failures (no sandbox, git broken),
 * after cleaning up what it created.
 * @example
 *   const r = await runReflection({ home, agentId: 'a1', conversationId: 'default', model, env: process.env, git });
 *   if (r.launched) console.log(r.status, r.usage.totalTokens);
 */
export async function runReflection(o: ReflectionRunOptions): Promise<ReflectionResult> {
  const startedAt = (o.clock ?? (() => new Date()))();
  const t0 = Date.now();
  o.onProgress?.({ phase: 'preparing', message: `Preparing reflection for ${o.agentId} (${o.conversationId})…` });
  const prepared = await prepareReflection(o);
  if ('skip' in prepared) return prepared.skip;
  let end: Awaited<ReturnType<typeof runAgent>>;
  try {
    end = await runAgent(o, prepared);
  } catch (err) {
    await discardWorktree(prepared.wt, o.git).catch(() => undefined);
    rmSync(prepared.payloadPath, { force: true });
    throw err;
  }
  const result = await finishReflection(o, prepared, { ...end, model: describeModel(o.model), startedAt, t0 });
  o.onProgress?.({ phase: 'done', message: result.message });
  return result;
}
