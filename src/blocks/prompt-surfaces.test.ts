import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { compilePrompt, type CommittedFile } from './compile-prompt.js';
import { listPresets, MEMORY_MODES, type MemoryMode } from './presets.js';
import { fillPieces, PROMPT_SURFACES, surfaceWording, type PromptSurface } from './prompt-surfaces.js';

const md = (description: string, body: string): string => `---\ndescription: ${description}\n---\n${body}`;
const FILES: CommittedFile[] = [
  { path: 'system/persona.md', content: md('Who I am', 'I help.\n') },
  { path: 'system/human.md', content: md('The user', 'Prefers pnpm.\n') },
  { path: 'notes/ideas.md', content: md('Ideas for later', 'x\n') },
  { path: 'skills/release/SKILL.md', content: '---\nname: release\ndescription: How to cut a release\n---\nsteps\n' },
];
const FS_MODES = ['memfs', 'local-memfs'] as const;
const compiled = (surface: PromptSurface, mode: MemoryMode, preset = 'default'): string =>
  compilePrompt(FILES, { surface, mode, preset, revision: 'abc1234', agentId: 'ada' });
/** Every (preset, mode) text of a surface. */
const everyText = (surface: PromptSurface): Array<[string, string]> =>
  listPresets().flatMap((p) => MEMORY_MODES.map((m): [string, string] => [`${p.id}/${m}`, compiled(surface, m, p.id)]));

// What only a model with a shell in the memory directory can do.
const SHELL_ONLY = [
  /\$MEMORY_DIR/,
  /\bgrep\b/,
  /\bgit (?:add|commit|log|show|branch|diff)\b/,
  /gitmem (?:conflicts|sync)\b/,
];

describe('the prompt worded for the surface the model works on', () => {
  it('tools: speaks of memory, memory_apply_patch, memory_view and memory_search, never of a shell, git commands or /memories', () => {
    for (const [name, text] of everyText('tools')) {
      for (const shell of SHELL_ONLY) expect(text, `${name}: ${shell}`).not.toMatch(shell);
      expect(text, name).not.toContain('/memories');
    }
    for (const mode of FS_MODES) {
      const text = compiled('tools', mode);
      for (const tool of [
        'The `memory` tool',
        '`memory_apply_patch`',
        '`memory_view`',
        '`memory_search`',
        '`reason`',
        'commit message',
      ]) {
        expect(text, `${mode}: ${tool}`).toContain(tool);
      }
    }
  });

  it("anthropic: speaks of the memory tool's own commands under /memories, never of a shell, git commands or gitmem's other tools", () => {
    for (const [name, text] of everyText('anthropic')) {
      for (const shell of SHELL_ONLY) expect(text, `${name}: ${shell}`).not.toMatch(shell);
      expect(text, name).not.toMatch(/memory_view|memory_search|memory_apply_patch|update_description|`reason`/);
    }
    for (const mode of FS_MODES) {
      const text = compiled('anthropic', mode);
      for (const word of ['`/memories`', '`view`', '`create`', '`str_replace`', '`insert`', '`delete`', '`rename`']) {
        expect(text, `${mode}: ${word}`).toContain(word);
      }
    }
  });

  it('tools and anthropic say the system/ files are already in the prompt; shell, the default, keeps $MEMORY_DIR, grep and git commit', () => {
    for (const surface of ['tools', 'anthropic'] as const) {
      for (const mode of FS_MODES)
        expect(compiled(surface, mode), `${surface}/${mode}`).toContain(
          'The `system/` files are already in this prompt',
        );
    }
    for (const mode of FS_MODES) {
      const shell = compiled('shell', mode);
      expect(compilePrompt(FILES, { mode, revision: 'abc1234', agentId: 'ada' })).toBe(shell);
      for (const word of ['$MEMORY_DIR', 'grep -ri', 'git commit', 'The `memory` tool'])
        expect(shell, `${mode}: ${word}`).toContain(word);
    }
  });

  it('writes projections, the tree root and skill paths as the surface names files', () => {
    const expected: Record<PromptSurface, string[]> = {
      shell: [
        '<projection>$MEMORY_DIR/system/persona.md</projection>',
        '\n$MEMORY_DIR/\n├── notes/',
        '($MEMORY_DIR/skills/release/SKILL.md)',
        '$MEMORY_DIR is your memory directory.',
      ],
      tools: [
        '<projection>system/persona.md</projection>',
        '\n./\n├── notes/',
        '(skills/release/SKILL.md)',
        'paths are relative to the root of your memory',
      ],
      anthropic: [
        '<projection>/memories/system/persona.md</projection>',
        '\n/memories/\n├── notes/',
        '(/memories/skills/release/SKILL.md)',
        '/memories is the directory your `memory` tool works in.',
      ],
    };
    for (const surface of PROMPT_SURFACES) {
      const text = compiled(surface, 'local-memfs');
      for (const line of expected[surface]) expect(text, `${surface}: ${line}`).toContain(line);
      expect(compilePrompt(FILES, { surface, memoryDirLabel: '/home/me/mem' })).toContain(
        '<projection>/home/me/mem/system/human.md</projection>',
      );
    }
  });

  it('every surface teaches the memory rules, fills every slot, differs from the others and is byte-identical for the same options', () => {
    for (const surface of PROMPT_SURFACES) {
      for (const [name, text] of everyText(surface)) {
        expect(text, `${surface} ${name}`).not.toMatch(/\{\{|\}\}/);
        expect(compiled(surface, name.split('/')[1] as MemoryMode, name.split('/')[0])).toBe(text);
      }
      for (const mode of FS_MODES) {
        const text = compiled(surface, mode);
        for (const rule of [
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
          expect(text, `${surface}/${mode}: ${rule}`).toContain(rule);
        }
      }
    }
    for (const mode of FS_MODES) expect(new Set(PROMPT_SURFACES.map((s) => compiled(s, mode))).size).toBe(3);
    expect(compiled('tools', 'memfs')).toContain('Your memory repository has a remote');
    expect(compiled('anthropic', 'local-memfs')).toContain('it has no remote');
  });

  it('refuses an unknown surface with INVALID_ARGUMENT naming the surfaces, in every mode', () => {
    for (const mode of MEMORY_MODES) {
      let err: unknown;
      try {
        compilePrompt(FILES, { mode, surface: 'bash' as PromptSurface });
      } catch (e) {
        err = e;
      }
      expect(isMemoryError(err, 'INVALID_ARGUMENT'), mode).toBe(true);
      expect((err as Error).message).toBe('Unknown prompt surface "bash" — expected one of: shell, tools, anthropic');
    }
    expect(() => surfaceWording('toString')).toThrow(/Unknown prompt surface/);
  });

  it('treats a slot no surface fills as a packaging bug (INTERNAL)', () => {
    let err: unknown;
    try {
      fillPieces('a {{nope}} b', surfaceWording('tools').pieces(false));
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'INTERNAL')).toBe(true);
  });
});
