import { describe, expect, it } from 'vitest';
import { gitmemRuntimeDir, gitmemRuntimeDirCandidates } from './runtime-dir.js';

const uid = process.getuid?.();

describe.runIf(uid !== undefined)('runtime dirs', () => {
  it('derives the daemon dir from XDG_RUNTIME_DIR, then TMPDIR; never from a relative base', () => {
    expect(gitmemRuntimeDir({ XDG_RUNTIME_DIR: '/run/x', TMPDIR: '/t' })).toBe(`/run/x/gitmem-${uid}`);
    expect(gitmemRuntimeDir({ TMPDIR: '/t' })).toBe(`/t/gitmem-${uid}`);
    expect(gitmemRuntimeDir({ XDG_RUNTIME_DIR: 'rel' })).toBeUndefined();
  });

  it('lists, with the same derivation, the dir of this environment and of the usual daemon environments', () => {
    const c = gitmemRuntimeDirCandidates({ XDG_RUNTIME_DIR: '/run/x', TMPDIR: '/t' });
    for (const d of ['/run/x', '/t', `/run/user/${uid}`, '/tmp', '/var/tmp', '/dev/shm'])
      expect(c).toContain(`${d}/gitmem-${uid}`);
    expect(new Set(c).size).toBe(c.length);
  });
});
