/**
 * `gitmem hook <harness> session-start`: the memory compiled from HEAD as the session's context, in the
 * JSON both harnesses read (`hookSpecificOutput.additionalContext`), never longer than the harness's cap on
 * hook output. The same commit gives the same bytes, so the harness's prompt cache holds across sessions;
 * the one exception is the first session after `connect` without a reflection model, which carries a line
 * saying how to turn reflection on (once per agent).
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Memory } from '../index.js';

/** Claude Code's cap on a hook's output string (longer output is replaced by a preview). */
export const HOOK_OUTPUT_CAP = 10_000;

export const REFLECTION_NOTICE =
  'Reflection after sessions is off for this memory: no model is configured. `gitmem config set model ' +
  '<provider:model>` turns it on; the sessions recorded meanwhile are reflected then.';

/** True the first time it is asked for an agent (an exclusive create: two sessions starting together agree). */
function firstNotice(agentDir: string): boolean {
  mkdirSync(join(agentDir, 'harness'), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(join(agentDir, 'harness', 'reflection-notice-shown'), 'wx', 0o600));
    return true;
  } catch {
    return false;
  }
}

/**
 * The hook's standard output: one JSON line whose whole text stays within {@link HOOK_OUTPUT_CAP}.
 * @example JSON.parse(await sessionStartOutput(memory, { agentDir, modelConfigured: true })).hookSpecificOutput.additionalContext
 */
export async function sessionStartOutput(
  memory: Memory,
  o: { agentDir: string; modelConfigured: boolean },
): Promise<string> {
  const notice = !o.modelConfigured && firstNotice(o.agentDir) ? REFLECTION_NOTICE : undefined;
  let maxChars = HOOK_OUTPUT_CAP;
  for (;;) {
    const context = await memory.compilePrompt({ surface: 'tools', maxChars, notice });
    const out = JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: context } });
    // JSON escapes (newlines, quotes) lengthen the line: shrink the context by what it went over.
    if (out.length <= HOOK_OUTPUT_CAP || maxChars <= 1_000) return out;
    maxChars -= out.length - HOOK_OUTPUT_CAP;
  }
}
