/**
 * Who owns a private worktree: a small marker in the worktree's private git dir naming the creating process
 * (pid, host, and its start time where /proc tells it), so an orphan left by a killed worker can be told
 * apart from a live worker's worktree.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { join } from 'node:path';
import { isProcessAlive } from '../git/lease-file.js';
import { readSmallFile } from './git-env.js';

/** File name of the marker inside `<common>/worktrees/<name>/` (removed with the record by `git worktree prune`). */
export const OWNER_MARKER = 'gitmem-owner.json';

/** The process that created (and drives) a worktree. */
export interface WorktreeOwner {
  pid: number;
  hostname: string;
  /** The process's start time in clock ticks since boot (`/proc/<pid>/stat` field 22); null off Linux. */
  procStart: string | null;
  createdAt: string;
  branchName: string;
  baseHead: string;
}

/**
 * Start time of `pid` as recorded by the kernel (field 22 of `/proc/<pid>/stat`), or null when unknown.
 * A different value for the same pid means the pid was reused by another process.
 * @example processStartToken(process.pid) // '123456' on Linux, null elsewhere
 */
export function processStartToken(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from #3 (state) on
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * The marker for the current process.
 * @example currentOwner({ branchName: 'gitmem/worker/x', baseHead: sha }).pid === process.pid
 */
export function currentOwner(o: { branchName: string; baseHead: string; now?: Date }): WorktreeOwner {
  return {
    pid: process.pid,
    hostname: osHostname(),
    procStart: processStartToken(process.pid),
    createdAt: (o.now ?? new Date()).toISOString(),
    branchName: o.branchName,
    baseHead: o.baseHead,
  };
}

/**
 * Writes the marker into a worktree's private git dir.
 * @example writeWorktreeOwner(wt.gitDir, currentOwner({ branchName: wt.branchName, baseHead: wt.baseHead }))
 */
export function writeWorktreeOwner(privateGitDir: string, owner: WorktreeOwner): void {
  writeFileSync(join(privateGitDir, OWNER_MARKER), `${JSON.stringify(owner)}\n`);
}

/**
 * Reads the marker, or null when it is missing, unreadable or not a small regular file (the writer can
 * rewrite it, so reading it never blocks and nothing but liveness is decided from it).
 * @example readWorktreeOwner(join(commonDir, 'worktrees', 'worker-20250102030405-abcdef12'))?.pid
 */
export function readWorktreeOwner(privateGitDir: string): WorktreeOwner | null {
  try {
    const v = JSON.parse(readSmallFile(join(privateGitDir, OWNER_MARKER), 64 * 1024) ?? '') as Partial<WorktreeOwner>;
    if (!Number.isInteger(v.pid) || typeof v.hostname !== 'string') return null;
    return {
      pid: v.pid as number,
      hostname: v.hostname,
      procStart: typeof v.procStart === 'string' ? v.procStart : null,
      createdAt: String(v.createdAt ?? ''),
      branchName: String(v.branchName ?? ''),
      baseHead: String(v.baseHead ?? ''),
    };
  } catch {
    return null;
  }
}

/** Whether an owner still runs: `other_host` when this machine cannot tell. */
export type OwnerState = 'alive' | 'gone' | 'other_host';

/**
 * Decides whether the owner process still runs on this host (a reused pid counts as gone when /proc says so).
 * @example ownerState(readWorktreeOwner(dir)!, { hostname: os.hostname() }) // 'gone' after kill -9
 */
export function ownerState(
  owner: WorktreeOwner,
  o: { hostname?: string; isAlive?: (pid: number) => boolean; startToken?: (pid: number) => string | null } = {},
): OwnerState {
  if (owner.hostname !== (o.hostname ?? osHostname())) return 'other_host';
  if (!(o.isAlive ?? isProcessAlive)(owner.pid)) return 'gone';
  const now = owner.procStart === null ? null : (o.startToken ?? processStartToken)(owner.pid);
  return now !== null && now !== owner.procStart ? 'gone' : 'alive';
}
