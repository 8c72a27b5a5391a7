/**
 * The multi-conversation half of a dream (`--recent N`, `--conversation X…`, `--auto`): the selection
 * checked, external sources staged, for `--auto` the candidate catalogue written and the selector asked, and
 * the manifest built. The run itself is the single dream's (dream.ts), handed the manifest as its payload.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageModel } from 'ai';
import { MemoryError, toMemoryError } from '../errors.js';
import { runSubAgent } from '../llm/sub-agent.js';
import type { DreamOptions, DreamResult } from './dream-types.js';
import {
  buildMultiPayload,
  type MultiPayload,
  type MultiSelection,
  type SelectedConversation,
} from './multi-payload.js';
import { buildCandidates, MAX_SELECTED, parseSelection } from './multi-select.js';
import type { MultiSelectionRequest } from './multi-selection.js';
import { parseFromSpec, stageSource } from './sources/index.js';
import { conversationKey, hasTranscript, listConversations } from './transcripts.js';

/** Told to the sub-agent on top of the reflection prompt: the payload is a manifest, not one transcript. */
const MULTI_INSTRUCTION = `This reflection covers several conversations. The transcript file is a JSON manifest of type
"multi_transcript_reflection_payload": each entry of "slices" is one conversation, with its "messages". A slice
with mode "unreflected" is new; mode "replay" was reflected on before and is shown again for context. Consolidate
what recurs across conversations; do not record the same fact once per conversation.`;

const SELECTOR_SYSTEM = `You choose which past conversations a memory reflection should review. You do not edit
memory and you use no tools. Answer with JSON only, exactly:
{"selected_conversations":[{"conversation_id":"<id from the catalogue>","reason":"<why>","priority":"high|medium|low"}]}`;

/** A conversation id or a transcript source, as the stored conversation it names (sources are staged). */
function resolveConversation(agentDir: string, value: string, cwd: string): string {
  const spec = parseFromSpec(value);
  if (spec.type === 'conversation') {
    if (!hasTranscript(agentDir, spec.conversationId))
      throw new MemoryError('FILE_NOT_FOUND', `no transcript for conversation "${spec.conversationId}"`, {
        data: { conversationId: spec.conversationId },
      });
    return conversationKey(spec.conversationId);
  }
  return stageSource(value, { agentDir, cwd }).conversationId;
}

async function selectAuto(
  o: DreamOptions,
  agentDir: string,
  model: LanguageModel,
): Promise<{ ids: string[]; selection: MultiSelection }> {
  const catalogue = buildCandidates(agentDir, o.currentConversation ? { current: o.currentConversation } : {});
  const dir = join(agentDir, 'multi-reflection-payloads', `auto-${Date.now().toString(36)}`);
  const candidatesPath = join(dir, 'candidates.json');
  mkdirSync(join(dir, 'selector'), { recursive: true }); // the selector's tools see an empty directory
  writeFileSync(candidatesPath, `${JSON.stringify(catalogue, null, 2)}\n`);
  if (catalogue.candidates.length === 0) return { ids: [], selection: autoSelection([], candidatesPath) };
  o.onProgress?.(`Asking the selector to choose among ${catalogue.candidates.length} conversation(s)…`);
  const run = await runSubAgent({
    model,
    system: SELECTOR_SYSTEM,
    prompt: `Choose at most ${MAX_SELECTED} conversations worth reflecting on${o.instruction ? ` (the user asks: ${o.instruction})` : ''}.\n\n${JSON.stringify(catalogue, null, 1)}`,
    root: join(dir, 'selector'),
    limits: { maxSteps: 2, timeoutMs: 5 * 60_000 },
    maxRetries: o.maxRetries,
    onWarning: o.onWarning,
  });
  const ids = catalogue.candidates.map((c) => c.conversation_id);
  const selected = parseSelection(run.text, ids, catalogue.max_selected);
  return { ids: selected.map((s) => s.conversation_id), selection: autoSelection(selected, candidatesPath) };
}

function autoSelection(selections: SelectedConversation[], path: string): MultiSelection {
  return { policy: 'auto-selected', selections, candidates_path: path };
}

type Staged = { conversationId: string; multi: MultiPayload; extra: Partial<DreamResult> } | { result: DreamResult };

/**
 * Picks the conversations, stages external ones and builds the manifest (nothing to show: `no_payload`).
 * @example const s = await stageMulti(o, { agentId, agentDir }, { recent: 3 }, model)
 */
export async function stageMulti(
  o: DreamOptions,
  v: { agentId: string; agentDir: string },
  sel: MultiSelectionRequest,
  model: LanguageModel,
): Promise<Staged> {
  const base = { launched: false, success: false, agentId: v.agentId, conversationId: 'multi' };
  let ids: string[];
  let selection: MultiSelection;
  try {
    if ('recent' in sel) {
      ids = listConversations(v.agentDir).slice(0, sel.recent);
      selection = { policy: 'recent', limit: sel.recent };
    } else if ('conversations' in sel) {
      ids = [...new Set(sel.conversations.map((c) => resolveConversation(v.agentDir, c, o.cwd)))];
      selection = { policy: 'explicit-conversations', conversation_ids: ids };
    } else ({ ids, selection } = await selectAuto(o, v.agentDir, model));
  } catch (err) {
    const e = toMemoryError(err);
    const message = `Failed to select conversations: ${e.message}`;
    return { result: { ...base, reason: 'source_error', error: { code: e.code, message }, message } };
  }
  const multi = buildMultiPayload({
    agentDir: v.agentDir,
    agentId: v.agentId,
    conversationIds: ids,
    selection,
    instruction: o.instruction,
    ...(o.multiBudgetChars ? { budgetChars: o.multiBudgetChars } : {}),
  });
  if (!multi) return { result: { ...base, reason: 'no_payload', message: 'No transcript content to reflect on.' } };
  o.onProgress?.(`Reflecting over ${multi.manifest.slices.length} conversation(s); manifest ${multi.manifestPath}`);
  const extra: Partial<DreamResult> = {
    manifestPath: multi.manifestPath,
    slices: multi.manifest.slices,
    ...(multi.manifest.skipped.length ? { skippedConversations: multi.manifest.skipped } : {}),
    ...(selection.policy === 'auto-selected' ? { candidatesPath: selection.candidates_path } : {}),
  };
  return { conversationId: 'multi', multi, extra };
}

export { MULTI_INSTRUCTION };
export type { MultiSelectionRequest };
