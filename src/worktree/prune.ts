/**
 * Cleans up after background writers that died without cleaning up (kill -9, a crash, a power cut): their
 * worktree directory and git's record of it go; their branch goes too unless it holds commits main lacks,
 * which are kept for `gitmem conflicts`. A live worker's worktree is never touched.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation, type MemoryOperationOptions } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { deleteBranch } from './cleanup.js';
import { countCommits, resolveCommit } from './inspect.js';
import { ownerState, readWorktreeOwner, type WorktreeOwner } from './owner.js';

/** `<kind>-<YYYYMMDDhhmmss>-<8 hex>`: the directory names createMemoryWorktree uses. */
const WORKTREE_NAME = /^([a-z][a-z0-9-]{0,31})-(\d{14}-[0-9a-f]{8})$/;

export interface PruneOrphanOptions {
  memoryDir: string;
  git: GitRunner;
  lease?: MemoryOperationOptions;
  /** Test seams for the liveness check (default: this host, `kill(pid, 0)`, /proc start times). */
  hostname?: string;
  isAlive?: (pid: number) => boolean;
}

/** A worktree that was removed. `branch`: what happened to its branch. */
export interface PrunedWorktree {
  name: string;
  worktreeDir: string;
  branchName: string;
  ownerPid: number | null;
  branch: 'deleted' | 'kept' | 'absent';
  /** Commits on the branch that HEAD lacks (kept branches only have some). */
  unmergedCommits: number;
}

/** A worktree left alone, and why. */
export interface SkippedWorktree {
  name: string;
  worktreeDir: string;
  reason: 'alive' | 'other_host' | 'unknown_owner';
  ownerPid: number | null;
}

export interface PruneResult {
  pruned: PrunedWorktree[];
  skipped: SkippedWorktree[];
}

interface Candidate {
  name: string;
  worktreeDir: string;
  /** Private git dir when git still has a record of the worktree. */
  gitDir: string | null;
  owner: WorktreeOwner | null;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Every worktree of this memory in `memory-worktrees/`: git's records first, then stray directories. */
function scanWorktrees(memoryDir: string): Candidate[] {
  const base = realOrSelf(join(dirname(resolve(memoryDir)), 'memory-worktrees'));
  const records = join(resolveGitCommonDir(memoryDir), 'worktrees');
  const found = new Map<string, Candidate>();
  for (const entry of listDir(records)) {
    const gitDir = join(records, entry);
    const target = readText(join(gitDir, 'gitdir'));
    if (target === '') continue;
    const worktreeDir = dirname(resolve(gitDir, target));
    if (realOrSelf(dirname(worktreeDir)) !== base || !WORKTREE_NAME.test(basename(worktreeDir))) continue;
    found.set(basename(worktreeDir), { name: basename(worktreeDir), worktreeDir, gitDir, owner: readWorktreeOwner(gitDir) });
  }
  for (const name of listDir(base)) {
    const worktreeDir = join(base, name);
    if (found.has(name) || !WORKTREE_NAME.test(name) || !statSync(worktreeDir, { throwIfNoEntry: false })?.isDirectory()) continue;
    found.set(name, { name, worktreeDir, gitDir: null, owner: null });
  }
  return [...found.values()];
}

/**
 * Sorts candidates into orphans and the rest. A directory git has no record of is an orphan (creation holds
 * the lease, so under the lease it is never one being made); a record without an owner marker is left alone.
 */
function classify(candidates: Candidate[], o: PruneOrphanOptions): { orphans: Candidate[]; skipped: SkippedWorktree[] } {
  const orphans: Candidate[] = [];
  const skipped: SkippedWorktree[] = [];
  for (const c of candidates) {
    const skip = (reason: SkippedWorktree['reason']): void => void skipped.push({ name: c.name, worktreeDir: c.worktreeDir, reason, ownerPid: c.owner?.pid ?? null });
    if (c.gitDir === null) orphans.push(c);
    else if (c.owner === null) skip('unknown_owner');
    else {
      const state = ownerState(c.owner, { ...(o.hostname ? { hostname: o.hostname } : {}), ...(o.isAlive ? { isAlive: o.isAlive } : {}) });
      if (state === 'gone') orphans.push(c);
      else skip(state);
    }
  }
  return { orphans, skipped };
}

function branchOf(c: Candidate): string {
  if (c.owner?.branchName) return c.owner.branchName;
  const m = WORKTREE_NAME.exec(c.name);
  return `gitmem/${m?.[1] ?? ''}/${m?.[2] ?? ''}`;
}

/** Deletes the branch when HEAD already has everything on it; keeps it (for `gitmem conflicts`) otherwise. */
async function settleBranch(git: GitRunner, memoryDir: string, c: Candidate): Promise<PrunedWorktree> {
  const branchName = branchOf(c);
  const out = { name: c.name, worktreeDir: c.worktreeDir, branchName, ownerPid: c.owner?.pid ?? null };
  const tip = await resolveCommit(git, memoryDir, `refs/heads/${branchName}`);
  if (tip === null) return { ...out, branch: 'absent', unmergedCommits: 0 };
  const head = await resolveCommit(git, memoryDir, 'HEAD');
  const unmergedCommits = head === null ? 1 : await countCommits(git, memoryDir, head, tip);
  if (unmergedCommits > 0) return { ...out, branch: 'kept', unmergedCommits };
  await deleteBranch(git, memoryDir, branchName, tip);
  return { ...out, branch: 'deleted', unmergedCommits: 0 };
}

async function pruneLocked(o: PruneOrphanOptions): Promise<PruneResult> {
  const { orphans, skipped } = classify(scanWorktrees(o.memoryDir), o);
  if (orphans.length === 0) return { pruned: [], skipped };
  for (const c of orphans) {
    rmSync(c.worktreeDir, { recursive: true, force: true, maxRetries: 3 });
    rmSync(join(dirname(c.worktreeDir), `${c.name}.transcript.json`), { force: true }); // a reflection's payload
  }
  await o.git.run(['worktree', 'prune'], { cwd: o.memoryDir });
  const pruned: PrunedWorktree[] = [];
  for (const c of orphans) pruned.push(await settleBranch(o.git, o.memoryDir, c));
  return { pruned, skipped };
}

/**
 * Removes the worktrees of background writers whose process is gone (see the module comment). Cheap when
 * there is nothing to do: a directory listing and a few small reads, no git process and no lease.
 * @example
 *   const { pruned } = await pruneOrphanWorktrees({ memoryDir, git });
 *   for (const p of pruned) console.log(p.name, p.branch); // 'worker-20250102030405-abcdef12 kept'
 */
export async function pruneOrphanWorktrees(o: PruneOrphanOptions): Promise<PruneResult> {
  if (!existsSync(o.memoryDir)) return { pruned: [], skipped: [] };
  const quick = classify(scanWorktrees(o.memoryDir), o);
  if (quick.orphans.length === 0) return { pruned: [], skipped: quick.skipped };
  return withMemoryOperation(o.memoryDir, () => pruneLocked(o), { purpose: 'prune orphan worktrees', ...o.lease });
}
