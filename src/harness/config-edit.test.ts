import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyConfigChange, configGet, planConfigSet, planConfigUnset } from './config-edit.js';
import { agentForProject, findProjectRoot } from './projects.js';

let home: string;
const file = (): string => join(home, 'config');
const CONFIG =
  '{\n    "model": "anthropic:claude-sonnet-4-5",\n    "providers": {"local": {"baseURL": "http://127.0.0.1:11434/v1"}}\n}\n';

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'gitmem-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('gitmem config edits', () => {
  it('sets, gets and unsets dotted keys, keeping the rest of the file byte for byte', () => {
    writeFileSync(file(), CONFIG);
    applyConfigChange(planConfigSet(home, 'reflection.trigger', 'step-count'));
    applyConfigChange(planConfigSet(home, 'providers.local.apiKeyEnv', 'OLLAMA_KEY'));
    const text = readFileSync(file(), 'utf8');
    expect(
      text.startsWith(
        '{\n    "model": "anthropic:claude-sonnet-4-5",\n    "providers": {"local": {"baseURL": "http://127.0.0.1:11434/v1"',
      ),
    ).toBe(true);
    expect(configGet(home, 'reflection')).toEqual({ trigger: 'step-count' });
    expect(configGet(home, 'providers.local.apiKeyEnv')).toBe('OLLAMA_KEY');
    applyConfigChange(planConfigSet(home, 'model', 'openai:gpt-5'));
    expect(configGet(home, 'model')).toBe('openai:gpt-5');
    applyConfigChange(planConfigUnset(home, 'reflection'));
    applyConfigChange(planConfigUnset(home, 'providers.local.apiKeyEnv'));
    applyConfigChange(planConfigSet(home, 'model', 'anthropic:claude-sonnet-4-5'));
    expect(readFileSync(file(), 'utf8')).toBe(CONFIG);
    expect(planConfigUnset(home, 'nothing.here').changed).toBe(false);
  });

  it('creates the file when missing', () => {
    applyConfigChange(planConfigSet(home, 'model', 'openai:gpt-5'));
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ model: 'openai:gpt-5' });
  });

  it('refuses a value the config checks reject, writing nothing', () => {
    writeFileSync(file(), CONFIG);
    expect(() => planConfigSet(home, 'model', 5)).toThrow(/"model" must be a string/);
    expect(() => planConfigSet(home, 'model.x', 'y')).toThrow(/config key model is not an object/);
    expect(() => planConfigSet(home, 'projects./p', 5)).toThrow(/must be a string/);
    expect(() => planConfigSet(home, 'a..b', 1)).toThrow(/not a dotted key/);
    expect(readFileSync(file(), 'utf8')).toBe(CONFIG);
  });
});

describe('agentForProject', () => {
  it('finds the mapping of the git root above cwd, prefers the explicit agent, else undefined', () => {
    const proj = join(home, 'work', 'app');
    mkdirSync(join(proj, 'lib', 'deep'), { recursive: true });
    writeFileSync(join(proj, '.git'), 'gitdir: /elsewhere\n'); // a worktree's .git is a file
    expect(findProjectRoot(join(proj, 'lib', 'deep'))).toBe(proj);
    expect(agentForProject(home, join(proj, 'lib'))).toBeUndefined();
    writeFileSync(file(), JSON.stringify({ projects: { [proj]: 'work-agent' } }));
    expect(agentForProject(home, join(proj, 'lib', 'deep'))).toBe('work-agent');
    expect(agentForProject(home, proj, 'explicit')).toBe('explicit');
    expect(agentForProject(home, join(home, 'work'))).toBeUndefined();
    expect(existsSync(join(home, 'work', '.git'))).toBe(false);
  });
});
