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
    'Usage: gitmem prompt [--mode MODE] [--preset ID | --template FILE] [--surface SURFACE] [--agent ID] [--json]',
    '  Compiled from HEAD only: uncommitted edits are not included.',
    '  --template FILE (- for stdin): your own raw prompt in place of the preset; every {CORE_MEMORY} in it becomes',
    '  the memory, else the memory is appended after a blank line.',
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
    const surface = (ctx.option('surface') ?? DEFAULT_PROMPT_SURFACE) as PromptSurface;
    const templateFile = ctx.option('template');
    if (templateFile !== undefined) {
      // Read before anything else so a missing file is the one error shown; the preset is the template's place.
      const template = await ctx.readText(templateFile);
      const given = ctx.option('preset');
      const prompt = await memory.compilePrompt({
        mode,
        surface,
        template,
        projectDir: ctx.cwd,
        ...(given ? { preset: given } : {}),
      });
      return ctx.print({ mode, template: templateFile, surface, prompt }, prompt);
    }
    const preset = ctx.option('preset') ?? 'default';
    const prompt = await memory.compilePrompt({ mode, preset, surface, projectDir: ctx.cwd });
    ctx.print({ mode, preset, surface, prompt }, prompt);
  },
};
