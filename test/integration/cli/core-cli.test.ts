import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const MAIN = join(process.cwd(), 'dist/bin/gitmem.cjs');
let home: string;
let env: Record<string, string>;

function cli(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [MAIN, ...args], { env, encoding: 'utf8', input: input ?? '' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  home = makeTmpDir('gitmem-cli-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
});
afterAll(cleanupTmp);

describe('gitmem CLI', () => {
  it('init creates the repo, prints id and path, and --json', () => {
    const r = cli(['init', '--agent', 'ada', '--name', 'Ada', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ agentId: 'ada', created: true, memoryDir: join(home, 'agents/ada/memory') });
    const again = cli(['init', '--agent', 'ada']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already exists');
    expect(again.stdout).toContain('hooks are up to date');
    rmSync(join(out.memoryDir, '.git/hooks/pre-commit'));
    const repaired = cli(['init', '--agent', 'ada', '--json']);
    expect(JSON.parse(repaired.stdout)).toMatchObject({ created: false, repairedHooks: ['pre-commit'] });
    expect(git(out.memoryDir, ['log', '-1', '--format=%an'])).toBe('Ada');
  });

  it('rejects a bad agent id with a typed one-line error and exit 1', () => {
    const r = cli(['init', '--agent', '../evil']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: INVALID_AGENT_ID: /);
    expect(r.stderr).not.toContain('    at ');
  });

  it('memory create / str-replace / tool --call write one commit each', () => {
    const base = ['--agent', 'ada'];
    expect(
      cli(['memory', 'create', 'notes/a.md', '--description', 'A', '--text', 'one', '--reason', 'add a', ...base]).code,
    ).toBe(0);
    expect(
      cli(['memory', 'str-replace', 'notes/a', '--old', 'one', '--new', 'two', '--reason', 'fix a', ...base]).code,
    ).toBe(0);
    const call = JSON.stringify({
      command: 'insert',
      reason: 'more',
      file_path: 'notes/a',
      insert_line: 4,
      insert_text: 'three',
    });
    const r = cli(['memory', 'tool', '--call', call, ...base]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Memory insert committed');
    const log = JSON.parse(cli(['log', '-n', '3', '--json', ...base]).stdout);
    expect(log.map((e: { reason: string }) => e.reason)).toEqual(['more', 'fix a', 'add a']);
    expect(log[0].author).toBe('Ada'); // the name given to init signs later writes too
    expect(log[0].files).toEqual(['notes/a.md']);
  });

  it('apply-patch reads the patch from stdin', () => {
    const patch = '*** Begin Patch\n*** Update File: notes/a.md\n@@\n-two\n+TWO\n*** End Patch\n';
    const r = cli(['memory', 'apply-patch', '--reason', 'shout', '--agent', 'ada'], patch);
    expect(r.code).toBe(0);
    expect(readFileSync(join(home, 'agents/ada/memory/notes/a.md'), 'utf8')).toContain('TWO');
  });

  it('user errors exit 1 with the error code; --json adds a JSON error', () => {
    const r = cli(['memory', 'delete', 'nope', '--reason', 'r', '--agent', 'ada', '--json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: FILE_NOT_FOUND: /);
    expect(JSON.parse(r.stdout).error.code).toBe('FILE_NOT_FOUND');
    expect(cli(['memory', 'create', 'x', '--description', 'd', '--agent', 'ada']).stderr).toMatch(
      /INVALID_ARGUMENT: .*reason/,
    );
    expect(cli(['bogus']).code).toBe(1);
    expect(cli(['log', '--nope']).code).toBe(1);
    expect(cli(['status']).stdout).toContain(join(home, 'agents/ada/memory')); // the home's only agent
  });

  it('status, tree, prompt, agents and personality', () => {
    const base = ['--agent', 'ada'];
    writeFileSync(join(home, 'agents/ada/memory/dirty.md'), 'x');
    const st = JSON.parse(cli(['status', '--json', ...base]).stdout);
    expect(st.dirty).toBe(true);
    expect(cli(['personality', 'apply', 'stern', ...base]).stderr).toMatch(/REPO_DIRTY/);
    execFileSync('rm', [join(home, 'agents/ada/memory/dirty.md')]);
    expect(cli(['tree', ...base]).stdout).toContain('a.md — A');
    expect(cli(['prompt', '--mode', 'standard', ...base]).code).toBe(0);
    expect(cli(['prompt', '--preset', 'nope', ...base]).stderr).toMatch(/UNKNOWN_PRESET/);
    expect(JSON.parse(cli(['agents', '--json']).stdout)).toEqual([
      { agentId: 'ada', memoryDir: join(home, 'agents/ada/memory') },
    ]);
    expect(cli(['personality', 'list']).stdout).toContain('stern');
    const r = cli(['personality', 'apply', 'stern', ...base]);
    expect(r.code).toBe(0);
    expect(git(join(home, 'agents/ada/memory'), ['log', '-1', '--format=%s'])).toBe(
      'chore(personality): switch to stern',
    );
    expect(cli(['personality', 'apply', 'nope', ...base]).stderr).toMatch(/UNKNOWN_PERSONALITY/);
  });

  it('hook pre-commit checks the staged snapshot of the current repo', () => {
    const dir = join(home, 'agents/ada/memory');
    writeFileSync(join(dir, 'bad.md'), 'no frontmatter\n');
    git(dir, ['add', 'bad.md']);
    const r = spawnSync(process.execPath, [MAIN, 'hook', 'pre-commit'], { env, cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^gitmem: VALIDATION_FAILED: /);
    expect(r.stderr).toContain('bad.md: missing frontmatter');
    expect(r.stdout).toBe('');
    git(dir, ['rm', '-q', '--cached', 'bad.md']);
  });
});
