// The import step with real git: a body's commits live only in its private object directory until the
// harness imports them (so the primary's fetch and gc keep working meanwhile), the pack path and a repeated
// import give the same branch, a planted FIFO never blocks the harness, and an orphan's salvaged branch is
// named after its directory, never after the (writer-writable) owner marker.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { discardWorktree } from '../../../src/worktree/cleanup.js';
import { createMemoryWorktree, type MemoryWorktree } from '../../../src/worktree/create.js';
import { workerObjectEnv } from '../../../src/worktree/git-env.js';
import { importWorktreeCommits } from '../../../src/worktree/import.js';
import { OWNER_MARKER, readWorktreeOwner } from '../../../src/worktree/owner.js';
import { pruneOrphanWorktrees } from '../../../src/worktree/prune.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';

let root: string;
let memoryDir: string;
let env: Record<string, string>;
let runner: ReturnType<typeof createGitRunner>;

const exists = (rev: string): boolean => gitTry(memoryDir, ['cat-file', '-e', `${rev}^{commit}`], env).status === 0;
const privateDirs = (): string[] => readdirSync(join(memoryDir, '.git', 'gitmem-worktrees'));

/** Commits `files` in a worktree the way a confined writer does: with `gitEnv`, objects go to its private directory. */
function commitPrivately(dir: string, gitEnv: Record<string, string>, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  const e = { ...env, ...gitEnv };
  git(dir, ['add', '-A'], e);
  git(dir, ['commit', '-q', '-m', 'feat: private'], e);
  return git(dir, ['rev-parse', 'HEAD'], e);
}

/** The same for a worktree made directly (what a body gets as `ctx.gitEnv`). */
const commitIn = (wt: MemoryWorktree, files: Record<string, string>): string =>
  commitPrivately(wt.worktreeDir, workerObjectEnv(wt), files);

beforeAll(() => {
  root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  memoryDir = join(root, 'agents', 'a1', 'memory');
  initRepoWithFile(memoryDir, 'system/persona.md', 'persona\n', env);
  git(root, ['clone', '-q', '--bare', memoryDir, join(root, 'origin.git')], env);
  git(memoryDir, ['remote', 'add', 'origin', join(root, 'origin.git')], env);
});

afterAll(() => cleanupTmp());

describe('importing a worker’s private commits', () => {
  it('keeps them out of the shared store until the import (fetch and gc in main still work), then merges them', async () => {
    const other = join(root, 'other');
    git(root, ['clone', '-q', join(root, 'origin.git'), other], env);
    writeFileSync(join(other, 'remote.md'), 'r\n');
    git(other, ['add', '-A'], env);
    git(other, ['commit', '-q', '-m', 'remote'], env);
    git(other, ['push', '-q', 'origin', 'HEAD:main'], env);
    let tip = '';
    const out = await runMemoryWorker(
      { memoryDir },
      async (ctx) => {
        tip = commitPrivately(ctx.worktreeDir, ctx.gitEnv, {
          'system/private.md': '---\ndescription: test note\n---\nprivate\n',
        });
        expect(exists(tip)).toBe(false); // only in the private object directory
        git(memoryDir, ['fetch', '-q', 'origin'], env); // walks `--all`: would die on a registered worktree's HEAD
        git(memoryDir, ['gc', '-q'], env);
        expect(gitTry(memoryDir, ['fsck', '--no-dangling'], env)).toMatchObject({ status: 0, stderr: '' });
      },
      { git: runner },
    );
    expect(out).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(exists(tip)).toBe(true);
    expect(readFileSync(join(memoryDir, 'system', 'private.md'), 'utf8')).toBe(
      '---\ndescription: test note\n---\nprivate\n',
    );
    expect(git(memoryDir, ['rev-parse', 'origin/main:remote.md'], env)).toMatch(/^[0-9a-f]{40}$/);
    expect(privateDirs()).toEqual([]);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('imports through index-pack above the unpack limit, and a second import leaves the same branch', async () => {
    const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    const tip = commitIn(wt, { 'system/a.md': 'a\n', 'system/b.md': 'b\n', 'notes/c.md': 'c\n' });
    const packs = (): number =>
      readdirSync(join(memoryDir, '.git', 'objects', 'pack')).filter((n) => n.endsWith('.pack')).length;
    const before = packs();
    const first = await importWorktreeCommits(wt, runner, { unpackLimit: 1 });
    expect(first).toMatchObject({ tip, commitCount: 1, branchCreated: true });
    expect(packs()).toBe(before + 1);
    expect(git(memoryDir, ['rev-parse', `refs/heads/${wt.branchName}`], env)).toBe(tip);
    expect(await importWorktreeCommits(wt, runner)).toEqual(first);
    expect(git(memoryDir, ['show', `${wt.branchName}:notes/c.md`], env)).toBe('c');
    await discardWorktree(wt, runner);
    expect(existsSync(wt.gitDir)).toBe(false);
    expect(git(memoryDir, ['branch', '--list', wt.branchName], env)).toBe('');
  });

  it('refuses a HEAD or an owner marker planted as a FIFO without blocking', async () => {
    const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    commitIn(wt, { 'system/f.md': 'f\n' });
    for (const name of ['HEAD', OWNER_MARKER]) {
      rmSync(join(wt.gitDir, name));
      execFileSync('mkfifo', [join(wt.gitDir, name)]);
    }
    // Opening either FIFO for reading would block forever, so returning at all is the check.
    const err = await importWorktreeCommits(wt, runner).catch((e: unknown) => e);
    expect(isMemoryError(err, 'WORKTREE_ERROR')).toBe(true);
    expect((err as Error).message).toMatch(/HEAD .* is missing or not a regular file/);
    expect(readWorktreeOwner(wt.gitDir)).toBeNull();
    await discardWorktree(wt, runner);
  });

  it("salvages an orphan's commits to the branch named after its directory, whatever its owner marker claims", async () => {
    const main = git(memoryDir, ['rev-parse', 'main'], env);
    const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    const tip = commitIn(wt, { 'system/orphan.md': 'orphan\n' });
    const dead = spawnSync('true').pid ?? 0;
    const marker = JSON.parse(readFileSync(join(wt.gitDir, OWNER_MARKER), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(wt.gitDir, OWNER_MARKER), JSON.stringify({ ...marker, pid: dead, branchName: 'main' }));
    const r = await pruneOrphanWorktrees({ memoryDir, git: runner, isAlive: () => false });
    expect(r.pruned).toEqual([
      expect.objectContaining({ branchName: wt.branchName, branch: 'kept', unmergedCommits: 1 }),
    ]);
    expect(git(memoryDir, ['rev-parse', 'main'], env)).toBe(main);
    expect(git(memoryDir, ['rev-parse', wt.branchName], env)).toBe(tip);
    expect(existsSync(wt.worktreeDir) || existsSync(wt.gitDir)).toBe(false);
    git(memoryDir, ['branch', '-D', wt.branchName], env);
  });
});
