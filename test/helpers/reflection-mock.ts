// A scripted AI SDK mock model for reflection/dream tests: each turn is tool calls, a final text, or a
// function run first (to act as the primary agent mid-run, or to wait on a gate).
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export type Call = { name: string; input: unknown };
export type Turn = { text: string } | { calls: Call[] } | (() => Promise<Turn> | Turn);

export function usage(input: number, output: number): LanguageModelV3GenerateResult['usage'] {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

/** Each step reports 1,000 input and 50 output tokens unless told otherwise. */
export function scripted(turns: Turn[], perStep = { input: 1000, output: 50 }): MockLanguageModelV3 {
  let i = 0;
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'reflector',
    doGenerate: async () => {
      let turn: Turn = turns[i++] ?? { text: 'Nothing more to do.' };
      while (typeof turn === 'function') turn = await turn();
      const u = usage(perStep.input, perStep.output);
      if ('text' in turn)
        return {
          content: [{ type: 'text', text: turn.text }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage: u,
          warnings: [],
        };
      return {
        content: turn.calls.map((c, k) => ({
          type: 'tool-call' as const,
          toolCallId: `c${i}-${k}`,
          toolName: c.name,
          input: JSON.stringify(c.input),
        })),
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: u,
        warnings: [],
      };
    },
  });
}

/** Text of every tool result the model was sent in its last call. */
export function toolResults(model: MockLanguageModelV3): string[] {
  const out: string[] = [];
  for (const m of model.doGenerateCalls.at(-1)?.prompt ?? []) {
    if (m.role !== 'tool') continue;
    for (const part of m.content)
      if (part.type === 'tool-result' && part.output.type === 'text') out.push(part.output.value);
  }
  return out;
}

/** The system + user text of the model's first call. */
export function firstPrompt(model: MockLanguageModelV3): { system: string; user: string } {
  let system = '';
  let user = '';
  for (const m of model.doGenerateCalls[0]?.prompt ?? []) {
    if (m.role === 'system') system += m.content;
    if (m.role === 'user') for (const p of m.content) if (p.type === 'text') user += p.text;
  }
  return { system, user };
}

export const TRAILER_OF = (conv: string, from: number, to: number): string =>
  `Reviewed-Transcript: ${conv} lines ${from}-${to}`;

/** A shell command committing everything with `reason` and the trailer. */
export function commit(reason: string, trailer: string): Call {
  return {
    name: 'shell',
    input: {
      command: `git add -A && git commit -q -m ${JSON.stringify(reason)} -m ${JSON.stringify(trailer)} && git log -1 --format=%s`,
    },
  };
}
