import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { peerRefusal, sweepTickets, ticketClaim, ticketPath } from './peer.js';

const dir = mkdtempSync(join(tmpdir(), 'gitmem-peer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const socket = join(dir, 'ab12.sock');
const hasProc = process.platform === 'linux';

describe('ticketClaim', () => {
  it('reads pid and path from a ticket of this socket only', () => {
    expect(ticketClaim(socket, 'ab12.sock.42-x1.ticket')).toEqual({ pid: 42, holds: ticketPath(socket, 42, 'x1') });
    for (const bad of [
      'other.sock.42-x1.ticket',
      '../ab12.sock.42-x1.ticket',
      'ab12.sock.x-1.ticket',
      'ab12.sock.42-x1',
      7,
      undefined,
    ]) {
      expect(ticketClaim(socket, bad)).toBeUndefined();
    }
  });
});

describe.runIf(hasProc)('peerRefusal', () => {
  it('accepts a process of this mount namespace that holds the file it names', () => {
    const file = ticketPath(socket, process.pid, 'ok');
    const fd = openSync(file, 'wx', 0o600);
    try {
      expect(peerRefusal({ pid: process.pid, holds: file }, {})).toBeUndefined();
      expect(peerRefusal({ pid: process.pid, holds: file }, { GITMEM_SANDBOX: 'bwrap' })).toMatch(
        /inside a gitmem sandbox/,
      );
    } finally {
      closeSync(fd);
    }
  });

  it('refuses a claim naming a process that does not hold the file, a missing claim, a bad pid', () => {
    const file = join(dir, 'not-held');
    writeFileSync(file, '');
    expect(peerRefusal({ pid: process.pid, holds: file }, {})).toMatch(/does not hold/);
    expect(peerRefusal(undefined, {})).toMatch(/did not say/);
    expect(peerRefusal({ pid: -1, holds: file }, {})).toMatch(/did not say/);
    expect(peerRefusal({ pid: 2 ** 22 + 17, holds: file }, {})).toMatch(/mount namespace/);
  });

  it('sweeps tickets whose client is gone and keeps live ones', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const dead = await new Promise<number>((r) => child.on('exit', () => r(child.pid ?? 0)));
    writeFileSync(ticketPath(socket, dead, 'gone'), '');
    writeFileSync(ticketPath(socket, process.pid, 'live'), '');
    sweepTickets(socket);
    expect(existsSync(ticketPath(socket, dead, 'gone'))).toBe(false);
    expect(existsSync(ticketPath(socket, process.pid, 'live'))).toBe(true);
  });
});
