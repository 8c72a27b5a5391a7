// The worker cycle's ordering when a step fails: the work is only ever on its branch, in the merge, or still
// in the private git dir (for prune) — never lost, and the checkout is as it was. Also: removed worktrees
// leave no name behind, and a deletion cut short is swept by the next prune.
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { TRASH_DIR } from '../../../src/worktree/cleanup.js';
import { pruneOrphanWorktrees } from '../../../src/worktree/prune.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import type { MemoryWorkerContext } from '../../../src/worktree/worker-types.js';
import { cleanupTmp, git, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';

let memoryDir: string;
let env: Record<string, string>;
let runner: GitRunner;

/** A runner whose calls matching `fails` throw, as an infrastructure failure would. */
function failing(fails: (args: string[]) => boolean): GitRunner {
  // A rejected promise, as a real git failure is (the other steps of a merge may already be running).
  const boom = (args: string[]): Promise<never> => Promise.reject(new Error(`injected failure: git ${args.join(' ')}`));
  return {
    ...runner,
    run: (args, o) => (fails(args) ? boom(args) : runner.run(args, o)),
    exec: (op, o) => (fails(op.args) ? boom(op.args) : runner.exec(op, o)),
  };
}

/** A body that commits one memory file from the shell, objects in its private directory (as a confined one does). */
function commitNote(name: string) {
  return async (ctx: MemoryWorkerContext): Promise<void> => {
    writeFileSync(join(ctx.worktreeDir, name), `---\ndescription: ${name}\n---\nnote\n`);
    const wenv = { ...env, ...ctx.gitEnv };
    git(ctx.worktreeDir, ['add', '--', name], wenv);
    git(ctx.worktreeDir, ['commit', '-q', '-m', `add ${name}`], wenv);
  };
}

const worktreeNames = (): string[] => {
  const dir = join(memoryDir, '..', 'memory-worktrees');
  return existsSync(dir) ? readdirSync(dir) : [];
};
const workerBranches = (): string[] =>
  git(memoryDir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/gitmem/'], env).split('\n').filter(Boolean);

beforeAll(() => {
  const root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  memoryDir = join(root, 'agents', 'a1', 'memory');
  initRepoWithFile(memoryDir, 'system/persona.md', '---\ndescription: who I am\n---\nme\n', env);
});

afterAll(() => cleanupTmp());

describe('the worker cycle when a step fails', () => {
  it('a merge that fails after the import keeps the work on its branch; the checkout is as it was', async () => {
    const head = git(memoryDir, ['rev-parse', 'HEAD'], env);
    // The checkout's update fails while HEAD moves beside it: HEAD is put back.
    const git2 = failing((args) => args[0] === 'read-tree' && args[1] === '-m');
    await expect(runMemoryWorker({ memoryDir }, commitNote('a.md'), { git: git2 })).rejects.toThrow(/injected failure/);
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(head);
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
    const [branch] = workerBranches();
    expect(branch).toMatch(/^gitmem\/worker\//);
    expect(git(memoryDir, ['show', `${branch}:a.md`], env)).toContain('description: a.md');
    expect(worktreeNames()).toEqual([]);
    git(memoryDir, ['branch', '-D', branch as string], env);
  });

  it('when the branch cannot be written either, the worktree stays and prune brings the work home', async () => {
    const head = git(memoryDir, ['rev-parse', 'HEAD'], env);
    // HEAD cannot move while the checkout is updated beside it: the checkout is put back.
    const git2 = failing(
      (args) => args[0] === 'update-ref' && (args[3] === 'HEAD' || String(args[3]).startsWith('refs/heads/gitmem/')),
    );
    await expect(runMemoryWorker({ memoryDir }, commitNote('b.md'), { git: git2 })).rejects.toThrow(/injected failure/);
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(head);
    expect(workerBranches()).toEqual([]);
    expect(worktreeNames()).toHaveLength(1); // the private git dir still holds the commit
    const r = await pruneOrphanWorktrees({ memoryDir, git: runner, isAlive: () => false });
    expect(r.pruned).toEqual([expect.objectContaining({ branch: 'kept', unmergedCommits: 1 })]);
    const [branch] = workerBranches();
    expect(git(memoryDir, ['show', `${branch}:b.md`], env)).toContain('description: b.md');
    git(memoryDir, ['branch', '-D', branch as string], env);
    expect(git(memoryDir, ['fsck', '--strict', '--no-dangling'], env)).toBe('');
  });

  it('a merged cycle leaves no worktree, private git dir or branch behind, and writes no branch at all', async () => {
    const out = await runMemoryWorker({ memoryDir }, commitNote('c.md'), { git: runner });
    expect(out.status).toBe('merged');
    expect(worktreeNames()).toEqual([]);
    expect(readdirSync(join(memoryDir, '.git', 'gitmem-worktrees'))).toEqual([]);
    expect(workerBranches()).toEqual([]);
    expect(existsSync(join(memoryDir, '.git', 'logs', 'refs', 'heads', out.branchName))).toBe(false);
    expect(git(memoryDir, ['show', 'HEAD:c.md'], env)).toContain('description: c.md');
  });

  it('prune sweeps a removed tree whose deletion was cut short, once it is old enough', async () => {
    const stale = join(memoryDir, '.git', TRASH_DIR, 'worker-20250102030405-abcdef12-0000');
    mkdirSync(join(stale, 'system'), { recursive: true });
    writeFileSync(join(stale, 'system', 'x.md'), 'x\n');
    await pruneOrphanWorktrees({ memoryDir, git: runner });
    expect(existsSync(stale)).toBe(true); // young: its own process may still be deleting it
    await pruneOrphanWorktrees({ memoryDir, git: runner, now: () => Date.now() + 60_000 });
    for (let i = 0; i < 100 && existsSync(stale); i++) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(stale)).toBe(false);
  });
});
