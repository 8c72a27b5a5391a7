import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { isMemoryError } from '../errors.js';
import { checkSetting, nearestSettingKeys, SETTINGS_SCHEMA } from './settings-schema.js';
import { getSetting, setSetting, unsetSetting, type SettingsPlace } from './settings-store.js';
import { resolveReflectionSettings } from './settings.js';

afterAll(cleanupTmp);

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    return isMemoryError(err) ? `${err.code}: ${err.message}` : `other: ${String(err)}`;
  }
  return 'no refusal';
}

function place(agentId = 'a1'): SettingsPlace & { projectDir: string } {
  const home = makeTmpDir('gitmem-settings-home-');
  const projectDir = makeTmpDir('gitmem-settings-project-');
  mkdirSync(join(home, 'agents', agentId), { recursive: true });
  return { home, projectDir, agentId };
}

describe('the settings schema', () => {
  it('an unknown key names the nearest known ones', () => {
    expect(nearestSettingKeys('reflection.stepcount')[0]).toBe('reflection.stepCount');
    expect(nearestSettingKeys('reflection.triger')[0]).toBe('reflection.trigger');
    expect(nearestSettingKeys('modle')[0]).toBe('model');
    expect(refusal(() => checkSetting('reflection.steps', 3, 'global'))).toMatch(
      /^INVALID_ARGUMENT: unknown setting "reflection.steps"; nearest known: reflection\.stepCount/,
    );
  });

  it('a wrong value says the type expected; a key outside its scopes is refused', () => {
    expect(refusal(() => checkSetting('reflection.stepCount', 'ten', 'global'))).toBe(
      'INVALID_ARGUMENT: reflection.stepCount must be a positive integer (at most 1,000,000), not "ten"',
    );
    expect(refusal(() => checkSetting('reflection.stepCount', 2.5, 'global'))).toMatch(/positive integer/);
    expect(refusal(() => checkSetting('reflection.trigger', 'sometimes', 'agent'))).toMatch(
      /must be one of off, step-count, compaction-event, not "sometimes"/,
    );
    expect(refusal(() => checkSetting('model', 'gpt', 'global'))).toMatch(/provider:model-id/);
    expect(refusal(() => checkSetting('model', 'openai:gpt-5', 'project'))).toMatch(
      /only at scope global, not project/,
    );
    expect(checkSetting('reflection.mergeInstructions', '  keep it short  ', 'agent')).toBe('keep it short');
    for (const s of SETTINGS_SCHEMA) expect(s.scopes).toContain('global');
  });
});

describe('the settings store', () => {
  it('sets, gets and unsets at each scope, keeping the rest of the file', () => {
    const p = place();
    const mine = '"providers":   { "local": { "baseURL": "http://127.0.0.1:1/v1" } }';
    writeFileSync(join(p.home, 'config'), `{\n  ${mine}\n}\n`);
    expect(setSetting(p, 'reflection.stepCount', 10, 'global')).toMatchObject({ changed: true, scope: 'global' });
    expect(readFileSync(join(p.home, 'config'), 'utf8')).toContain(mine); // its text kept byte for byte
    expect(setSetting(p, 'reflection.stepCount', 10, 'global').changed).toBe(false);
    setSetting(p, 'reflection.merge', 'explicit', 'project');
    setSetting(p, 'reflection.trigger', 'off', 'agent');
    const project = JSON.parse(readFileSync(join(p.projectDir, '.gitmem', 'config.json'), 'utf8')) as unknown;
    expect(project).toEqual({ reflection: { merge: 'explicit', agents: { a1: { trigger: 'off' } } } });
    expect(getSetting(p, 'reflection.trigger', 'agent').value).toBe('off');
    expect(getSetting(p, 'reflection.trigger', 'project').value).toBeUndefined();
    expect(getSetting(p, 'reflection.trigger')).toMatchObject({ scope: 'effective', value: 'off' });
    expect(getSetting({ ...p, agentId: 'b2' }, 'reflection.trigger').value).toBe('step-count');
    expect(getSetting(p, 'reflection.stepCount').value).toBe(10);
    expect(getSetting(p, 'budgets.system').value).toBe(8000);

    expect(unsetSetting(p, 'reflection.trigger', 'agent').changed).toBe(true);
    // The agent's entry, now empty, is gone with it (and the agents object).
    expect(JSON.parse(readFileSync(join(p.projectDir, '.gitmem', 'config.json'), 'utf8'))).toEqual({
      reflection: { merge: 'explicit' },
    });
    expect(unsetSetting(p, 'reflection.trigger', 'agent').changed).toBe(false);
  });

  it('a refusal writes nothing: a bad value, a bad agent id, a file that is not JSON', () => {
    const p = place();
    expect(refusal(() => setSetting(p, 'reflection.stepCount', -1, 'project'))).toMatch(/positive integer/);
    expect(existsSync(join(p.projectDir, '.gitmem'))).toBe(false);
    expect(refusal(() => setSetting({ ...p, agentId: '../x' }, 'reflection.trigger', 'off', 'agent'))).toMatch(
      /^INVALID_AGENT_ID/,
    );
    expect(existsSync(join(p.projectDir, '.gitmem'))).toBe(false);
    mkdirSync(join(p.projectDir, '.gitmem'));
    writeFileSync(join(p.projectDir, '.gitmem', 'config.json'), '{ broken');
    expect(refusal(() => setSetting(p, 'reflection.trigger', 'off', 'project'))).toMatch(/invalid settings file/);
    expect(readFileSync(join(p.projectDir, '.gitmem', 'config.json'), 'utf8')).toBe('{ broken');
  });
});

describe('resolution order (SPEC §10.2)', () => {
  it('global, project, the global agent entry, the project agent entry, then the agent file', () => {
    const p = place('a1');
    const agentDir = join(p.home, 'agents', 'a1');
    const resolved = () => resolveReflectionSettings({ home: p.home, projectDir: p.projectDir, agentDir });
    writeFileSync(
      join(p.home, 'config'),
      JSON.stringify({
        reflection: { stepCount: 5, trigger: 'off', merge: 'explicit', agents: { a1: { stepCount: 7 } } },
      }),
    );
    expect(resolved()).toMatchObject({ stepCount: 7, trigger: 'off', merge: 'explicit' });
    setSetting(p, 'reflection.stepCount', 6, 'project');
    setSetting(p, 'reflection.trigger', 'compaction-event', 'project');
    // The global agent entry still wins over the project's plain value: agent entries come after both files.
    expect(resolved()).toMatchObject({ stepCount: 7, trigger: 'compaction-event' });
    setSetting(p, 'reflection.stepCount', 8, 'agent');
    expect(resolved()).toMatchObject({ stepCount: 8 });
    writeFileSync(join(agentDir, 'config.json'), JSON.stringify({ reflection: { stepCount: 9 } }));
    expect(resolved()).toMatchObject({ stepCount: 9, merge: 'explicit' });
    // Another agent sees none of a1's entries.
    expect(resolveReflectionSettings({ home: p.home, projectDir: p.projectDir, agentId: 'b2' })).toMatchObject({
      stepCount: 6,
    });
  });
});

const TSX = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const STORE = pathToFileURL(join(import.meta.dirname, 'settings-store.ts')).href;

describe('the settings file under concurrent writers', () => {
  it('loses no change when four processes set keys in one project file at once', async () => {
    const home = makeTmpDir('gitmem-settings-home-');
    const projectDir = makeTmpDir('gitmem-settings-project-');
    const place = JSON.stringify({ home, projectDir });
    await Promise.all(
      [1, 2, 3, 4].map((p) => {
        // Each process writes ten agents' entries: 40 distinct values in one file.
        const code = `const { setSetting } = await import(${JSON.stringify(STORE)}); for (let i = 0; i < 10; i++) setSetting({ ...${place}, agentId: 'a${p}-' + i }, 'reflection.stepCount', ${p} * 100 + i, 'agent');`;
        return new Promise<void>((res, rej) => {
          const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', code], {
            stdio: 'inherit',
          });
          child.on('exit', (c) => (c === 0 ? res() : rej(new Error(`child exited ${c}`))));
        });
      }),
    );
    const agents = JSON.parse(readFileSync(join(projectDir, '.gitmem', 'config.json'), 'utf8')).reflection.agents;
    expect(Object.keys(agents)).toHaveLength(40);
    for (const p of [1, 2, 3, 4])
      for (let i = 0; i < 10; i++) expect(agents[`a${p}-${i}`]).toEqual({ stepCount: p * 100 + i });
  }, 60_000);
});
