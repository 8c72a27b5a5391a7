import { describe, expect, it } from 'vitest';
import { canMoveTo, insidePath, isWithin, normalizePolicy, withReadPaths, type SandboxPolicy } from './policy.js';
import { buildMemoryWriterPolicy } from './writer-policy.js';
import { planLayers } from './layers.js';
import { errorCodeOf } from '../../test/helpers/errors.js';

const H = '/h';
const base = {
  gitmemHome: H,
  agentId: 'a1',
  memoryDir: '/h/agents/a1/memory',
  worktreesDir: '/h/agents/a1/memory-worktrees',
};

describe('isWithin', () => {
  it('compares whole path segments, normalised or not', () => {
    const cases: Array<[string, string, boolean]> = [
      ['/h/agents', '/h/agents/a1', true],
      ['/h/agents', '/h/agents', true],
      ['/h/agents', '/h/agentsX', false],
      ['/', '/x', true],
      ['/', '/', true],
      ['/h/a', '/h', false],
      ['/h/a/', '/h/a/b', true],
      ['/h/a', '/h/a/../b', false],
      ['/h//a', '/h/a/b', true],
      ['/h/./a', '/h/a', true],
    ];
    for (const [parent, child, want] of cases) expect(isWithin(parent, child), `${parent} ⊇ ${child}`).toBe(want);
  });
});

describe('buildMemoryWriterPolicy', () => {
  it('hides the whole gitmem home and re-opens only the own checkout, its .git and worktrees', () => {
    const p = buildMemoryWriterPolicy({ ...base, stateDirs: ['/h/state'], extraWritable: ['/work/out/'] });
    expect(p.deniedRoots).toEqual(['/h']);
    expect(p.reopenedRoots).toEqual([
      { path: '/h/agents/a1/memory', writable: false },
      { path: '/h/agents/a1/memory/.git', writable: true },
      { path: '/h/agents/a1/memory/.git/hooks', writable: false },
      { path: '/h/agents/a1/memory/.git/config', writable: false },
      { path: '/h/agents/a1/memory-worktrees', writable: true },
      { path: '/h/state', writable: true, create: true },
    ]);
    expect(p.writableRoots).toEqual(['/work/out']);
    expect(p.readonlyRoots).toEqual([]);
    expect(p.allowNetwork).toBe(false);
    expect(p.privateTmp).toBe(true);
    expect(p.emptyHome).toBe('/var/empty');
  });

  it('turns the network on only when asked', () => {
    expect(buildMemoryWriterPolicy({ ...base, allowNetwork: true }).allowNetwork).toBe(true);
  });

  it('pins the worker worktree .git link read-only when the worktree is named', () => {
    const p = buildMemoryWriterPolicy({ ...base, worktreeDir: '/h/agents/a1/memory-worktrees/w1' });
    expect(p.reopenedRoots).toContainEqual({ path: '/h/agents/a1/memory-worktrees/w1/.git', writable: false });
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, worktreeDir: '/elsewhere/w1' }))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('refuses relative paths instead of anchoring them at the cwd', () => {
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, memoryDir: 'agents/a1/memory' }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, gitmemHome: '' }))).toBe('INVALID_ARGUMENT');
  });

  it('refuses a memory dir that belongs to another agent and ids with path characters', () => {
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, agentId: 'b2' }))).toBe('INVALID_ARGUMENT');
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, agentId: '../a1' }))).toBe('INVALID_AGENT_ID');
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, agentId: '..' }))).toBe('INVALID_AGENT_ID');
  });

  it("refuses a state dir inside another agent's tree or around the whole home", () => {
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, stateDirs: ['/h/agents/b2/state'] }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, stateDirs: ['/'] }))).toBe('INVALID_ARGUMENT');
    expect(errorCodeOf(() => buildMemoryWriterPolicy({ ...base, stateDirs: ['/h'] }))).toBe('INVALID_ARGUMENT');
  });
});

describe('withReadPaths', () => {
  const writer = buildMemoryWriterPolicy(base);

  it('adds plain read-only roots outside the hidden home, and re-opens one inside it', () => {
    const p = withReadPaths(writer, ['/srv/notes/', '/h/agents/a1/memory-worktrees/w.transcript.json']);
    expect(normalizePolicy(p).readonlyRoots).toEqual(['/srv/notes']);
    expect(p.reopenedRoots).toContainEqual({
      path: '/h/agents/a1/memory-worktrees/w.transcript.json',
      writable: false,
    });
  });

  it('never re-exposes the hidden home itself, and keeps it hidden under a wider read path', () => {
    expect(errorCodeOf(() => normalizePolicy(withReadPaths(writer, ['/h'])))).toBe('INVALID_ARGUMENT');
    const wide = normalizePolicy(withReadPaths({ ...writer, deniedRoots: ['/wide/h'], reopenedRoots: [] }, ['/wide']));
    expect(planLayers(wide).map((l) => `${l.kind}:${l.path}`)).toEqual(['plain:/wide', 'denied:/wide/h']);
    expect(errorCodeOf(() => withReadPaths(writer, ['relative']))).toBe('INVALID_ARGUMENT');
  });
});

describe('normalizePolicy', () => {
  const empty: SandboxPolicy = {
    readonlyRoots: [],
    writableRoots: [],
    deniedRoots: [],
    reopenedRoots: [],
    allowNetwork: false,
  };

  it('strips trailing slashes, removes duplicates and drops "/" from read-only roots', () => {
    const p = normalizePolicy({ ...empty, writableRoots: ['/a/b/', '/a/b', '/a//c'], readonlyRoots: ['/'] });
    expect(p.writableRoots).toEqual(['/a/b', '/a/c']);
    expect(p.readonlyRoots).toEqual([]);
  });

  it('refuses a re-opened root that contains a denied root', () => {
    const p = { ...empty, deniedRoots: ['/h/agents'], reopenedRoots: [{ path: '/h', writable: true }] };
    expect(errorCodeOf(() => normalizePolicy(p))).toBe('INVALID_ARGUMENT');
  });

  it('accepts a plain root that is an ancestor of a denied root (the denial is layered on top)', () => {
    const p = normalizePolicy({ ...empty, writableRoots: ['/h'], deniedRoots: ['/h/agents'] });
    expect(planLayers(p).map((l) => `${l.kind}:${l.path}`)).toEqual(['plain:/h', 'denied:/h/agents']);
  });
});

describe('planLayers', () => {
  it('orders plain, then denied, then re-opened roots, each ancestors first', () => {
    const p = normalizePolicy({
      readonlyRoots: ['/w/inner'],
      writableRoots: ['/w/inner/deeper', '/w'],
      deniedRoots: ['/d'],
      reopenedRoots: [
        { path: '/d/a/memory/.git', writable: true },
        { path: '/d/a/memory', writable: false },
      ],
      allowNetwork: false,
    });
    expect(planLayers(p).map((l) => `${l.kind}:${l.path}:${'writable' in l ? l.writable : '-'}`)).toEqual([
      'plain:/w:true',
      'plain:/w/inner:false',
      'plain:/w/inner/deeper:true',
      'denied:/d:-',
      'reopened:/d/a/memory:false',
      'reopened:/d/a/memory/.git:true',
    ]);
  });

  it('applies read-only last when the same path is listed both ways', () => {
    const p = normalizePolicy({
      readonlyRoots: ['/x'],
      writableRoots: ['/x'],
      deniedRoots: [],
      reopenedRoots: [],
      allowNetwork: false,
    });
    expect(planLayers(p).map((l) => ('writable' in l ? l.writable : null))).toEqual([true, false]);
  });
});

describe('moved roots', () => {
  const writer = buildMemoryWriterPolicy(base);
  it('may go only where no root, the private /tmp or the home is, above or below', () => {
    expect(canMoveTo(writer, '/run/gitmem-hook')).toBe(true);
    for (const taken of ['/', '/tmp/x', '/h', '/h/agents/a1/memory/x', '/var/empty', '/var'])
      expect(canMoveTo(writer, taken), taken).toBe(false);
    expect(canMoveTo({ ...writer, readonlyRoots: ['/run'] }, '/run/gitmem-hook')).toBe(false);
    expect(
      canMoveTo({ ...writer, movedRoots: [{ path: '/tmp/a', inside: '/run/gitmem-hook' }] }, '/run/gitmem-hook/x'),
    ).toBe(false);
    expect(
      errorCodeOf(() => normalizePolicy({ ...writer, movedRoots: [{ path: '/tmp/ch', inside: '/tmp/inside' }] })),
    ).toBe('INVALID_ARGUMENT');
  });

  it('says where a host path is seen inside: under a moved root at its new place, anywhere else where it is', () => {
    const p = normalizePolicy({ ...writer, movedRoots: [{ path: '/tmp/ch-1/', inside: '/run/gitmem-hook' }] });
    expect(p.movedRoots).toEqual([{ path: '/tmp/ch-1', inside: '/run/gitmem-hook' }]);
    expect(insidePath(p, '/tmp/ch-1/h.sock')).toBe('/run/gitmem-hook/h.sock');
    expect(insidePath(p, '/tmp/ch-1')).toBe('/run/gitmem-hook');
    expect(insidePath(p, '/tmp/ch-10/h.sock')).toBe('/tmp/ch-10/h.sock');
    expect(insidePath(writer, '/tmp/ch-1/h.sock')).toBe('/tmp/ch-1/h.sock');
  });
});
