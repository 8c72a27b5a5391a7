/**
 * Creates a background writer's private worktree without a full checkout and without touching any ref: a
 * work tree whose `.git` link names a private git dir (`<common>/gitmem-worktrees/<name>`: a detached HEAD at
 * the base, its own index and object directory), then a cone-mode sparse checkout of `system/`, top-level
 * files and the paths asked for. Everything else stays skip-worktree, so the cost does not grow with the
 * repository. Its branch `gitmem/<kind>/<id>` only comes into being when its work is imported (import.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { MemoryError, toMemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { withMemoryOperation, type MemoryOperationOptions } from '../git/lease.js';
import type { GitRunner } from '../git/runner.js';
import { ensureHooksForWriter } from '../hooks/install.js';
import { discardWorktree } from './cleanup.js';
import { harnessWorktreeEnv, privateGitDirFor } from './git-env.js';
import { readHeadFile } from './head-file.js';
import { resolveCommit } from './inspect.js';
import { currentOwner, writeWorktreeOwner } from './owner.js';
import { DEFAULT_SPARSE_DIRS, normalizeSparseDirs, renderConePatterns } from './sparse.js';

/** A private worktree: where it is, its branch and base, its kind, its own git dir and the materialised paths. */
export interface MemoryWorktree {
  id: string;
  kind: string;
  parentMemoryDir: string;
  worktreeBaseDir: string;
  worktreeDir: string;
  branchName: string;
  baseHead: string;
  gitCommonDir: string;
  /** The worktree's private git dir (`<common>/gitmem-worktrees/<name>`): HEAD, index, sparse patterns, objects. */
  gitDir: string;
  sparseDirs: string[];
  /** With `deferCheckout`: settles once the index and files are in place (the checkout runs after the lease). */
  checkout?: Promise<void>;
}

export interface CreateWorktreeOptions {
  memoryDir: string;
  /** Branch namespace and directory prefix: `worker`, `reflection`, … */
  kind: string;
  /** Extra files or directories to materialise besides `system/` and top-level files. */
  paths?: readonly string[];
  git: GitRunner;
  now?: () => Date;
  randomHex?: () => string;
  lease?: MemoryOperationOptions;
  /**
   * Return as soon as the worktree's git dir is written, with the checkout still running (`checkout` says
   * when it is done; its failure is the caller's to handle): a sandboxed body starts meanwhile.
   */
  deferCheckout?: boolean;
}

/** Config that makes git apply (and keep) cone-mode sparse patterns in a worktree, per invocation. */
const SPARSE_CONFIG: readonly string[] = ['core.sparseCheckout=true', 'core.sparseCheckoutCone=true'];

/**
 * `YYYYMMDDhhmmss-<8 hex>` in UTC.
 * @example worktreeId(new Date('2025-01-02T03:04:05Z'), () => 'abcdef12') === '20250102030405-abcdef12'
 */
export function worktreeId(now: Date, randomHex: () => string): string {
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `${stamp}-${randomHex().slice(0, 8)}`;
}

/**
 * Creates the worktree under the operation lease and records its base head.
 * @example const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git, paths: ['reference/'] })
 */
export async function createMemoryWorktree(o: CreateWorktreeOptions): Promise<MemoryWorktree> {
  if (!/^[a-z][a-z0-9-]{0,31}$/.test(o.kind)) {
    throw new MemoryError('INVALID_ARGUMENT', `invalid worktree kind ${JSON.stringify(o.kind)}`, {
      data: { kind: o.kind },
    });
  }
  const parent = resolve(o.memoryDir);
  const id = worktreeId((o.now ?? (() => new Date()))(), o.randomHex ?? (() => randomBytes(4).toString('hex')));
  const base = join(dirname(parent), 'memory-worktrees');
  const wt: MemoryWorktree = {
    id,
    kind: o.kind,
    parentMemoryDir: parent,
    worktreeBaseDir: base,
    worktreeDir: join(base, `${o.kind}-${id}`),
    branchName: `gitmem/${o.kind}/${id}`,
    baseHead: '',
    gitCommonDir: resolveGitCommonDir(parent),
    gitDir: '',
    sparseDirs: normalizeSparseDirs([...DEFAULT_SPARSE_DIRS, ...(o.paths ?? [])]),
  };
  return withMemoryOperation(parent, () => addWorktree(wt, o.git, o.deferCheckout === true), {
    purpose: `create ${o.kind} worktree`,
    ...o.lease,
  });
}

async function addWorktree(wt: MemoryWorktree, git: GitRunner, deferCheckout: boolean): Promise<MemoryWorktree> {
  // The writer's `git commit` runs the shared hook inside a sandbox that shows only this install of gitmem.
  await ensureHooksForWriter(git, wt.parentMemoryDir);
  const head = readHeadFile(wt.parentMemoryDir) ?? (await resolveCommit(git, wt.parentMemoryDir, 'HEAD'));
  if (head === null) {
    throw new MemoryError('WORKTREE_ERROR', `cannot create a worktree: ${wt.parentMemoryDir} has no HEAD commit`, {
      data: { memoryDir: wt.parentMemoryDir },
    });
  }
  wt.baseHead = head;
  mkdirSync(wt.worktreeBaseDir, { recursive: true });
  const gitDir = privateGitDirFor(wt.gitCommonDir, wt.worktreeDir);
  try {
    mkdirSync(wt.worktreeDir); // never reuse a directory: the id is fresh, so an existing one is someone else's
  } catch (err) {
    throw new MemoryError('WORKTREE_ERROR', `could not create worktree ${wt.worktreeDir}: ${(err as Error).message}`, {
      cause: err,
      data: { worktreeDir: wt.worktreeDir },
    });
  }
  try {
    wt.gitDir = gitDir;
    mkdirSync(join(gitDir, 'objects'), { recursive: true });
    writeFileSync(join(gitDir, 'commondir'), `${wt.gitCommonDir}\n`);
    writeFileSync(join(gitDir, 'HEAD'), `${head}\n`); // detached: the writer needs no ref at all
    writeFileSync(join(gitDir, 'gitdir'), `${join(wt.worktreeDir, '.git')}\n`);
    writeFileSync(join(wt.worktreeDir, '.git'), `gitdir: ${gitDir}\n`);
    writeWorktreeOwner(gitDir, currentOwner({ branchName: wt.branchName, baseHead: head })); // for pruneOrphanWorktrees
    if (deferCheckout) {
      // The private index and files only: nothing here needs the lease (the base is pinned in the private HEAD).
      wt.checkout = applySparse(wt, git);
      wt.checkout.catch(() => undefined); // the caller awaits it; an early rejection must not go unhandled meanwhile
      return wt;
    }
    await applySparse(wt, git);
    return wt;
  } catch (err) {
    await discardWorktree(wt, git).catch(() => undefined);
    const e = toMemoryError(err, 'WORKTREE_ERROR');
    throw new MemoryError('WORKTREE_ERROR', `could not prepare worktree ${wt.worktreeDir}: ${e.message}`, {
      cause: err,
      data: { worktreeDir: wt.worktreeDir },
    });
  }
}

/**
 * Writes the cone patterns for `wt.sparseDirs` and brings index and files in line with HEAD (files outside
 * the cone become skip-worktree entries; unstaged edits inside it are kept). Runs with the harness's explicit
 * git dirs, so it reads the writer's private commits and never a rewritten `commondir`.
 */
export async function applySparse(wt: MemoryWorktree, git: GitRunner): Promise<void> {
  const info = join(wt.gitDir, 'info');
  mkdirSync(info, { recursive: true });
  writeFileSync(join(info, 'sparse-checkout'), renderConePatterns(wt.sparseDirs));
  await git.run(['read-tree', '-mu', 'HEAD'], {
    cwd: wt.worktreeDir,
    config: [...SPARSE_CONFIG],
    env: harnessWorktreeEnv(wt),
  });
}

/** Short description for logs: `worker-20250102030405-abcdef12`. */
export function worktreeName(wt: Pick<MemoryWorktree, 'worktreeDir'>): string {
  return basename(wt.worktreeDir);
}
