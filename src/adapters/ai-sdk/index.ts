/**
 * `gitmem/ai-sdk`: gitmem for the Vercel AI SDK — the memory tools as `tool()`s, and `withMemory`, a
 * language-model middleware that brings the compiled memory prompt, the transcript, post-turn sync and
 * reflection to any model.
 */
export { memoryTools, MEMORY_TOOL_NAMES, type MemoryToolName, type ToolsMemory } from './tools.js';
export {
  memoryMiddleware,
  withMemory,
  type AfterTurn,
  type MemoryMiddleware,
  type MiddlewareMemory,
  type WithMemoryOptions,
} from './middleware.js';
