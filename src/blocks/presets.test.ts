import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { loadPromptAsset } from './prompt-assets.js';
import { buildPresetPrompt, isPresetId, listPresets, presetVariantFile, type MemoryMode } from './presets.js';
import { PROMPT_SURFACES } from './prompt-surfaces.js';

const MODES: MemoryMode[] = ['standard', 'memfs', 'local-memfs'];

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

describe('presets', () => {
  it('lists default (alias of gitmem), gitmem with three variants and single-content presets', () => {
    const presets = listPresets();
    expect(presets.map((p) => p.id)).toEqual(['default', 'gitmem', 'concise', 'plain']);
    const byId = Object.fromEntries(presets.map((p) => [p.id, p]));
    expect(Object.keys(byId['gitmem']?.variants ?? {}).sort()).toEqual(['content', 'local-memfs', 'memfs']);
    expect(byId['default']?.variants).toEqual(byId['gitmem']?.variants);
    expect(Object.keys(byId['concise']?.variants ?? {})).toEqual(['content']);
    presets[0]!.variants.content = 'mutated.md';
    expect(listPresets()[0]?.variants.content).toBe('gitmem_standard.md');
    expect(isPresetId('gitmem') && !isPresetId('letta')).toBe(true);
  });

  it('picks variants in fallback order: local-memfs → memfs → content; memfs → content; standard → content', () => {
    expect(presetVariantFile('gitmem', 'local-memfs')).toBe('gitmem_local_memfs.md');
    expect(presetVariantFile('gitmem', 'memfs')).toBe('gitmem_memfs.md');
    expect(presetVariantFile('gitmem', 'standard')).toBe('gitmem_standard.md');
    for (const mode of MODES) expect(presetVariantFile('concise', mode)).toBe('concise.md');
  });

  it('returns the trimmed text, identical for default and gitmem, distinct per mode', () => {
    const texts = MODES.map((m) => buildPresetPrompt('default', m));
    for (const [i, mode] of MODES.entries()) {
      expect(texts[i]).toBe(buildPresetPrompt('gitmem', mode));
      expect(texts[i]).toBe(texts[i]?.trim());
      expect(texts[i]?.length).toBeGreaterThan(500);
    }
    expect(new Set(texts).size).toBe(3);
    expect(buildPresetPrompt('plain', 'memfs')).toBe(loadPromptAsset('plain.md').trim());
  });

  it('rejects an unknown preset with UNKNOWN_PRESET and the exact message', () => {
    const err = thrown(() => buildPresetPrompt('letta', 'memfs'));
    expect(isMemoryError(err, 'UNKNOWN_PRESET')).toBe(true);
    expect((err as Error).message).toBe('Unknown preset "letta" — cannot rebuild system prompt');
  });

  it('rejects an unknown mode with UNKNOWN_MODE', () => {
    const err = thrown(() => buildPresetPrompt('gitmem', 'cloud' as MemoryMode));
    expect(isMemoryError(err, 'UNKNOWN_MODE')).toBe(true);
  });

  it('teaches every memory rule in the memfs texts and keeps git out of the standard text', () => {
    for (const mode of ['memfs', 'local-memfs'] as const) {
      const text = buildPresetPrompt('gitmem', mode);
      for (const needle of [
        '`reason`',
        'commit message',
        'memory_apply_patch',
        'counts only once it is committed',
        'next compile',
        'description:',
        'read_only',
        'Never store secrets',
        '`system/`',
        '[[',
        '<self>',
        'memory_filesystem',
      ]) {
        expect(text, `${mode}: ${needle}`).toContain(needle);
      }
    }
    const standard = buildPresetPrompt('gitmem', 'standard');
    expect(standard).not.toMatch(/\bgit\b|commit|\$MEMORY_DIR|memory_filesystem/i);
    expect(standard).toContain('next compile');
  });

  it('contains no vendor references and no push instructions in any text, whatever the surface', () => {
    for (const preset of listPresets()) {
      for (const [mode, surface] of MODES.flatMap((m) => PROMPT_SURFACES.map((s) => [m, s] as const))) {
        const text = buildPresetPrompt(preset.id, mode, surface);
        expect(text).not.toMatch(/letta|anthropic|openai|claude|api\.[a-z]+\.com/i);
        expect(text).not.toMatch(/git push|git pull/i);
      }
    }
  });
});
