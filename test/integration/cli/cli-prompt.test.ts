// The default prompt tells the truth about sync: with a remote configured it uses the memfs wording
// (memory is synced after the turn), without one the local wording — after `remote set`, in a cloned home,
// and after `remote remove`. `gitmem prompt --help` lists the presets and modes. With and without the daemon.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPresets } from '../../../src/blocks/presets.js';
import { cliHome, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const LOCAL = 'it has no remote';
const SYNCED = 'Your memory repository has a remote';

describe.each<CliMode>(['local', 'daemon'])('the default prompt and the remote (%s)', (mode) => {
  let h: CliHome;
  let remote: string;
  beforeAll(() => {
    h = cliHome(mode, ['a1']);
    remote = join(h.root, 'remote.git');
    git(h.root, ['init', '-q', '--bare', '-b', 'main', remote]);
  });
  afterAll(() => {
    h.close();
    cleanupTmp();
  });
  const prompt = (agent: string, extra: string[] = []): string => {
    const r = h.run(['prompt', '--agent', agent, ...extra]);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    return r.stdout;
  };

  it('says "no remote" only while there is none', () => {
    expect(prompt('a1')).toContain(LOCAL);
    expect(h.run(['remote', 'set', remote, '--agent', 'a1']).code).toBe(0);
    expect(h.run(['sync', '--agent', 'a1']).code).toBe(0);
    const synced = prompt('a1');
    expect(synced).toContain(SYNCED);
    expect(synced).not.toContain(LOCAL);
    expect(JSON.parse(h.run(['prompt', '--agent', 'a1', '--json']).stdout)).toMatchObject({ mode: 'memfs' });
    expect(prompt('a1', ['--mode', 'local-memfs'])).toContain(LOCAL); // an explicit mode still wins
  });

  it('a cloned agent has a remote, so its prompt says it is synced; after remote remove it is local again', () => {
    expect(h.run(['clone', remote, '--agent', 'c1']).code).toBe(0);
    expect(prompt('c1')).toContain(SYNCED);
    expect(h.run(['remote', 'remove', '--agent', 'c1']).code).toBe(0);
    expect(prompt('c1')).toContain(LOCAL);
  });

  it('prompt --help lists every preset, mode and surface', () => {
    const help = h.run(['prompt', '--help']).stdout;
    for (const p of listPresets()) expect(help).toContain(p.id);
    for (const m of ['standard', 'memfs', 'local-memfs']) expect(help).toContain(m);
    expect(help).toContain('[--surface SURFACE]');
    for (const s of ['shell', 'tools', 'anthropic']) expect(help).toMatch(new RegExp(`^  ${s} +\\S`, 'm'));
  });

  it('prompt --surface words the prompt for the tools the model has; the default stays the shell wording', () => {
    const tools = prompt('a1', ['--surface', 'tools']);
    expect(tools).toContain('<projection>system/persona.md</projection>');
    for (const tool of ['`memory_view`', '`memory_search`', '`memory_apply_patch`']) expect(tools).toContain(tool);
    expect(tools).not.toMatch(/\$MEMORY_DIR|\bgrep\b|git commit/);
    expect(prompt('a1', ['--surface', 'anthropic'])).toContain('<projection>/memories/system/persona.md</projection>');
    const shell = prompt('a1');
    expect(shell).toBe(prompt('a1', ['--surface', 'shell']));
    expect(shell).toContain('<projection>$MEMORY_DIR/system/persona.md</projection>');
    expect(JSON.parse(h.run(['prompt', '--agent', 'a1', '--surface', 'tools', '--json']).stdout)).toMatchObject({
      surface: 'tools',
    });
    const bad = h.run(['prompt', '--agent', 'a1', '--surface', 'bash']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Unknown prompt surface "bash" — expected one of: shell, tools, anthropic');
  });
});
