// RepoFs, the memory tool's race-safe file access, on a real file system: links are refused wherever they
// are met, a directory swapped for a link after it was opened keeps receiving the writes (never the
// link's target), and nothing blocks on a FIFO.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RepoFs } from '../../../src/memfs/repo-fs.js';
import { errorCodeOf } from '../../helpers/errors.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

function setup(procFd: boolean): { root: string; outside: string; fs: RepoFs } {
  const root = makeTmpDir('gitmem-repofs-');
  const outside = makeTmpDir('gitmem-outside-');
  mkdirSync(join(root, 'notes'));
  writeFileSync(join(root, 'notes/a.md'), 'a\n');
  symlinkSync(outside, join(root, 'out'));
  symlinkSync('notes/a.md', join(root, 'lnk.md'));
  return { root, outside, fs: new RepoFs(root, { procFd }) };
}

describe.each([true, false])('RepoFs (through /proc/self/fd: %s)', (procFd) => {
  it('refuses a link as a component or as the file, and a file used as a directory', () => {
    const { outside, fs } = setup(procFd);
    expect(errorCodeOf(() => fs.writeFile('out/x.md', Buffer.from('x')))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => fs.readFile('lnk.md'))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => fs.info('out/x.md'))).toBe('PATH_ESCAPE');
    expect(fs.info('lnk.md')?.kind).toBe('link');
    expect(errorCodeOf(() => fs.writeFile('notes/a.md/b.md', Buffer.from('x')))).toBe('INVALID_PATH');
    expect(readdirSync(outside)).toEqual([]);
    fs.close();
  });

  it('writes atomically, with the mode asked for, and leaves no temp file', () => {
    const { root, fs } = setup(procFd);
    fs.writeFile('deep/er/x.md', Buffer.from('x\n'), 0o755);
    expect(readFileSync(join(root, 'deep/er/x.md'), 'utf8')).toBe('x\n');
    expect(lstatSync(join(root, 'deep/er/x.md')).mode & 0o777).toBe(0o755);
    expect(readdirSync(join(root, 'deep/er'))).toEqual(['x.md']);
    fs.unlink('deep/er/x.md');
    fs.pruneEmptyDirs('deep/er');
    expect(existsSync(join(root, 'deep'))).toBe(false);
    fs.close();
  });

  it('refuses a FIFO or a directory as a file without blocking', () => {
    const { root, fs } = setup(procFd);
    execFileSync('mkfifo', [join(root, 'notes/pipe.md')]);
    expect(errorCodeOf(() => fs.readFile('notes/pipe.md'))).toBe('INVALID_PATH');
    expect(errorCodeOf(() => fs.readFile('notes'))).toBe('INVALID_PATH');
    expect(
      fs
        .list('notes')
        ?.map((e) => [e.name.toString(), e.kind])
        .sort(),
    ).toEqual([
      ['a.md', 'file'],
      ['pipe.md', 'other'],
    ]);
    fs.close();
  });

  it('lists names as raw bytes', () => {
    const { root, fs } = setup(procFd);
    writeFileSync(Buffer.concat([Buffer.from(join(root, 'notes/caf')), Buffer.from([0xe9])]), '');
    const names = (fs.list('notes') ?? []).map((e) => e.name.toString('latin1')).sort();
    expect(names).toEqual(['a.md', 'caf\xe9']);
    fs.close();
  });
});

describe('RepoFs when a directory it opened is swapped for a link', () => {
  it('through /proc: keeps writing into the directory it opened when that directory is swapped for a link', () => {
    const { root, outside, fs } = setup(true);
    expect(fs.readFile('notes/a.md')?.toString()).toBe('a\n'); // opens notes/
    renameSync(join(root, 'notes'), join(root, 'notes.real'));
    symlinkSync(outside, join(root, 'notes'));
    fs.writeFile('notes/b.md', Buffer.from('b\n'));
    fs.unlink('notes/a.md');
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(join(root, 'notes.real'))).toEqual(['b.md']);
    fs.close();
    const fresh = new RepoFs(root);
    expect(errorCodeOf(() => fresh.writeFile('notes/c.md', Buffer.from('c')))).toBe('PATH_ESCAPE');
    fresh.close();
  });

  it('without /proc: refuses to write once a directory it opened was swapped for a link', () => {
    const { root, outside, fs } = setup(false);
    expect(fs.readFile('notes/a.md')?.toString()).toBe('a\n');
    renameSync(join(root, 'notes'), join(root, 'notes.real'));
    symlinkSync(outside, join(root, 'notes'));
    expect(errorCodeOf(() => fs.writeFile('notes/b.md', Buffer.from('b\n')))).toBe('PATH_ESCAPE');
    expect(errorCodeOf(() => fs.unlink('notes/a.md'))).toBe('PATH_ESCAPE');
    expect(readdirSync(outside)).toEqual([]);
    fs.close();
  });
});
