import { describe, expect, it } from 'vitest';
import { isDotGitLike, PATH_LIMITS, pathProblem } from './path-rules.js';

describe('path rules', () => {
  it('accepts ordinary memory paths', () => {
    for (const p of [
      'system/human.md',
      'notes/café.md',
      '.github/x.md',
      'a/.gitignore',
      'a/.gitx/b.md',
      'skills/git/SKILL.md',
      'notes/10:00.md',
    ]) {
      expect(pathProblem(p), p).toBeNull();
    }
  });

  it('refuses every .git look-alike in any component', () => {
    const looks = [
      '.git',
      '.GIT',
      '.Git',
      '.git.',
      '.git ',
      '.git. . ',
      'GIT~1',
      'git~1',
      '.git::$INDEX_ALLOCATION',
      '.g\u200cit',
      '\ufeff.git',
    ];
    for (const s of looks) {
      expect(isDotGitLike(s), JSON.stringify(s)).toBe(true);
      expect(pathProblem(`x/${s}/config`), s).toMatch(/git's own directory/);
      expect(pathProblem(s), s).not.toBeNull();
    }
    expect(isDotGitLike('.github')).toBe(false);
    expect(isDotGitLike('.gitmodules')).toBe(false);
  });

  it('refuses what git verify_path refuses and malformed shapes', () => {
    const bad = [
      '',
      '/abs.md',
      'a//b.md',
      'a/',
      'a/./b.md',
      'a/../b.md',
      '..',
      'a\\b.md',
      'a\nb.md',
      'a\0b.md',
      'a\tb',
      'x\u007f',
      'bad\ud800.md',
    ];
    for (const p of bad) expect(pathProblem(p), JSON.stringify(p)).not.toBeNull();
  });

  it('bounds size and depth before looking at components', () => {
    expect(pathProblem(`${'x'.repeat(PATH_LIMITS.maxSegmentBytes + 1)}.md`)).toMatch(/component is/);
    expect(pathProblem('a/'.repeat(PATH_LIMITS.maxDepth) + 'b.md')).toMatch(/components/);
    expect(pathProblem('a/'.repeat(50_000) + 'b.md')).toMatch(/bytes long/);
    expect(pathProblem(`${'é'.repeat(128)}.md`)).toMatch(/component is 25[0-9]|component is 2[6-9][0-9]/);
  });
});
