// The prompt's surface through the handle and gitmem/anthropic: each surface's wording is its own entry in the
// read cache (the same commit and options give the same bytes, from this handle or a fresh copy of gitmem;
// another surface never gets a cached text of the wrong one), and the Anthropic adapter's prompt speaks of
// its one `memory` tool and /memories by default. Real git on /dev/shm.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { anthropicSystemPrompt } from '../../../src/adapters/anthropic/index.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe('the prompt per surface', () => {
  it('caches each surface apart: the same commit and options give the same bytes, another surface its own text', async () => {
    const f = await memoryFixture('ada');
    const tools = await f.memory.compilePrompt({ surface: 'tools' });
    const shell = await f.memory.compilePrompt();
    const anthropic = await f.memory.compilePrompt({ surface: 'anthropic' });
    expect(new Set([tools, shell, anthropic]).size).toBe(3);
    expect(tools).toContain('<projection>system/persona.md</projection>');
    expect(shell).toContain('<projection>$MEMORY_DIR/system/persona.md</projection>');
    expect(anthropic).toContain('<projection>/memories/system/persona.md</projection>');
    expect(await f.memory.compilePrompt({ surface: 'tools' })).toBe(tools);
    expect(await f.memory.compilePrompt({ surface: 'shell' })).toBe(shell);

    vi.resetModules(); // a fresh copy of gitmem: nothing kept in the process
    const { createMemory } = await import('../../../src/memory.js');
    const fresh = await createMemory({ home: f.home, agentId: 'ada', env: f.env });
    expect(await fresh.compilePrompt({ surface: 'anthropic' })).toBe(anthropic);
    expect(await fresh.compilePrompt({ surface: 'tools' })).toBe(tools);

    await f.memory.tool({
      command: 'create',
      reason: 'a note',
      file_path: 'notes/tea.md',
      description: 'Drinks',
      file_text: 'tea\n',
    });
    expect(await f.memory.compilePrompt({ surface: 'tools' })).toContain('tea.md — Drinks');
    expect(await f.memory.compilePrompt({ surface: 'anthropic' })).toContain('tea.md — Drinks');
  });

  it("gitmem/anthropic's prompt speaks of the memory tool under /memories by default; a harness may ask for another surface", async () => {
    const f = await memoryFixture('ada');
    const text = await anthropicSystemPrompt(f.memory);
    expect(text).toBe(await f.memory.compilePrompt({ surface: 'anthropic' }));
    expect(text).toContain('<projection>/memories/system/persona.md</projection>');
    expect(text).toContain('(`/memories` for all of it)');
    expect(text).not.toMatch(/\$MEMORY_DIR|\bgrep\b|git commit|memory_view|memory_search|memory_apply_patch/);
    expect(await anthropicSystemPrompt(f.memory, { mode: 'memfs' })).toContain('Your memory repository has a remote');
    expect(await anthropicSystemPrompt(f.memory, { surface: 'shell' })).toBe(await f.memory.compilePrompt());
  });
});
