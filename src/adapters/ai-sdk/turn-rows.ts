/**
 * What a turn of an AI SDK conversation adds to the transcript: the prompt messages the model had not seen
 * recorded yet, and the final step's output, as transcript rows (a tool call paired with its result). Pure.
 */
import type { LanguageModelMiddleware } from 'ai';
import type { TranscriptRowInput } from '../../reflection/transcripts.js';

export type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
export type PromptMessage = CallOptions['prompt'][number];
type GenerateResult = Awaited<ReturnType<NonNullable<LanguageModelMiddleware['wrapGenerate']>>>;
export type OutputPart = GenerateResult['content'][number];

/** A tool result's output as text. */
function outputText(output: unknown): { text: string; ok: boolean } {
  const o = output as { type?: string; value?: unknown };
  const ok = !(typeof o.type === 'string' && o.type.startsWith('error'));
  return { text: typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? output), ok };
}

const argsText = (input: unknown): string => (typeof input === 'string' ? input : JSON.stringify(input));

/** Rows for `messages` (system messages left out: the compiled prompt is not part of the conversation). */
export function rowsOfMessages(messages: readonly PromptMessage[]): TranscriptRowInput[] {
  const rows: TranscriptRowInput[] = [];
  const calls = new Map<string, { name: string; args: string }>();
  for (const m of messages) {
    if (m.role === 'system') continue;
    if (m.role === 'user') {
      const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
      if (text !== '') rows.push({ kind: 'user', text });
      continue;
    }
    if (m.role === 'assistant') {
      for (const p of m.content) {
        if (p.type === 'text' && p.text !== '') rows.push({ kind: 'assistant', text: p.text });
        if (p.type === 'reasoning' && p.text !== '') rows.push({ kind: 'reasoning', text: p.text });
        if (p.type === 'tool-call') calls.set(p.toolCallId, { name: p.toolName, args: argsText(p.input) });
      }
      continue;
    }
    for (const p of m.content) {
      if (p.type !== 'tool-result') continue;
      const call = calls.get(p.toolCallId);
      const out = outputText(p.output);
      rows.push({
        kind: 'tool_call',
        name: p.toolName,
        argsText: call?.args ?? '',
        resultText: out.text,
        resultOk: out.ok,
      });
    }
  }
  return rows;
}

/** Rows for the final step's output. */
export function rowsOfOutput(content: readonly OutputPart[]): TranscriptRowInput[] {
  const rows: TranscriptRowInput[] = [];
  for (const p of content) {
    if (p.type === 'text' && p.text !== '') rows.push({ kind: 'assistant', text: p.text });
    if (p.type === 'reasoning' && p.text !== '') rows.push({ kind: 'reasoning', text: p.text });
  }
  return rows;
}

/**
 * The messages of `prompt` a turn adds after the first `seen` (non-system) ones; the previous turn's answer,
 * which the caller hands back first, was recorded already and is skipped.
 */
export function newMessages(prompt: readonly PromptMessage[], seen: number): PromptMessage[] {
  const conversation = prompt.filter((m) => m.role !== 'system');
  const fresh = conversation.slice(seen);
  let skip = 0;
  while (seen > 0 && skip < fresh.length && fresh[skip]?.role === 'assistant') skip++;
  return fresh.slice(skip);
}

/** How many non-system messages a prompt holds. */
export const conversationLength = (prompt: readonly PromptMessage[]): number =>
  prompt.filter((m) => m.role !== 'system').length;
