import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../test/helpers/tmp.js';
import { readHeadQuick, readRefQuick } from './read-ref.js';

afterAll(cleanupTmp);

describe('refs read from the git dir (the objectReads fast path)', () => {
  it('reads loose and packed refs from the git dir and declines anything unusual', () => {
    const env = hermeticGitEnv(makeTmpDir());
    const dir = makeTmpDir('gitmem-readref-');
    git(dir, ['init', '-q', '-b', 'main'], env);
    writeFileSync(join(dir, 'a.md'), 'a\n');
    git(dir, ['add', '-A'], env);
    git(dir, ['commit', '-q', '-m', 'a'], env);
    const head = git(dir, ['rev-parse', 'HEAD'], env);
    const gitDir = join(dir, '.git');
    expect(readHeadQuick(gitDir)).toBe(head);
    git(dir, ['update-ref', 'refs/remotes/origin/main', head], env);
    expect(readRefQuick(gitDir, 'refs/remotes/origin/main')).toBe(head);
    git(dir, ['pack-refs', '--all'], env);
    expect(readRefQuick(gitDir, 'refs/remotes/origin/main')).toBe(head); // now only in packed-refs
    expect(readHeadQuick(gitDir)).toBe(head); // main now only in packed-refs too
    expect(readRefQuick(gitDir, 'refs/remotes/origin/gone')).toBeUndefined();
    expect(readRefQuick(gitDir, 'refs/../HEAD')).toBeUndefined();
    git(dir, ['symbolic-ref', 'refs/remotes/origin/sym', 'refs/heads/main'], env);
    expect(readRefQuick(gitDir, 'refs/remotes/origin/sym')).toBeUndefined();
    git(dir, ['checkout', '-q', '--detach'], env);
    expect(readHeadQuick(gitDir)).toBe(head); // a detached HEAD holds the id itself
    writeFileSync(join(gitDir, 'HEAD'), 'ref: refs/remotes/origin/sym\n');
    expect(readHeadQuick(gitDir)).toBeUndefined(); // HEAD through a symref: git answers
    mkdirSync(join(gitDir, 'wt'));
    writeFileSync(join(gitDir, 'wt', 'commondir'), '..\n');
    expect(readRefQuick(join(gitDir, 'wt'), 'refs/heads/main')).toBeUndefined();
  });
});
