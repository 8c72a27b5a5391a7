import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { editFileIn, grepIn, listDirIn, readFileIn, writeFileIn } from './fs-tools.js';
import { errorCodeOf } from '../../test/helpers/errors.js';

afterAll(cleanupTmp);

function setup() {
  const base = makeTmpDir('gitmem-fstools-');
  const root = join(base, 'wt');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'system'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'system', 'human.md'), '---\ndescription: the user\n---\nPrefers tabs.\nLikes tea.\n');
  writeFileSync(join(root, '.git'), 'gitdir: /somewhere/.git/worktrees/x\n');
  writeFileSync(join(outside, 'secret.md'), 'top secret\n');
  symlinkSync(outside, join(root, 'escape'));
  symlinkSync(join(outside, 'secret.md'), join(root, 'system', 'link.md'));
  return { root, outside };
}

describe('sub-agent file tools', () => {
  const { root, outside } = setup();

  it('read, list and grep inside the root', () => {
    expect(readFileIn(root, { path: 'system/human.md' })).toContain('Prefers tabs.');
    expect(readFileIn(root, { path: `${root}/system/human.md`, offset: 4, limit: 1 })).toBe('Prefers tabs.');
    const listing = listDirIn(root, {});
    expect(listing.split('\n')).toContain('system/human.md');
    expect(listing).not.toContain('.git');
    expect(grepIn(root, { pattern: 'TABS', ignoreCase: true, path: 'system' })).toBe(
      'system/human.md:4: Prefers tabs.',
    );
  });

  it('edit_file replaces a unique exact string and refuses missing or ambiguous ones', () => {
    expect(
      editFileIn(root, { path: 'system/human.md', old_string: 'Prefers tabs.', new_string: 'Prefers spaces.' }),
    ).toContain('Edited');
    expect(readFileSync(join(root, 'system/human.md'), 'utf8')).toContain('Prefers spaces.');
    expect(errorCodeOf(() => editFileIn(root, { path: 'system/human.md', old_string: 'nope', new_string: 'x' }))).toBe(
      'NO_MATCH',
    );
    writeFileSync(join(root, 'dup.md'), 'a a');
    expect(errorCodeOf(() => editFileIn(root, { path: 'dup.md', old_string: 'a', new_string: 'b' }))).toBe(
      'AMBIGUOUS_MATCH',
    );
    editFileIn(root, { path: 'dup.md', old_string: 'a', new_string: 'b', replace_all: true });
    expect(readFileSync(join(root, 'dup.md'), 'utf8')).toBe('b b');
  });

  it('write_file creates parents inside the root', () => {
    expect(writeFileIn(root, { path: 'project/tools/bun.md', content: 'x\n' })).toContain('Created');
    expect(readFileSync(join(root, 'project/tools/bun.md'), 'utf8')).toBe('x\n');
  });

  it('refuses traversal, absolute paths elsewhere, symlink escapes and .git writes', () => {
    expect(errorCodeOf(() => readFileIn(root, { path: '../outside/secret.md' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => readFileIn(root, { path: join(outside, 'secret.md') }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => readFileIn(root, { path: 'escape/secret.md' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => readFileIn(root, { path: 'system/link.md' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => listDirIn(root, { path: '..' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => grepIn(root, { pattern: 'secret', path: 'escape' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => writeFileIn(root, { path: 'escape/new.md', content: 'pwn' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => writeFileIn(root, { path: 'system/link.md', content: 'pwn' }))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => writeFileIn(root, { path: '.git', content: 'gitdir: /tmp/evil' }))).toBe('INVALID_PATH');
    expect(errorCodeOf(() => writeFileIn(root, { path: 'sub/.git/config', content: '' }))).toBe('INVALID_PATH');
    expect(errorCodeOf(() => editFileIn(root, { path: '/etc/passwd', old_string: 'root', new_string: 'x' }))).toBe(
      'PATH_ESCAPE',
    );
    expect(errorCodeOf(() => writeFileIn(root, { path: 'a\0b', content: '' }))).toBe('INVALID_PATH');
    expect(existsSync(join(outside, 'new.md'))).toBe(false);
    expect(readFileSync(join(outside, 'secret.md'), 'utf8')).toBe('top secret\n');
    expect(grepIn(root, { pattern: 'top secret' })).toBe('No matches.');
  });
});
