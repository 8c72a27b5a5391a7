// `gitmem worker run` says what it threw away: files the command left uncommitted are listed in text mode,
// and a command that fails on a folder outside the sparse checkout is told to pass --paths.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHome, type CliHome } from '../../helpers/cli.js';
import { cleanupTmp } from '../../helpers/tmp.js';

const sandboxed = spawnSync('bwrap', ['--version']).status === 0;

describe.runIf(sandboxed)('worker run output', () => {
  let h: CliHome;
  beforeAll(() => {
    h = cliHome('local', ['a1']);
    const r = h.run([
      'memory',
      'create',
      'notes/deep/plan.md',
      '--description',
      'plan',
      '--text',
      'the plan\n',
      '--reason',
      'r',
      '--agent',
      'a1',
    ]);
    if (r.code !== 0) throw new Error(r.stderr);
  });
  afterAll(cleanupTmp);

  it('lists the files a command left uncommitted (they are discarded)', () => {
    const r = h.run([
      'worker',
      'run',
      '--agent',
      'a1',
      '--command',
      'echo x > system/left.md && mkdir -p n && echo y > n/two.md',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/no_changes/);
    expect(r.stdout).toMatch(/uncommitted.*discarded/i);
    expect(r.stdout).toContain('system/left.md');
    expect(r.stdout).toContain('n/two.md');
  });

  it('a command failing on a folder outside the sparse checkout is told to pass --paths', () => {
    const before = h.state('a1');
    const r = h.run(['worker', 'run', '--agent', 'a1', '--command', 'cat notes/deep/plan.md']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/notes\/ is not checked out.*--paths notes/);
    expect(h.state('a1')).toBe(before);
    const ok = h.run(['worker', 'run', '--agent', 'a1', '--paths', 'notes', '--command', 'cat notes/deep/plan.md']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toContain('the plan');
    expect(ok.stderr).not.toMatch(/--paths/);
  });
});
