// Which agent and which home a call means: one default-agent rule for every command (init included), and
// homes that cannot be used fail at once with a typed error — through the daemon and without it.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode, runGitmem, type CliHome, type CliMode } from '../../helpers/cli.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

const homes: CliHome[] = [];
function fresh(mode: CliMode, agents: string[] = []): CliHome {
  const h = cliHome(mode, agents);
  homes.push(h);
  return h;
}
afterAll(() => {
  for (const h of homes) h.close();
  cleanupTmp();
});

describe.each<CliMode>(['local', 'daemon'])('the default agent (%s)', (mode) => {
  it('init without --agent creates "default", and every command then finds it as the home\'s only agent', () => {
    const h = fresh(mode);
    const init = h.run(['init', '--json']);
    expect(init.code).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({ agentId: 'default', created: true });
    for (const args of [
      ['tree'],
      ['status'],
      ['log'],
      ['prompt'],
      ['remote', 'show'],
      ['conflicts'],
      ['mirror', 'status'],
    ]) {
      const r = h.run(args);
      expect({ args, code: r.code, err: r.stderr }).toEqual({ args, code: 0, err: '' });
    }
    const w = h.run(['memory', 'create', 'notes/n.md', '--description', 'n', '--text', 'n', '--reason', 'only agent']);
    expect({ code: w.code, err: w.stderr }).toEqual({ code: 0, err: '' });
    expect(git(h.memoryDir('default'), ['log', '-1', '--format=%s'])).toBe('only agent');
  });

  it('init without --agent on a home with one agent repairs that agent instead of creating another', () => {
    const h = fresh(mode, ['solo']);
    const r = h.run(['init', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ agentId: 'solo', created: false });
    expect(existsSync(h.memoryDir('default'))).toBe(false);
  });

  it('with several agents and none named, every command refuses and lists them; the environment still decides', () => {
    const h = fresh(mode, ['b2', 'a1']);
    for (const args of [
      ['tree'],
      ['init'],
      ['memory', 'delete', 'system/human.md', '--reason', 'r'],
      ['sync'],
      ['personality', 'apply', 'stern'],
    ]) {
      const r = h.run(args);
      expect({ args, code: r.code, error: errorCode(r) }).toEqual({ args, code: 1, error: 'NO_MEMORY_DIR' });
      expect(r.stderr).toContain('a1, b2');
    }
    expect(existsSync(h.memoryDir('default'))).toBe(false);
    const byEnv = h.run(
      ['memory', 'create', 'notes/e.md', '--description', 'e', '--text', 'e', '--reason', 'env agent'],
      { env: { GITMEM_AGENT_ID: 'b2' } },
    );
    expect(byEnv.code).toBe(0);
    expect(git(h.memoryDir('b2'), ['log', '-1', '--format=%s'])).toBe('env agent');
    const initByEnv = h.run(['init', '--json'], { env: { GITMEM_AGENT_ID: 'c3' } });
    expect(JSON.parse(initByEnv.stdout)).toMatchObject({ agentId: 'c3', created: true });
  });

  it('the rule is written in the help', () => {
    const h = fresh(mode);
    expect(h.run(['help']).stdout).toMatch(/the home's only agent/);
    expect(h.run(['init', '--help']).stdout).toMatch(/only agent/);
  });
});

describe.each<CliMode>(['local', 'daemon'])('unusable homes (%s)', (mode) => {
  it('a home that cannot be created, a regular file, or an empty --home: a typed user error, nothing created', () => {
    const h = fresh(mode, ['a1']);
    const file = join(h.root, 'a-file');
    writeFileSync(file, 'x');
    const cases: Array<{ args: string[]; code: string }> = [
      { args: ['init', '--home', '/proc/nope', '--agent', 'x'], code: 'HOME_UNUSABLE' },
      { args: ['init', '--home', file, '--agent', 'x'], code: 'HOME_UNUSABLE' },
      { args: ['tree', '--home', file, '--agent', 'x'], code: 'HOME_UNUSABLE' },
      { args: ['tree', '--home', file], code: 'HOME_UNUSABLE' },
      {
        args: ['memory', 'create', 'a.md', '--description', 'd', '--reason', 'r', '--home', file, '--agent', 'x'],
        code: 'HOME_UNUSABLE',
      },
      { args: ['init', '--home', '', '--agent', 'x'], code: 'INVALID_ARGUMENT' },
      { args: ['tree', '--home=', '--agent', 'a1'], code: 'INVALID_ARGUMENT' },
      { args: ['clone', join(h.root, 'nowhere.git'), '--home', file], code: 'HOME_UNUSABLE' },
    ];
    const cwd = makeTmpDir('gitmem-cwd-');
    for (const c of cases) {
      const r = h.run(c.args, { cwd });
      expect({ args: c.args, code: r.code, error: errorCode(r) }).toEqual({ args: c.args, code: 1, error: c.code });
    }
    expect(existsSync(join(cwd, 'agents'))).toBe(false); // --home "" did not mean the current directory
  });

  it('no daemon is started for a home that does not exist or a call that failed there', () => {
    const h = fresh(mode);
    const missing = join(h.root, 'no-such-home');
    const cwd = makeTmpDir('gitmem-cwd-');
    mkdirSync(join(cwd, 'sub'));
    for (const args of [
      ['tree', '--home', missing],
      ['log', '--home', missing, '--agent', 'a'],
      ['tree', '--home', ''],
      ['tree', '--home', cwd],
    ]) {
      const r = h.run(args, { cwd });
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
    }
    for (const home of [missing, cwd]) {
      const status = runGitmem(h.env, ['daemon', 'status', '--json', '--home', home]);
      expect(JSON.parse(status.stdout)).toMatchObject({ running: false });
    }
    expect(existsSync(missing)).toBe(false);
  });
});
