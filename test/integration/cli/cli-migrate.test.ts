/** `gitmem migrate` through the real CLI: a dry run changes nothing, a migration lands one commit, bad values refused. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliHome, errorCode } from '../../helpers/cli.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

describe('gitmem migrate (CLI)', () => {
  const h = cliHome('local', ['m1']);
  const dir = h.memoryDir('m1');

  it('refuses a layout that is not system or index, and the layout it already has, changing nothing', () => {
    const before = h.state('m1');
    const bad = h.run(['migrate', '--agent', 'm1', '--layout', 'flat']);
    expect(bad.code).toBe(1);
    expect(errorCode(bad)).toBe('INVALID_ARGUMENT');
    const same = h.run(['migrate', '--agent', 'm1', '--layout', 'system']);
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/already system/);
    expect(h.state('m1')).toBe(before);
  });

  it('--dry-run prints the diff and changes nothing; without it one commit lands and gitmem.layout follows', () => {
    const before = h.state('m1');
    const dry = h.run(['migrate', '--agent', 'm1', '--layout', 'index', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/persona\.md/);
    expect(dry.stdout).toMatch(/dry run: \d+ file\(s\) would move from the system layout to index; nothing changed/);
    expect(h.state('m1')).toBe(before);
    const head = git(dir, ['rev-parse', 'HEAD']);
    const r = h.run(['migrate', '--agent', 'm1', '--layout', 'index', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { commit: string; to: string };
    expect(out.to).toBe('index');
    expect(git(dir, ['rev-parse', 'HEAD'])).toBe(out.commit);
    expect(git(dir, ['rev-parse', 'HEAD~1'])).toBe(head);
    expect(git(dir, ['config', '--get', 'gitmem.layout'])).toBe('index');
    expect(existsSync(join(dir, 'system'))).toBe(false);
    expect(readFileSync(join(dir, 'persona.md'), 'utf8')).toMatch(/^---\nname: persona\n/);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });
});
