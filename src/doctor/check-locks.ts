/**
 * Stale locks and unfinished writes: gitmem's operation lease held by a process that is gone, git's own lock
 * files (index.lock, HEAD.lock, ref locks) left for minutes while no gitmem writer runs, and a write journal
 * whose writer died. Repair, under the lease (which itself recovers a dead holder's lease): remove those git
 * locks and finish or set aside the journal exactly as the next write would.
 */
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { withMemoryOperation, LEASE_FILE } from '../git/lease.js';
import { isProcessAlive, readLockFile, removeFile, staleReason } from '../git/lease-file.js';
import { recoverInterruptedWrite } from '../memfs/journal.js';
import { ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

/** A git lock older than this, with no gitmem writer holding the lease, belongs to no running command. */
export const STALE_GIT_LOCK_MS = 5 * 60_000;

function gitLocks(gitDir: string): string[] {
  const out = ['index.lock', 'HEAD.lock', 'ORIG_HEAD.lock', 'packed-refs.lock', 'config.lock'].map((f) =>
    join(gitDir, f),
  );
  const walk = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.isDirectory() && depth < 6) walk(join(dir, e.name), depth + 1);
      else if (e.name.endsWith('.lock')) out.push(join(dir, e.name));
    }
  };
  walk(join(gitDir, 'refs'), 0);
  return out;
}

function ageOf(path: string, now: number): number | null {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** What is stale right now: `lease`, old git locks, a journal. */
function staleThings(ctx: DoctorContext): { lease: string | null; locks: string[]; journal: string | null } {
  const now = ctx.now();
  const leaseState = readLockFile(join(ctx.gitDir, LEASE_FILE));
  const reason =
    leaseState === null
      ? null
      : staleReason(leaseState, { nowMs: now, staleMs: 60_000, hostname: hostname(), isAlive: isProcessAlive });
  const leaseLive = leaseState !== null && reason === null;
  const lease =
    reason === null
      ? null
      : `the operation lease is held by ${leaseState?.holder ? `pid ${leaseState.holder.pid} (${leaseState.holder.purpose})` : 'an unreadable record'}: ${reason}`;
  const locks = leaseLive ? [] : gitLocks(ctx.gitDir).filter((p) => (ageOf(p, now) ?? 0) >= STALE_GIT_LOCK_MS);
  const journalFile = join(ctx.gitDir, 'gitmem-write.json');
  const journal = ageOf(journalFile, now) === null || leaseLive ? null : `${journalFile}: a write that did not finish`;
  return { lease, locks, journal };
}

export const locksCheck: DoctorCheck = {
  title: 'stale locks and unfinished write journals',
  async run(ctx) {
    const s = staleThings(ctx);
    const details = [
      ...(s.lease ? [s.lease] : []),
      ...s.locks.map((l) => `${l}: a git lock left behind`),
      ...(s.journal ? [s.journal] : []),
    ];
    const setAside = readdirSafe(ctx.gitDir).filter((n) => /^gitmem-write\..+\.(rejected|failed)\.json$/.test(n));
    const note =
      setAside.length > 0 ? ` (${setAside.length} set-aside journal(s) kept for inspection in ${ctx.gitDir})` : '';
    return details.length === 0
      ? ok(`none stale, no unfinished write${note}`)
      : problem(`${details.length} stale lock(s) or unfinished write(s)${note}`, details);
  },
  async fix(ctx) {
    const before = staleThings(ctx);
    const done: string[] = [];
    await withMemoryOperation(
      ctx.memoryDir,
      async () => {
        if (before.lease) done.push('released the operation lease of a process that is gone');
        for (const l of before.locks) if (removeFile(l)) done.push(`removed stale ${l}`);
        const outcome = await recoverInterruptedWrite(ctx.git, ctx.memoryDir).catch(
          (err: Error) => `set aside (${err.message.split('\n')[0]})`,
        );
        if (outcome !== 'none') done.push(`unfinished write: ${outcome}`);
      },
      { purpose: 'doctor --fix' },
    );
    return done;
  },
};

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
