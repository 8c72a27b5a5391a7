/**
 * `anthropicSystemPrompt(memory)`: the system prompt for a model whose memory is Anthropic's memory tool — the
 * prompt compiled from the committed memory, worded for that one `memory` tool and its `/memories` paths.
 */
import type { Memory } from '../../memory.js';

/** The part of the Memory handle the prompt needs. */
export type AnthropicPromptMemory = Pick<Memory, 'compilePrompt'>;

/** The prompt's mode, preset and surface (default: the memory's mode, the default preset, surface `anthropic`). */
export type AnthropicPromptOptions = NonNullable<Parameters<Memory['compilePrompt']>[0]>;

/**
 * The compiled system prompt for a model using `betaMemoryTool(createAnthropicMemoryHandlers(memory))`: the same
 * commit gives the same text, so pass it once per conversation and the provider's prompt cache keeps hitting.
 * @example
 *   const system = await anthropicSystemPrompt(memory);
 *   await client.beta.messages.toolRunner({ model, max_tokens: 1024, system, tools: [betaMemoryTool(handlers)], messages });
 */
export function anthropicSystemPrompt(
  memory: AnthropicPromptMemory,
  options: AnthropicPromptOptions = {},
): Promise<string> {
  return memory.compilePrompt({ ...options, surface: options.surface ?? 'anthropic' });
}
