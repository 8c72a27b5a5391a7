// A caller's own raw prompt (SPEC B1.27): `gitmem prompt --template FILE` and `memory.compilePrompt({ template })`
// put the compiled memory at every {CORE_MEMORY}, else after a blank line; the preset text is not used.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, type CliHome, type CliMode } from '../../helpers/cli.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe.each<CliMode>(['local', 'daemon'])('gitmem prompt --template (%s)', (mode) => {
  let h: CliHome;
  beforeAll(() => {
    h = cliHome(mode, ['a1']);
  });
  afterAll(() => h.close());

  const prompt = (args: string[], input?: string): string => {
    const r = h.run(['prompt', '--agent', 'a1', ...args], input === undefined ? {} : { input });
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    return r.stdout;
  };

  it('replaces every placeholder, else appends after a blank line; the preset is not there', () => {
    const withPreset = prompt([]);
    const memory = prompt(['--template', '-'], '');
    expect(withPreset.trimEnd().endsWith(memory.trimEnd())).toBe(true);
    const file = join(h.root, 'mine.txt');
    writeFileSync(file, 'You are Ada.\n{CORE_MEMORY}\n--\n{CORE_MEMORY}\nEnd.');
    const twice = prompt(['--template', file]);
    expect(twice).toBe(`You are Ada.\n${memory.trimEnd()}\n--\n${memory.trimEnd()}\nEnd.\n`);
    writeFileSync(file, 'You are Ada.\n');
    expect(prompt(['--template', file])).toBe(`You are Ada.\n\n${memory}`);
    expect(JSON.parse(prompt(['--template', file, '--json']))).toMatchObject({ template: file });
  });

  it('a missing template file or a template with a preset is one clear error', () => {
    const missing = h.run(['prompt', '--agent', 'a1', '--template', join(h.root, 'nope.txt')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/cannot read .*nope\.txt/);
    const both = h.run(['prompt', '--agent', 'a1', '--template', '-', '--preset', 'plain'], { input: 'x' });
    expect(both.code).not.toBe(0);
    expect(both.stderr).toMatch(/template replaces the preset/);
  });
});

describe('memory.compilePrompt({ template })', () => {
  it('wraps the same memory the CLI shows', async () => {
    const { memory } = await memoryFixture('t1');
    const bare = await memory.compilePrompt({ template: '' });
    expect(bare).toContain('<self>');
    expect(await memory.compilePrompt({ template: 'X {CORE_MEMORY} Y' })).toBe(`X ${bare} Y`);
    expect(await memory.compilePrompt({ template: 'Mine.' })).toBe(`Mine.\n\n${bare}`);
    await expect(memory.compilePrompt({ template: 'x', maxChars: 5000 })).rejects.toThrow(/template/);
  });
});
