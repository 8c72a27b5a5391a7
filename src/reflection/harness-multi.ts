/**
 * A harness-started reflection over several conversations (`reflectMany`, or the post-turn trigger after
 * every K successful single runs): the manifest built as a dream builds it, then one reflection run handed
 * it. Loaded at the first such launch, like run.ts.
 */
import { MemoryError } from '../errors.js';
import { MULTI_INSTRUCTION, stageMulti } from './dream-multi.js';
import type { MultiSelectionRequest } from './multi-selection.js';
import { runReflection } from './run.js';
import type { ReflectionResult, ReflectionRunOptions } from './run-types.js';

/**
 * Builds the manifest and runs; a selection that found nothing is `no_payload`, one that failed throws.
 * @example await runMultiReflection({ ...runOptions, conversationId: 'multi' }, { recent: 5 })
 */
export async function runMultiReflection(
  o: ReflectionRunOptions & { agentDir: string; cwd?: string },
  sel: MultiSelectionRequest,
): Promise<ReflectionResult> {
  const { agentDir, cwd, ...run } = o;
  const staged = await stageMulti(
    {
      home: o.home,
      env: o.env,
      cwd: cwd ?? process.cwd(),
      git: o.git,
      launch: o.launch,
      instruction: o.instruction,
      maxRetries: o.maxRetries,
      onWarning: o.onWarning,
    },
    { agentId: o.agentId, agentDir },
    sel,
    o.model,
  );
  if ('result' in staged) {
    const r = staged.result;
    if (r.reason === 'no_payload')
      return { launched: false, reason: 'no_payload', conversationId: 'multi', message: r.message };
    throw new MemoryError(r.error?.code ?? 'INVALID_ARGUMENT', r.message);
  }
  const instruction = [MULTI_INSTRUCTION, o.instruction].filter(Boolean).join('\n\n');
  return runReflection({ ...run, conversationId: 'multi', multi: staged.multi, instruction });
}
