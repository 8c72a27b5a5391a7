/**
 * Cleans up after background writers that died without cleaning up (kill -9, a crash, a power cut): their
 * worktree directory and private git dir go, after the commits they made are imported (re-hashed, like any
 * worker's) to their branch `gitmem/<kind>/<id>`; that branch is kept when it holds commits main lacks (see
 * `gitmem conflicts`) and deleted otherwise. A live worker's worktree is never touched. Nothing a writer
 * could have rewritten in its own git dir decides a path or a ref name here.
 */
import { existsSync, lstatSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation, type MemoryOperationOptions } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { deleteBranch, TRASH_DIR } from './cleanup.js';
import { PRIVATE_GITDIRS, readSmallFile } from './git-env.js';
import { importWorktreeCommits } from './import.js';
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
  /** Test seam for the age of removed trees (default Date.now). */
  now?: () => number;
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

/** What `memory.pruneWorkers` removed and what it kept (a branch with new commits). */
export interface PruneResult {
  pruned: PrunedWorktree[];
  skipped: SkippedWorktree[];
}

interface Candidate {
  name: string;
  worktreeDir: string;
  /** Its private git dir (`gitmem-worktrees/<name>`), or git's record of it (`worktrees/<name>`, older versions). */
  gitDir: string | null;
  /** True for a private git dir of ours: it may hold commits to import. */
  own: boolean;
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

/** Every worktree of this memory: our private git dirs, git's records (older versions), then stray directories. */
function scanWorktrees(memoryDir: string): Candidate[] {
  const base = realOrSelf(join(dirname(resolve(memoryDir)), 'memory-worktrees'));
  const common = resolveGitCommonDir(memoryDir);
  const found = new Map<string, Candidate>();
  for (const name of listDir(join(common, PRIVATE_GITDIRS))) {
    if (!WORKTREE_NAME.test(name)) continue;
    const gitDir = join(common, PRIVATE_GITDIRS, name);
    found.set(name, { name, worktreeDir: join(base, name), gitDir, own: true, owner: readWorktreeOwner(gitDir) });
  }
  const records = join(common, 'worktrees');
  for (const entry of listDir(records)) {
    const gitDir = join(records, entry);
    const target = readSmallFile(join(gitDir, 'gitdir'), 4096)?.trim() ?? '';
    if (target === '') continue;
    const worktreeDir = dirname(resolve(gitDir, target));
    const name = basename(worktreeDir);
    if (found.has(name) || realOrSelf(dirname(worktreeDir)) !== base || !WORKTREE_NAME.test(name)) continue;
    found.set(name, { name, worktreeDir, gitDir, own: false, owner: readWorktreeOwner(gitDir) });
  }
  for (const name of listDir(base)) {
    const worktreeDir = join(base, name);
    if (
      found.has(name) ||
      !WORKTREE_NAME.test(name) ||
      !statSync(worktreeDir, { throwIfNoEntry: false })?.isDirectory()
    )
      continue;
    found.set(name, { name, worktreeDir, gitDir: null, own: false, owner: null });
  }
  return [...found.values()];
}

/**
 * Sorts candidates into orphans and the rest. A directory without a git dir, or a private git dir without an
 * owner marker, is an orphan (creation holds the lease, so under the lease it is never one being made); a
 * record of git's own without a marker is left alone.
 */
function classify(
  candidates: Candidate[],
  o: PruneOrphanOptions,
): { orphans: Candidate[]; skipped: SkippedWorktree[] } {
  const orphans: Candidate[] = [];
  const skipped: SkippedWorktree[] = [];
  for (const c of candidates) {
    const skip = (reason: SkippedWorktree['reason']): void =>
      void skipped.push({ name: c.name, worktreeDir: c.worktreeDir, reason, ownerPid: c.owner?.pid ?? null });
    if (c.gitDir === null) orphans.push(c);
    else if (c.owner === null) {
      if (c.own)
        orphans.push(c); // our git dirs get their marker under the lease at creation: none means a creation cut short
      else skip('unknown_owner');
    } else {
      const state = ownerState(c.owner, { hostname: o.hostname, isAlive: o.isAlive });
      if (state === 'gone') orphans.push(c);
      else skip(state);
    }
  }
  return { orphans, skipped };
}

/** The branch is named after the directory, never after the owner marker (which the writer could rewrite). */
function branchOf(c: Candidate): string {
  const m = WORKTREE_NAME.exec(c.name);
  return `gitmem/${m?.[1] ?? ''}/${m?.[2] ?? ''}`;
}

/** Imports what a dead writer committed (best effort: what cannot be imported is dropped with it). */
async function salvage(git: GitRunner, memoryDir: string, c: Candidate): Promise<void> {
  const baseHead = c.owner?.baseHead ?? '';
  if (!c.own || c.gitDir === null || !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(baseHead)) return;
  const target = {
    parentMemoryDir: memoryDir,
    worktreeDir: c.worktreeDir,
    gitDir: c.gitDir,
    branchName: branchOf(c),
    baseHead,
  };
  await importWorktreeCommits(target, git).catch(() => undefined);
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
    await salvage(o.git, o.memoryDir, c);
    rmSync(c.worktreeDir, { recursive: true, force: true, maxRetries: 3 });
    if (c.own && c.gitDir !== null) rmSync(c.gitDir, { recursive: true, force: true, maxRetries: 3 });
    rmSync(join(dirname(c.worktreeDir), `${c.name}.transcript.json`), { force: true }); // a reflection's payload
  }
  if (orphans.some((c) => !c.own)) await o.git.run(['worktree', 'prune'], { cwd: o.memoryDir });
  const pruned: PrunedWorktree[] = [];
  for (const c of orphans) pruned.push(await settleBranch(o.git, o.memoryDir, c));
  return { pruned, skipped };
}

/** A removed tree younger than this may still be being deleted by the process that removed it. */
const TRASH_GRACE_MS = 10_000;

/** Deletes, in the background, removed trees whose deletion was cut short (cleanup.ts): nothing uses them. */
function sweepTrash(memoryDir: string, now: number): void {
  const dir = join(resolveGitCommonDir(memoryDir), TRASH_DIR);
  for (const name of listDir(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined || now - st.ctimeMs < TRASH_GRACE_MS) continue;
    void rm(path, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
  }
}

/**
 * The worktrees `pruneOrphanWorktrees` would remove, without touching anything (for `gitmem doctor`).
 * @example (await findOrphanWorktrees({ memoryDir, git })).map((w) => w.name)
 */
export function findOrphanWorktrees(o: PruneOrphanOptions): Array<{ name: string; worktreeDir: string }> {
  if (!existsSync(o.memoryDir)) return [];
  return classify(scanWorktrees(o.memoryDir), o).orphans.map((c) => ({ name: c.name, worktreeDir: c.worktreeDir }));
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
  sweepTrash(o.memoryDir, (o.now ?? Date.now)());
  const quick = classify(scanWorktrees(o.memoryDir), o);
  if (quick.orphans.length === 0) return { pruned: [], skipped: quick.skipped };
  return withMemoryOperation(o.memoryDir, () => pruneLocked(o), { purpose: 'prune orphan worktrees', ...o.lease });
}
