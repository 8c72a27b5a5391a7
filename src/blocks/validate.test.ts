import { describe, expect, it } from 'vitest';
import { isReadOnlyValue } from './frontmatter.js';
import { isProtectedText } from './validate-protection.js';
import { validateChanges, type FileChange } from './validate.js';

const md = (extra = ''): string => `---\ndescription: d\n${extra}---\nbody\n`;
const added = (path: string, content: string, mode?: string): FileChange => ({
  status: 'added',
  path,
  content,
  headContent: null,
  ...(mode ? { mode } : {}),
});
const modified = (path: string, headContent: string, content: string, mode?: string): FileChange => ({
  status: 'modified',
  path,
  content,
  headContent,
  ...(mode ? { mode } : {}),
});
const deleted = (path: string, headContent: string): FileChange => ({
  status: 'deleted',
  path,
  content: null,
  headContent,
});

describe('validateChanges: what memory may hold', () => {
  it('refuses symbolic links and gitlinks whatever their path or content', () => {
    expect(validateChanges([added('lnk_self', '.', '120000')])).toEqual([
      'lnk_self: symbolic links are not allowed in memory (mode 120000)',
    ]);
    expect(validateChanges([added('notes/x.md', md(), '120000')])[0]).toMatch(/^notes\/x\.md: symbolic links/);
    expect(validateChanges([added('sub', '', '160000')])).toEqual([
      'sub: gitlinks (submodules) are not allowed in memory (mode 160000)',
    ]);
    expect(validateChanges([modified('notes/x.md', md(), '../../.git', '120000')])[0]).toMatch(/symbolic links/);
    expect(
      validateChanges([
        { status: 'renamed', path: 'b', oldPath: 'a', content: '.', headContent: '.', mode: '120000' },
      ])[0],
    ).toMatch(/^b: symbolic links/);
  });

  it('accepts regular files, executable or not, and the removal of a link', () => {
    expect(
      validateChanges([
        added('skills/x/run.sh', '#!/bin/sh\n', '100755'),
        added('notes/a.md', md(), '100644'),
        added('notes/b.md', md()),
      ]),
    ).toEqual([]);
    expect(validateChanges([{ status: 'deleted', path: 'lnk', content: null, headContent: '.' }])).toEqual([]);
  });

  it('checks the path rule on every path that stays, for every kind of file', () => {
    for (const p of [
      'x/.GIT/config',
      '.Git/hooks/pre-commit',
      '.git./x',
      '.g\u200cit/config',
      'a\\b.txt',
      'a\nb.md',
      'notes/bin.dat',
    ]) {
      const change = added(p, p.endsWith('.md') ? md() : 'data');
      const problems = validateChanges([change]);
      if (p === 'notes/bin.dat') expect(problems).toEqual([]);
      else expect(problems.length, JSON.stringify(p)).toBe(1);
    }
    expect(validateChanges([modified('x/.GIT/config', 'a', 'b')])[0]).toMatch(/git's own directory/);
    expect(
      validateChanges([{ status: 'renamed', path: '.GIT/x', oldPath: 'ok/x', content: 'a', headContent: 'a' }])[0],
    ).toMatch(/git's own directory/);
    // Removing a bad name is how a repository gets repaired.
    expect(validateChanges([deleted('x/.GIT/config', 'a')])).toEqual([]);
    expect(
      validateChanges([
        { status: 'renamed', path: 'ok/config', oldPath: '.GIT/config', content: 'a', headContent: 'a' },
      ]),
    ).toEqual([]);
  });

  it('names a path with control characters safely', () => {
    expect(validateChanges([added('a\nb.md', md())])[0]).toMatch(/^"a\\nb\.md": /);
  });
});

describe('read_only: what counts as protected', () => {
  it('any value but an explicit false protects', () => {
    for (const v of [true, 'true', 'yes', 'on', 1, 'Y', 'maybe', null, '', 2, ['x']])
      expect(isReadOnlyValue(v), JSON.stringify(v)).toBe(true);
    for (const v of [undefined, false, 0, 'false', 'FALSE', ' no ', 'Off', '0'])
      expect(isReadOnlyValue(v), JSON.stringify(v)).toBe(false);
  });

  it('a file whose frontmatter cannot be parsed is protected when a read_only line says so', () => {
    expect(isProtectedText('---\ndescription: d\nread_only: true\nread_only: false\n---\n')).toBe(true);
    expect(isProtectedText('---\ndescription: [broken\nread_only: yes\n---\n')).toBe(true);
    expect(isProtectedText('---\ndescription: d\nread_only: on # operator\n')).toBe(true);
    expect(isProtectedText('---\ndescription: [broken\nread_only: off\n---\n')).toBe(false);
    expect(isProtectedText('---\ndescription: d\n---\nread_only: true in the body\n')).toBe(false);
    expect(isProtectedText('no frontmatter\nread_only: true\n')).toBe(false);
  });

  it('refuses to modify, delete or rename a file protected by yes / on / 1 / invalid YAML / a duplicate key', () => {
    const heads = [
      md('read_only: yes\n'),
      md('read_only: on\n'),
      md('read_only: 1\n'),
      '---\ndescription: [x\nread_only: true\n---\n',
      '---\ndescription: d\nread_only: true\nread_only: true\n---\n',
    ];
    for (const head of heads) {
      expect(validateChanges([modified('system/r.md', head, md())])[0], head).toMatch(
        /read_only and cannot be modified/,
      );
      expect(validateChanges([deleted('system/r.md', head)])[0], head).toMatch(/read_only and cannot be deleted/);
      expect(
        validateChanges([
          { status: 'renamed', path: 'system/s.md', oldPath: 'system/r.md', content: head, headContent: head },
        ])[0],
        head,
      ).toMatch(/cannot be renamed/);
    }
  });

  it('refuses setting protection in any kind of file', () => {
    expect(validateChanges([added('notes/a.md', md('read_only: yes\n'))])[0]).toMatch(
      /'read_only' is a protected field/,
    );
    expect(validateChanges([added('skills/x/notes.txt', md('read_only: true\n'))])[0]).toMatch(
      /'read_only' is a protected field/,
    );
    expect(validateChanges([modified('skills/x/notes.txt', 'plain\n', md('read_only: true\n'))])[0]).toMatch(
      /'read_only' is a protected field/,
    );
  });

  it('a path on the protected list stays protected after its key is gone', () => {
    const protectedPaths = new Set(['system/locked.md']);
    const opts = { protectedPaths };
    expect(validateChanges([modified('system/locked.md', md(), md() + 'more\n')], opts)[0]).toMatch(
      /^system\/locked\.md: protected/,
    );
    expect(validateChanges([deleted('system/locked.md', md())], opts)[0]).toMatch(/protected/);
    expect(validateChanges([added('system/locked.md', md())], opts)[0]).toMatch(/protected/);
    expect(
      validateChanges(
        [{ status: 'renamed', path: 'system/free.md', oldPath: 'system/locked.md', content: md(), headContent: md() }],
        opts,
      )[0],
    ).toMatch(/^system\/locked\.md: protected/);
    expect(validateChanges([modified('system/other.md', md(), md() + 'x\n')], opts)).toEqual([]);
  });
});

describe('read_only: an operator lifts protection for one path, and every refusal names how', () => {
  it('each protection refusal names the operator command on the same line', () => {
    const locked = md('read_only: true\n');
    const lines = [
      ...validateChanges([modified('system/r.md', locked, md())]),
      ...validateChanges([deleted('system/r.md', locked)]),
      ...validateChanges([added('notes/a.md', md('read_only: yes\n'))]),
      ...validateChanges([modified('system/l.md', md(), md() + 'x\n')], { protectedPaths: new Set(['system/l.md']) }),
      ...validateChanges([deleted('system/l.md', md())], { protectedPaths: new Set(['system/l.md']) }),
    ];
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line, line).toMatch(/; an operator .*`gitmem protect (write|remove) <path>`\)?$/);
    for (const line of lines) expect(line).not.toContain('\n');
  });

  it('a lifted path may be written with read_only, changed, unlisted or not; every other rule still holds', () => {
    const liftProtection = new Set(['system/r.md']);
    const opts = { liftProtection, protectedPaths: new Set(['system/r.md']) };
    const locked = md('read_only: true\n');
    expect(validateChanges([added('system/r.md', locked)], opts)).toEqual([]);
    expect(validateChanges([modified('system/r.md', locked, md('read_only: true\n') + 'more\n')], opts)).toEqual([]);
    expect(validateChanges([modified('system/r.md', locked, md())], opts)).toEqual([]);
    expect(validateChanges([modified('system/r.md', md(), 'no frontmatter\n')], opts)[0]).toMatch(
      /missing frontmatter/,
    );
    expect(validateChanges([added('system/r.md', locked, '120000')], opts)[0]).toMatch(/symbolic links/);
    expect(validateChanges([added('system/r.md', md(`colour: red\nread_only: true\n`))], opts)[0]).toMatch(
      /unknown frontmatter key 'colour'/,
    );
    // Only that path: its neighbour is protected as before.
    expect(validateChanges([modified('system/s.md', locked, md())], opts)[0]).toMatch(/cannot be modified/);
  });
});
