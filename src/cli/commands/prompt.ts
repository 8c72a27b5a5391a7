/** `gitmem prompt`: print the system prompt compiled from the committed memory. */
import { listPresets, MEMORY_MODES, type MemoryMode } from '../../index.js';
import { DEFAULT_PROMPT_SURFACE, PROMPT_SURFACES, surfaceWording, type PromptSurface } from '../../internals.js';
import type { CliCommand } from '../types.js';

const MODES: Record<MemoryMode, string> = {
  standard: 'the memory blocks only: no files, git or tree (for harnesses with their own memory tools)',
  memfs: 'a git memory the harness syncs with a remote after each turn',
  'local-memfs': 'a git memory that stays on this machine',
};

function usage(): string {
  const presets = listPresets().map((p) => `  ${p.id.padEnd(12)} ${p.description}`);
  const modes = MEMORY_MODES.map((m) => `  ${m.padEnd(12)} ${MODES[m]}`);
  const surfaces = PROMPT_SURFACES.map((s) => `  ${s.padEnd(12)} ${surfaceWording(s).summary}`);
  return [
    'Usage: gitmem prompt [--mode MODE] [--preset ID] [--surface SURFACE] [--agent ID] [--json]',
    '  Compiled from HEAD only: uncommitted edits are not included.',
    '  Default mode: memfs when the memory has a remote (gitmem remote set, or a clone), else local-memfs.',
    'Modes:',
    ...modes,
    'Presets (default: default):',
    ...presets,
    `Surfaces: which tools the wording speaks of (default: ${DEFAULT_PROMPT_SURFACE}; the MCP server and gitmem/ai-sdk use tools,`,
    '  gitmem/anthropic uses anthropic):',
    ...surfaces,
  ].join('\n');
}

export const command: CliCommand = {
  name: 'prompt',
  usage: usage(),
  async run(ctx) {
    const memory = await ctx.openMemory();
    const mode = (ctx.option('mode') ?? memory.defaultPromptMode()) as MemoryMode;
    const preset = ctx.option('preset') ?? 'default';
    const surface = (ctx.option('surface') ?? DEFAULT_PROMPT_SURFACE) as PromptSurface;
    const prompt = await memory.compilePrompt({ mode, preset, surface, projectDir: ctx.cwd });
    ctx.print({ mode, preset, surface, prompt }, prompt);
  },
};
