/**
 * `gitmem/anthropic`: Anthropic's memory tool (`memory_20250818`) backed by a gitmem repository, and the system
 * prompt worded for it. The model sees exactly the text it wrote (a markdown file stored with frontmatter it did
 * not write shows without it), and a call answers as the SDK's own filesystem tool does. Loads no SDK code itself:
 * pass the handlers to `betaMemoryTool` from `@anthropic-ai/sdk` (an optional peer dependency).
 */
export { createAnthropicMemoryHandlers, type AnthropicMemory, type AnthropicMemoryOptions } from './handlers.js';
export { anthropicSystemPrompt, type AnthropicPromptMemory, type AnthropicPromptOptions } from './prompt.js';
export { AnthropicToolError, describeText } from './semantics.js';
