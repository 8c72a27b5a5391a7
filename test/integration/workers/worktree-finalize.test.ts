// Reflection finalize with real git: the six outcomes, the predicates, explicit mode, and the
// guard against calling a vanished worktree "nothing happened".
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemoryWorktree, type MemoryWorktree } from '../../../src/worktree/create.js';
import { importWorktreeCommits } from '../../../src/worktree/import.js';
import { finalizeReflectionWorktree, reflectionMergeSummary } from '../../../src/worktree/finalize.js';
import {
  consumesTranscript,
  shouldRecompile,
  type ReflectionFinalizeStatus,
} from '../../../src/worktree/finalize-result.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let repo: string;
let env: Record<string, string>;
let runner: ReturnType<typeof createGitRunner>;

/** Merged files must be memory files (merges obey the memory rules). */
const mem = (body: string): string => `---\ndescription: test note\n---\n${body}`;
const head = (): string => git(repo, ['rev-parse', 'HEAD'], env);
const branches = (): string => git(repo, ['branch', '--list', 'gitmem/*'], env);

async function reflection(
  files: Record<string, string> = {},
  message = 'feat(memory): remember office days',
): Promise<MemoryWorktree> {
  const wt = await createMemoryWorktree({ memoryDir: repo, kind: 'reflection', git: runner });
  if (Object.keys(files).length > 0) {
    for (const [rel, text] of Object.entries(files)) writeFileSync(join(wt.worktreeDir, rel), mem(text));
    git(wt.worktreeDir, ['add', '-A'], env);
    git(wt.worktreeDir, ['commit', '-q', '-m', message], env);
  }
  return wt;
}

beforeAll(() => {
  const root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  repo = join(root, 'agents', 'a1', 'memory');
  mkdirSync(join(repo, 'system'), { recursive: true });
  git(repo, ['init', '-q', '-b', 'main'], env);
  writeFileSync(join(repo, 'system', 'human.md'), mem('one\ntwo\nthree\n'));
  git(repo, ['add', '-A'], env);
  git(repo, ['commit', '-q', '-m', 'init'], env);
});

afterAll(() => cleanupTmp());

describe('finalizeReflectionWorktree', () => {
  it('merges in auto mode with merge(reflection): <subject without prefix>, cleaning up', async () => {
    const wt = await reflection({ 'system/office.md': 'Wednesdays at home\n' });
    const r = await finalizeReflectionWorktree(wt, { shouldMerge: true }, { git: runner });
    expect(r).toMatchObject({ status: 'merged', commitCount: 1, head: head(), reflectionBranch: wt.branchName });
    expect(git(repo, ['log', '-1', '--format=%s'], env)).toBe('merge(reflection): remember office days');
    expect(consumesTranscript(r) && shouldRecompile(r)).toBe(true);
    expect(branches()).toBe('');
  });

  it('reports no_changes for a reflection that committed nothing', async () => {
    const r = await finalizeReflectionWorktree(await reflection(), { shouldMerge: true }, { git: runner });
    expect(r).toMatchObject({ status: 'no_changes', commitCount: 0 });
    expect([consumesTranscript(r), shouldRecompile(r)]).toEqual([true, false]);
  });

  it('reports dirty_uncommitted before anything else, even when the sub-agent failed', async () => {
    const wt = await reflection();
    writeFileSync(join(wt.worktreeDir, 'system', 'loose.md'), mem('x\n'));
    const r = await finalizeReflectionWorktree(wt, { shouldMerge: false }, { git: runner });
    expect(r.status).toBe('dirty_uncommitted');
    expect([consumesTranscript(r), shouldRecompile(r)]).toEqual([false, false]);
    expect(branches()).toBe('');
  });

  it('reports failed when the sub-agent did not succeed, even with zero commits, and discards commits', async () => {
    const before = head();
    const r = await finalizeReflectionWorktree(
      await reflection({ 'system/x.md': 'x\n' }),
      { shouldMerge: false },
      { git: runner },
    );
    expect(r).toMatchObject({ status: 'failed', failurePhase: 'reflection' });
    expect(head()).toBe(before);
    expect((await finalizeReflectionWorktree(await reflection(), { shouldMerge: false }, { git: runner })).status).toBe(
      'failed',
    );
    expect(branches()).toBe('');
  });

  it('reports parent_dirty and leaves the parent’s uncommitted edits untouched', async () => {
    const wt = await reflection({ 'system/y.md': 'y\n' });
    writeFileSync(join(repo, 'system', 'human.md'), mem('one\ntwo\nthree\nuser typing\n'));
    const r = await finalizeReflectionWorktree(wt, { shouldMerge: true }, { git: runner });
    expect(r.status).toBe('parent_dirty');
    expect(git(repo, ['status', '--porcelain'], env)).toBe('M system/human.md');
    git(repo, ['checkout', '--', 'system/human.md'], env);
  });

  it('reports merge_conflict with the paths, parent unchanged and clean, branch kept by default', async () => {
    const wt = await reflection({ 'system/human.md': 'one\nREFLECTION\nthree\n' });
    writeFileSync(join(repo, 'system', 'human.md'), mem('one\nPRIMARY\nthree\n'));
    git(repo, ['commit', '-q', '-am', 'primary'], env);
    const before = head();
    const r = await finalizeReflectionWorktree(wt, { shouldMerge: true }, { git: runner });
    expect(r).toMatchObject({ status: 'merge_conflict', conflictingPaths: ['system/human.md'], branchKept: true });
    expect(head()).toBe(before);
    expect(git(repo, ['status', '--porcelain'], env)).toBe('');
    expect(branches()).toContain(wt.branchName);
    expect([consumesTranscript(r), shouldRecompile(r)]).toEqual([false, false]);
    const again = await reflection({ 'system/human.md': 'one\nAGAIN\nthree\n' });
    writeFileSync(join(repo, 'system', 'human.md'), mem('one\nPRIMARY AGAIN\nthree\n'));
    git(repo, ['commit', '-q', '-am', 'primary again'], env);
    const dropped = await finalizeReflectionWorktree(
      again,
      { shouldMerge: true, keepBranchOnConflict: false },
      { git: runner },
    );
    expect(dropped.branchKept).toBe(false);
    expect(branches()).not.toContain(again.branchName);
    git(repo, ['branch', '-D', wt.branchName], env);
  });

  it('fails in the integration phase when the parent refresh throws', async () => {
    const r = await finalizeReflectionWorktree(
      await reflection({ 'system/z.md': 'z\n' }),
      {
        shouldMerge: true,
        refreshParent: () => Promise.reject(new Error('origin unreachable')),
      },
      { git: runner },
    );
    expect(r).toMatchObject({ status: 'failed', failurePhase: 'integration', error: 'origin unreachable' });
  });

  it('in explicit mode only verifies that the primary already merged the branch', async () => {
    const unmerged = await reflection({ 'system/e1.md': 'e1\n' });
    const r1 = await finalizeReflectionWorktree(
      unmerged,
      { shouldMerge: true, mergeMode: 'explicit', failureSummary: 'primary skipped it' },
      { git: runner },
    );
    expect(r1).toMatchObject({ status: 'failed', failurePhase: 'integration', summary: 'primary skipped it' });
    const merged = await reflection({ 'system/e2.md': 'e2\n' });
    await importWorktreeCommits(merged, runner); // what finishReflection does before handing the branch over
    git(repo, ['merge', '-q', '--no-edit', merged.branchName], env); // the primary's integration conversation
    const r2 = await finalizeReflectionWorktree(merged, { shouldMerge: true, mergeMode: 'explicit' }, { git: runner });
    expect(r2).toMatchObject({ status: 'merged', head: head(), commitCount: 1 });
  });

  it('refuses to call a missing worktree whose branch advanced "no changes", and keeps the branch', async () => {
    const wt = await reflection({ 'system/lost.md': 'lost\n' });
    rmSync(wt.worktreeDir, { recursive: true, force: true });
    const err = await finalizeReflectionWorktree(
      wt,
      { shouldMerge: true, knownNoChanges: true },
      { git: runner },
    ).catch((e: unknown) => e);
    expect(isMemoryError(err, 'WORKTREE_ERROR')).toBe(true);
    expect(String((err as Error).message)).toContain(`${wt.branchName} advanced from ${wt.baseHead}`);
    expect(branches()).toContain(wt.branchName);
    git(repo, ['worktree', 'prune'], env);
    git(repo, ['branch', '-D', wt.branchName], env);
    const idle = await reflection();
    rmSync(idle.worktreeDir, { recursive: true, force: true });
    const ok = await finalizeReflectionWorktree(idle, { shouldMerge: true, knownNoChanges: true }, { git: runner });
    expect(ok).toMatchObject({ status: 'no_changes', head: idle.baseHead });
    expect(branches()).toBe('');
  });

  it('covers all six outcomes', () => {
    const all: ReflectionFinalizeStatus[] = [
      'no_changes',
      'dirty_uncommitted',
      'failed',
      'parent_dirty',
      'merge_conflict',
      'merged',
    ];
    expect(all.filter((status) => consumesTranscript({ status }))).toEqual(['no_changes', 'merged']);
    expect(all.filter((status) => shouldRecompile({ status }))).toEqual(['merged']);
    expect(reflectionMergeSummary('fix!: x')).toBe('x');
    expect(reflectionMergeSummary('chore(memory): ')).toBe('reflection memory updates');
  });
});
