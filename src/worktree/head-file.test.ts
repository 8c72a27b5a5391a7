// HEAD from the checkout's files: the loose-ref shape only; anything else is left to git (null).
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../test/helpers/tmp.js';
import { readHeadFile } from './head-file.js';

afterEach(cleanupTmp);

function repo(): { dir: string; git: (...args: string[]) => string } {
  const dir = makeTmpDir();
  const env = hermeticGitEnv(dir);
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: dir, env, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  writeFileSync(join(dir, 'a.md'), 'a\n');
  git('add', 'a.md');
  git('commit', '-q', '-m', 'a');
  return { dir, git };
}

describe('readHeadFile', () => {
  it('reads a branch HEAD through its loose ref, and a detached HEAD', () => {
    const r = repo();
    expect(readHeadFile(r.dir)).toBe(r.git('rev-parse', 'HEAD'));
    r.git('checkout', '-q', '--detach');
    expect(readHeadFile(r.dir)).toBe(r.git('rev-parse', 'HEAD'));
  });

  it('leaves packed refs, an unborn branch, a linked HEAD and a .git file to git', () => {
    const r = repo();
    r.git('pack-refs', '--all');
    expect(readHeadFile(r.dir)).toBeNull();
    const u = repo();
    u.git('symbolic-ref', 'HEAD', 'refs/heads/unborn');
    expect(readHeadFile(u.dir)).toBeNull();
    const l = repo();
    const ref = join(l.dir, '.git', 'refs', 'heads', 'main');
    const id = l.git('rev-parse', 'HEAD');
    rmSync(ref);
    writeFileSync(`${ref}.real`, `${id}\n`);
    symlinkSync(`${ref}.real`, ref);
    expect(readHeadFile(l.dir)).toBeNull();
    const w = repo();
    const wt = join(w.dir, 'wt');
    w.git('worktree', 'add', '-q', '--detach', wt);
    expect(readHeadFile(wt)).toBeNull();
  });
});
