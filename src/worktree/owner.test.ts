import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  currentOwner,
  OWNER_MARKER,
  ownerState,
  processStartToken,
  readWorktreeOwner,
  writeWorktreeOwner,
  type WorktreeOwner,
} from './owner.js';

const owner = (over: Partial<WorktreeOwner> = {}): WorktreeOwner => ({
  pid: 4242,
  hostname: 'box',
  procStart: '100',
  createdAt: '2025-01-01T00:00:00.000Z',
  branchName: 'gitmem/worker/x',
  baseHead: 'abc',
  ...over,
});

describe('worktree owner marker', () => {
  it('tells a live owner from a dead one, a reused pid and another host', () => {
    const alive = () => true;
    expect(ownerState(owner(), { hostname: 'box', isAlive: alive, startToken: () => '100' })).toBe('alive');
    expect(ownerState(owner(), { hostname: 'box', isAlive: () => false })).toBe('gone');
    expect(ownerState(owner(), { hostname: 'box', isAlive: alive, startToken: () => '999' })).toBe('gone');
    expect(ownerState(owner({ procStart: null }), { hostname: 'box', isAlive: alive, startToken: () => '999' })).toBe(
      'alive',
    );
    expect(ownerState(owner(), { hostname: 'box', isAlive: alive, startToken: () => null })).toBe('alive');
    expect(ownerState(owner(), { hostname: 'elsewhere', isAlive: () => false })).toBe('other_host');
  });

  it('describes the current process, which is alive by every check', () => {
    const me = currentOwner({ branchName: 'gitmem/worker/y', baseHead: 'def' });
    expect(me).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
      branchName: 'gitmem/worker/y',
      baseHead: 'def',
    });
    if (process.platform === 'linux') expect(processStartToken(process.pid)).toMatch(/^\d+$/);
    expect(ownerState(me)).toBe('alive');
    expect(processStartToken(2 ** 30)).toBeNull();
  });

  it('round-trips through the marker file and reads a broken one as unknown', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-owner-'));
    try {
      expect(readWorktreeOwner(dir)).toBeNull();
      writeWorktreeOwner(dir, owner());
      expect(readWorktreeOwner(dir)).toEqual(owner());
      writeFileSync(join(dir, OWNER_MARKER), '{"pid":"x"}');
      expect(readWorktreeOwner(dir)).toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
