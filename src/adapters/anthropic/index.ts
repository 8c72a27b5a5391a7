/**
 * `gitmem/anthropic`: Anthropic's memory tool (`memory_20250818`) backed by a gitmem repository. Loads no
 * SDK code itself: pass the handlers to `betaMemoryTool` from `@anthropic-ai/sdk` (an optional peer dependency).
 */
export { createAnthropicMemoryHandlers, type AnthropicMemory, type AnthropicMemoryOptions } from './handlers.js';
export { AnthropicToolError, describeText } from './semantics.js';
