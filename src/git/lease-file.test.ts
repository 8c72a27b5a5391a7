// The lease's staleness rule, pure: which locks may be broken and which must be respected.
import { describe, expect, it } from 'vitest';
import { isProcessAlive, staleReason, type LockFileState } from './lease-file.js';

const holder = { pid: 42, hostname: 'h1', startedAt: '', heartbeatAt: '', purpose: 'p', token: 't' };
const at = (mtimeMs: number, h: LockFileState['holder'] = holder): LockFileState => ({ holder: h, mtimeMs });
const opts = (isAlive: boolean, nowMs = 10_000) => ({ nowMs, staleMs: 5_000, hostname: 'h1', isAlive: () => isAlive });

describe('staleReason', () => {
  it('breaks a lock whose holder process is gone on this host', () => {
    expect(staleReason(at(9_999), opts(false))).toBe('dead_holder');
  });
  it('respects a live holder with a fresh heartbeat', () => {
    expect(staleReason(at(9_000), opts(true))).toBeNull();
  });
  it('never breaks the lock of a live holder on this host, however old its heartbeat', () => {
    expect(staleReason(at(4_000), opts(true))).toBeNull();
    expect(staleReason(at(-1_000_000), opts(true))).toBeNull();
  });
  it('breaks a lock whose pid now belongs to another process (start time differs)', () => {
    const o = { ...opts(true), startOf: () => '777' };
    expect(staleReason(at(9_999, { ...holder, pidStart: '776' }), o)).toBe('dead_holder');
    expect(staleReason(at(9_999, { ...holder, pidStart: '777' }), o)).toBeNull();
  });
  it('breaks a lock of another host whose heartbeat is older than staleMs', () => {
    expect(staleReason(at(4_000, { ...holder, hostname: 'h2' }), opts(true))).toBe('stale_heartbeat');
  });
  it('cannot check pids of another host, so only the heartbeat counts there', () => {
    expect(staleReason(at(9_000, { ...holder, hostname: 'h2' }), opts(false))).toBeNull();
  });
  it('waits 2 s before treating an unreadable lock as abandoned', () => {
    expect(staleReason(at(9_000, null), opts(true))).toBeNull();
    expect(staleReason(at(7_000, null), opts(true))).toBe('unreadable');
  });
  it('knows its own process is alive and pid 0 is not a holder', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(0)).toBe(false);
  });
});
