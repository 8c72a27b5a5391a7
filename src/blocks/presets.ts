/**
 * The table of base system prompts ("presets") and the rule that picks one text for a memory mode.
 * The table itself is pure data; texts are read through prompt-assets, and a text's `{{piece}}` slots are
 * filled with the wording of the surface the model works on (prompt-surfaces.ts).
 */
import { MemoryError } from '../errors.js';
import { loadPromptAsset } from './prompt-assets.js';
import { DEFAULT_PROMPT_SURFACE, fillPieces, surfaceWording, type PromptSurface } from './prompt-surfaces.js';

/** `standard`: memory blocks only; `memfs`: a git memory the harness syncs to a remote; `local-memfs`: local only. */
export type MemoryMode = 'standard' | 'memfs' | 'local-memfs';

/** The prompt modes: `standard` (memory blocks), `memfs` (a git-synced memory), `local-memfs` (no remote). */
export const MEMORY_MODES: readonly MemoryMode[] = ['standard', 'memfs', 'local-memfs'];

/** The preset used when none is named. */
export const DEFAULT_PRESET_ID = 'default';

/** A base prompt; `variants` name files under prompts/ (`content` is the base text). */
export interface PromptPreset {
  id: string;
  label: string;
  description: string;
  variants: Partial<Record<'content' | 'memfs' | 'local-memfs', string>>;
}

const MEMFS_VARIANTS = {
  content: 'gitmem_standard.md',
  memfs: 'gitmem_memfs.md',
  'local-memfs': 'gitmem_local_memfs.md',
} as const;

const PRESETS: readonly PromptPreset[] = [
  {
    id: 'default',
    label: 'Default',
    description: 'Alias for gitmem',
    variants: MEMFS_VARIANTS,
  },
  {
    id: 'gitmem',
    label: 'gitmem',
    description: 'A coding agent whose memory is a git repository of markdown files',
    variants: MEMFS_VARIANTS,
  },
  {
    id: 'concise',
    label: 'Concise',
    description: 'A short prompt with the memory rules in a few lines (one text for every mode)',
    variants: { content: 'concise.md' },
  },
  {
    id: 'plain',
    label: 'Plain',
    description: 'A plain coding assistant with no memory guidance (for comparisons)',
    variants: { content: 'plain.md' },
  },
];

/**
 * Every preset, in display order (copies: callers may not mutate the table).
 * @example listPresets().map((p) => p.id) // ['default', 'gitmem', 'concise', 'plain']
 */
export function listPresets(): PromptPreset[] {
  return PRESETS.map((p) => ({ ...p, variants: { ...p.variants } }));
}

/**
 * True when `id` names a preset.
 * @example isPresetId('gitmem') === true
 */
export function isPresetId(id: string): boolean {
  return PRESETS.some((p) => p.id === id);
}

/**
 * Throws UNKNOWN_MODE unless `mode` is one of the three memory modes.
 * @example assertMemoryMode('memfs')
 */
export function assertMemoryMode(mode: string): asserts mode is MemoryMode {
  if (!(MEMORY_MODES as readonly string[]).includes(mode)) {
    throw new MemoryError(
      'UNKNOWN_MODE',
      `Unknown memory mode "${mode}" — expected one of: ${MEMORY_MODES.join(', ')}`,
      {
        data: { mode },
      },
    );
  }
}

/**
 * Which variant file a (preset, mode) pair uses: `local-memfs` → local-memfs, memfs, content; `memfs` →
 * memfs, content; `standard` → content.
 * @example presetVariantFile('concise', 'memfs') === 'concise.md'
 */
export function presetVariantFile(presetId: string, mode: MemoryMode): string {
  const preset = PRESETS.find((p) => p.id === presetId);
  if (preset === undefined) {
    throw new MemoryError('UNKNOWN_PRESET', `Unknown preset "${presetId}" — cannot rebuild system prompt`, {
      data: { preset: presetId, known: PRESETS.map((p) => p.id) },
    });
  }
  assertMemoryMode(mode);
  const v = preset.variants;
  const order =
    mode === 'local-memfs'
      ? [v['local-memfs'], v.memfs, v.content]
      : mode === 'memfs'
        ? [v.memfs, v.content]
        : [v.content];
  const file = order.find((f) => f !== undefined);
  if (file === undefined) {
    throw new MemoryError('INTERNAL', `preset "${presetId}" has no text for mode ${mode}`, {
      data: { preset: presetId, mode },
    });
  }
  return file;
}

/**
 * The trimmed base prompt for a preset in a memory mode, worded for `surface` (default `shell`). Unknown
 * preset ⇒ UNKNOWN_PRESET (a stale id must never silently become another prompt); unknown mode ⇒
 * UNKNOWN_MODE; unknown surface ⇒ INVALID_ARGUMENT.
 * @example buildPresetPrompt('default', 'local-memfs') === buildPresetPrompt('gitmem', 'local-memfs')
 */
export function buildPresetPrompt(
  presetId: string,
  mode: MemoryMode,
  surface: PromptSurface = DEFAULT_PROMPT_SURFACE,
): string {
  const wording = surfaceWording(surface);
  return fillPieces(loadPromptAsset(presetVariantFile(presetId, mode)).trim(), wording.pieces(mode === 'memfs'));
}
