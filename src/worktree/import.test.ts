// Pure helpers of the import step and the worktree git environments: pack headers, left/right counts,
// alternates quoting, and which variables the writer and the harness get.
import { describe, expect, it } from 'vitest';
import { alternateEntry, harnessWorktreeEnv, privateGitDirFor, workerObjectEnv } from './git-env.js';
import { packObjectCount, parseLeftRight } from './import.js';

const header = (magic: string, version: number, count: number): Buffer => {
  const b = Buffer.alloc(12);
  b.write(magic, 0, 'latin1');
  b.writeUInt32BE(version, 4);
  b.writeUInt32BE(count, 8);
  return b;
};

describe('import helpers', () => {
  it('reads the object count of a version 2 or 3 pack and refuses anything else', () => {
    expect(packObjectCount(header('PACK', 2, 5))).toBe(5);
    expect(packObjectCount(header('PACK', 3, 70_000))).toBe(70_000);
    expect(() => packObjectCount(header('PACK', 4, 1))).toThrow(/unsupported pack version 4/);
    expect(() => packObjectCount(header('JUNK', 2, 1))).toThrow(/did not produce a pack/);
    expect(() => packObjectCount(Buffer.from('PACK'))).toThrow(/did not produce a pack/);
  });

  it('parses rev-list --left-right --count and refuses other output', () => {
    expect(parseLeftRight('0\t3\n')).toEqual({ baseOnly: 0, tipOnly: 3 });
    expect(parseLeftRight('2 1')).toEqual({ baseOnly: 2, tipOnly: 1 });
    expect(() => parseLeftRight('fatal: bad revision')).toThrow(/unexpected rev-list output/);
  });
});

describe('worktree git environments', () => {
  const dirs = {
    worktreeDir: '/h/a/memory-worktrees/worker-x',
    gitDir: '/h/a/memory/.git/gitmem-worktrees/worker-x',
    gitCommonDir: '/h/a/memory/.git',
  };

  it('gives the writer only its private object directory and the shared store as an alternate', () => {
    expect(workerObjectEnv(dirs)).toEqual({
      GIT_OBJECT_DIRECTORY: '/h/a/memory/.git/gitmem-worktrees/worker-x/objects',
      GIT_ALTERNATE_OBJECT_DIRECTORIES: '/h/a/memory/.git/objects',
    });
  });

  it('gives the harness every location explicitly, the common dir included (no writer-written pointer is followed)', () => {
    expect(harnessWorktreeEnv(dirs)).toMatchObject({
      GIT_DIR: dirs.gitDir,
      GIT_COMMON_DIR: dirs.gitCommonDir,
      GIT_WORK_TREE: dirs.worktreeDir,
    });
  });

  it('quotes an alternate that contains the list separator or a quote', () => {
    expect(alternateEntry('/plain/objects')).toBe('/plain/objects');
    expect(alternateEntry('/a:b/objects')).toBe('"/a:b/objects"');
    expect(alternateEntry('/a"b\\c')).toBe('"/a\\"b\\\\c"');
  });

  it('names the private git dir after the worktree directory', () => {
    expect(privateGitDirFor('/m/.git', '/m-wt/worker-x')).toBe('/m/.git/gitmem-worktrees/worker-x');
  });
});
