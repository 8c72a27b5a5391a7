/**
 * The compiled system prompt as an MCP prompt (`system_prompt`, arguments `mode`, `preset` and `surface`), so
 * a client can put the agent's memory in front of a conversation without a tool call. Its wording speaks of
 * the memory tools this server serves (surface `tools`) unless the client names another surface.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { isMemoryError, MEMORY_MODES, type Memory, type MemoryMode } from '../index.js';
import { PROMPT_SURFACES, TOOLS_PROMPT_SURFACE, type PromptSurface } from '../internals.js';

/** The surface a model served by this server works on: the memory tools, no shell. */
export const MCP_PROMPT_SURFACE: PromptSurface = TOOLS_PROMPT_SURFACE;

const ARGUMENTS = ['mode', 'preset', 'surface'];

const PROMPT = {
  name: 'system_prompt',
  title: 'Memory system prompt',
  description:
    "The agent's system prompt compiled from its committed memory (system/ blocks, the memory tree, the memory rules).",
  arguments: [
    {
      name: 'mode',
      description: `${MEMORY_MODES.join(' | ')}; default: memfs with a remote, else local-memfs`,
      required: false,
    },
    { name: 'preset', description: 'gitmem (default) | concise | plain', required: false },
    {
      name: 'surface',
      description: `${PROMPT_SURFACES.join(' | ')}: the tools the wording speaks of; default ${MCP_PROMPT_SURFACE} (this server's memory tools)`,
      required: false,
    },
  ],
};

/** A refusal of one of the prompt's arguments (an unknown mode, preset or surface). */
const badArgument = (err: unknown): err is Error =>
  isMemoryError(err, 'UNKNOWN_MODE') ||
  isMemoryError(err, 'UNKNOWN_PRESET') ||
  (isMemoryError(err, 'INVALID_ARGUMENT') && err.data['field'] === 'surface');

const invalid = (message: string): Error => Object.assign(new Error(message), { code: ErrorCode.InvalidParams });

/** Serves prompts/list and prompts/get on `server`. */
export function servePrompts(server: Server, memory: Memory): void {
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: [PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    if (req.params.name !== PROMPT.name)
      throw invalid(
        `Invalid params for prompts/get: unknown prompt '${req.params.name.slice(0, 80)}' (prompts: ${PROMPT.name})`,
      );
    const args = req.params.arguments ?? {};
    const unknown = Object.keys(args).find((k) => !ARGUMENTS.includes(k));
    if (unknown !== undefined)
      throw invalid(
        `Invalid params for prompts/get: unknown argument '${unknown.slice(0, 80)}' (arguments: ${ARGUMENTS.join(', ')})`,
      );
    try {
      const text = await memory.compilePrompt({
        mode: (args['mode'] ?? memory.defaultPromptMode()) as MemoryMode,
        surface: (args['surface'] ?? MCP_PROMPT_SURFACE) as PromptSurface,
        ...(args['preset'] !== undefined ? { preset: args['preset'] } : {}),
      });
      return {
        description: PROMPT.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
      };
    } catch (err) {
      if (badArgument(err)) throw invalid(`Invalid params for prompts/get: ${err.message}`);
      throw err;
    }
  });
}
