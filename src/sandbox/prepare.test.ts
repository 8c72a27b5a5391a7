import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { preparePolicy, resolveWithLinks } from './prepare.js';

const root = mkdtempSync(join(tmpdir(), 'gitmem-prepare-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resolveWithLinks', () => {
  it('follows every link on the way, recording each verbatim, and keeps a missing tail', () => {
    mkdirSync(join(root, 'real', 'deep'), { recursive: true });
    symlinkSync('real', join(root, 'rel'));
    symlinkSync(join(root, 'rel', 'deep'), join(root, 'abs'));
    const real = resolveWithLinks(root).real;
    const r = resolveWithLinks(join(root, 'abs', 'missing', 'x'));
    expect(r.real).toBe(join(real, 'real', 'deep', 'missing', 'x'));
    expect(r.links).toEqual([
      { path: join(real, 'abs'), target: join(root, 'rel', 'deep') },
      { path: join(real, 'rel'), target: 'real' },
    ]);
  });

  it('stops at a link loop instead of spinning', () => {
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    expect(resolveWithLinks(join(root, 'loop-a')).links.length).toBeLessThanOrEqual(41);
  });
});

describe('preparePolicy', () => {
  it('drops missing read-only roots, creates state dirs, names denied files and the links to recreate', () => {
    writeFileSync(join(root, 'secret'), 'x');
    symlinkSync(join(root, 'real'), join(root, 'linked'));
    const p = preparePolicy({
      readonlyRoots: [join(root, 'nope'), join(root, 'linked')],
      writableRoots: [],
      deniedRoots: [join(root, 'secret'), join(root, 'gone')],
      reopenedRoots: [{ path: join(root, 'real', 'deep', 'state'), writable: true, create: true }],
      allowNetwork: false,
    });
    const real = resolveWithLinks(root).real;
    expect(p.policy.readonlyRoots).toEqual([join(real, 'real')]);
    expect(p.deniedFiles).toEqual([join(real, 'secret')]);
    expect(p.policy.deniedRoots).toEqual([join(real, 'secret')]);
    expect(p.links).toContainEqual({ path: join(real, 'linked'), target: join(root, 'real') });
    expect(existsSync(join(root, 'real', 'deep', 'state'))).toBe(true);
  });
});

describe('preparePolicy, read-only roots that may not be there', () => {
  it("keeps exactly those that exist once resolved, as existsSync would say (the walk's lstat answers it)", () => {
    const dir = join(root, 'ro');
    mkdirSync(join(dir, 'here'), { recursive: true });
    writeFileSync(join(dir, 'file'), 'x');
    symlinkSync(join(dir, 'here'), join(dir, 'to-dir'));
    symlinkSync('file', join(dir, 'to-file'));
    symlinkSync(join(dir, 'nowhere'), join(dir, 'dangling'));
    symlinkSync('loop-2', join(dir, 'loop-1'));
    symlinkSync('loop-1', join(dir, 'loop-2'));
    const names = [
      'here',
      'file',
      'to-dir',
      'to-file',
      'dangling',
      'loop-1',
      'missing',
      'file/below',
      'to-file/below',
      'here/missing',
      'dangling/below',
    ];
    const roots = names.map((n) => join(dir, n));
    const p = preparePolicy({
      readonlyRoots: roots,
      writableRoots: [],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
    });
    const real = resolveWithLinks(dir).real;
    const want = [...new Set(roots.filter((r) => existsSync(r)).map((r) => resolveWithLinks(r).real))].sort();
    expect([...p.policy.readonlyRoots].sort()).toEqual(want);
    expect(want).toEqual([join(real, 'file'), join(real, 'here')]);
  });
});
