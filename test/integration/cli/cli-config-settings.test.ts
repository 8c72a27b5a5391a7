// Settings by key (issue 29 point 3, SPEC §10.2): `gitmem config get|set|unset` with --scope and --agent, and
// `memory.settings`, checked against one schema; the scopes land in their files (an agent's entry inside the
// project file) and the effective value applies them in the reference's order. A refusal writes nothing.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, type CliHome, type CliMode } from '../../helpers/cli.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const json = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe.each<CliMode>(['local', 'daemon'])('gitmem config with scopes (%s)', (mode) => {
  let h: CliHome;
  let project: string;
  let elsewhere: string;
  beforeAll(() => {
    h = cliHome(mode, ['a1']);
    project = join(h.root, 'project');
    elsewhere = join(h.root, 'elsewhere');
    mkdirSync(project);
    mkdirSync(elsewhere);
  });
  afterAll(() => h.close());
  const run = (args: string[], cwd = project) => h.run(['config', ...args], { cwd });
  const ok = (args: string[], cwd = project): string => {
    const r = run(args, cwd);
    expect({ code: r.code, err: r.stderr }).toEqual({ code: 0, err: '' });
    return r.stdout;
  };

  it('writes each scope to its file, and get answers the effective value in the reference order', () => {
    ok(['set', 'reflection.stepCount', '10']);
    ok(['set', 'reflection.merge', 'explicit', '--scope', 'project']);
    expect(ok(['set', 'reflection.trigger', 'off', '--agent', 'a1'])).toMatch(
      /reflection\.trigger set in .*\(agent a1\)/,
    );
    expect(json(join(h.home, 'config'))).toEqual({ reflection: { stepCount: 10 } });
    expect(json(join(project, '.gitmem', 'config.json'))).toEqual({
      reflection: { merge: 'explicit', agents: { a1: { trigger: 'off' } } },
    });
    expect(ok(['get', 'reflection.trigger', '--agent', 'a1'])).toBe('off\n');
    expect(ok(['get', 'reflection.trigger', '--agent', 'a1'], elsewhere)).toBe('step-count\n'); // no project there
    expect(ok(['get', 'reflection.merge'])).toBe('explicit\n');
    expect(ok(['get', 'reflection.stepCount'])).toBe('10\n');
    expect(ok(['get', 'reflection.trigger', '--scope', 'agent', '--agent', 'a1'])).toBe('off\n');
    expect(JSON.parse(ok(['get', 'reflection.stepCount', '--json']))).toMatchObject({ scope: 'effective', value: 10 });
    expect(errorCode(run(['get', 'reflection.trigger', '--scope', 'project']))).toBe('INVALID_ARGUMENT');

    ok(['unset', 'reflection.trigger', '--agent', 'a1']);
    expect(json(join(project, '.gitmem', 'config.json'))).toEqual({ reflection: { merge: 'explicit' } });
    expect(ok(['get', 'reflection.trigger', '--agent', 'a1'])).toBe('step-count\n');
  });

  it('refuses an unknown key naming the nearest, a wrong type naming the type, a wrong scope; nothing written', () => {
    const typo = run(['set', 'reflection.stepcount', '3']);
    expect(errorCode(typo)).toBe('INVALID_ARGUMENT');
    expect(typo.stderr).toMatch(/unknown setting "reflection\.stepcount"; nearest known: reflection\.stepCount/);
    const type = run(['set', 'reflection.stepCount', 'ten']);
    expect(type.stderr).toMatch(/reflection\.stepCount must be a positive integer .*not "ten"/);
    expect(run(['set', 'reflection.trigger', 'sometimes', '--agent', 'a1']).stderr).toMatch(
      /must be one of off, step-count, compaction-event/,
    );
    expect(run(['set', 'model', 'openai:gpt-5', '--scope', 'project']).stderr).toMatch(/only at scope global/);
    expect(run(['set', 'modle', 'openai:gpt-5']).stderr).toMatch(/nearest known: model/);
    // --agent out of habit on a global-only key: it stays global (no per-agent model).
    ok(['set', 'model', 'openai:gpt-5', '--agent', 'a1']);
    expect(ok(['get', 'model'])).toBe('openai:gpt-5\n');
    ok(['unset', 'model']);
    const before = readFileSync(join(h.home, 'config'), 'utf8');
    expect(errorCode(run(['set', 'reflection.stepCount', '3', '--scope', 'everywhere']))).toBe('INVALID_ARGUMENT');
    expect(errorCode(run(['set', 'reflection.stepCount', '0']))).toBe('INVALID_ARGUMENT');
    expect(errorCode(run(['set', 'budgets.system', '"lots"']))).toBe('INVALID_ARGUMENT');
    expect(readFileSync(join(h.home, 'config'), 'utf8')).toBe(before);
    expect(existsSync(join(elsewhere, '.gitmem'))).toBe(false);
  });

  it('--help lists every key with its type; providers.* and whole sections still edit the global file', () => {
    const help = run(['--help']).stdout;
    for (const key of ['reflection.trigger', 'reflection.stepCount', 'reflection.merge', 'model', 'budgets.system'])
      expect(help).toContain(key);
    ok(['set', 'providers.local.baseURL', 'http://127.0.0.1:11434/v1']);
    expect(ok(['get', 'providers.local.baseURL'])).toBe('http://127.0.0.1:11434/v1\n');
    ok(['unset', 'reflection']);
    expect(json(join(h.home, 'config'))).toEqual({ providers: { local: { baseURL: 'http://127.0.0.1:11434/v1' } } });
  });
});

describe('memory.settings', () => {
  it('get/set/unset with the handle’s agent, the same files and checks as the CLI', async () => {
    const { memory, home } = await memoryFixture('lib1');
    const projectDir = makeTmpDir('gitmem-project-');
    const o = { projectDir };
    await memory.settings.set('reflection.stepCount', 12);
    await memory.settings.set('reflection.stepCount', 4, { ...o, scope: 'agent' });
    expect(json(join(projectDir, '.gitmem', 'config.json'))).toEqual({
      reflection: { agents: { lib1: { stepCount: 4 } } },
    });
    expect(await memory.settings.get('reflection.stepCount', o)).toMatchObject({ scope: 'effective', value: 4 });
    expect((await memory.settings.get('reflection.stepCount', { ...o, agentId: 'other' })).value).toBe(12);
    expect((await memory.settings.get('reflection.stepCount', { scope: 'global' })).value).toBe(12);
    await expect(memory.settings.set('reflection.stepCount', '4')).rejects.toThrow(/must be a positive integer/);
    await expect(memory.settings.set('reflection.mode', 'auto')).rejects.toThrow(/nearest known: .*reflection\.merge/);
    expect(await memory.settings.unset('reflection.stepCount', { ...o, scope: 'agent' })).toMatchObject({
      changed: true,
    });
    expect((await memory.settings.get('reflection.stepCount', o)).value).toBe(12);
    expect(json(join(home, 'config'))).toEqual({ reflection: { stepCount: 12 } });
  });
});
