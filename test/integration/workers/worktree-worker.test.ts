// The memory worker against real git: private sparse worktrees, merge back under the lease, conflicts kept.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { listKeptBranches } from '../../../src/sync/conflicts.js';
import { createMemoryWorktree } from '../../../src/worktree/create.js';
import { discardWorktree } from '../../../src/worktree/cleanup.js';
import { materializePaths } from '../../../src/worktree/materialize.js';
import { runMemoryWorker, startMemoryWorker } from '../../../src/worktree/worker.js';
import type { MemoryWorkerContext } from '../../../src/worktree/worker-types.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let root: string;
let memoryDir: string;
let env: Record<string, string>;
let runner: ReturnType<typeof createGitRunner>;

/** Markdown written here is a memory file (merges obey the memory rules). */
const mem = (body: string): string => `---\ndescription: test note\n---\n${body}`;

function write(dir: string, rel: string, text: string): void {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), rel.endsWith('.md') && !text.startsWith('---') ? mem(text) : text);
}

function commitAll(dir: string, message: string): void {
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '-m', message], env);
}

/** A body that edits files (relative to the worktree) and commits them. */
function editAndCommit(files: Record<string, string>, message = 'feat: worker edit') {
  return async (ctx: MemoryWorkerContext): Promise<void> => {
    for (const [rel, text] of Object.entries(files)) write(ctx.worktreeDir, rel, text);
    commitAll(ctx.worktreeDir, message);
  };
}

beforeAll(() => {
  root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  memoryDir = join(root, 'agents', 'a1', 'memory');
  mkdirSync(memoryDir, { recursive: true });
  git(memoryDir, ['init', '-q', '-b', 'main'], env);
  write(memoryDir, 'system/persona.md', '---\ndescription: who I am\n---\nline one\nline two\nline three\n');
  write(memoryDir, 'top.md', 'top\n');
  for (let i = 0; i < 30; i++) write(memoryDir, `reference/topic/n${i}.md`, `note ${i}\n`);
  commitAll(memoryDir, 'init');
});

afterAll(() => cleanupTmp());

describe('private worktree', () => {
  it('is created sparse on gitmem/<kind>/<id> in the sibling memory-worktrees dir, base head recorded', async () => {
    const wt = await createMemoryWorktree({
      memoryDir,
      kind: 'worker',
      git: runner,
      now: () => new Date('2025-01-02T03:04:05Z'),
      randomHex: () => 'abcdef12',
    });
    const head = git(memoryDir, ['rev-parse', 'HEAD'], env);
    expect(wt.branchName).toBe('gitmem/worker/20250102030405-abcdef12');
    expect(wt.worktreeDir).toBe(join(root, 'agents', 'a1', 'memory-worktrees', 'worker-20250102030405-abcdef12'));
    expect(wt.baseHead).toBe(head);
    expect(existsSync(join(wt.worktreeDir, 'system/persona.md'))).toBe(true);
    expect(existsSync(join(wt.worktreeDir, 'top.md'))).toBe(true);
    expect(existsSync(join(wt.worktreeDir, 'reference'))).toBe(false);
    expect(git(wt.worktreeDir, ['status', '--porcelain'], env)).toBe('');
    await materializePaths(wt, ['reference/topic/n3.md'], runner);
    expect(readFileSync(join(wt.worktreeDir, 'reference/topic/n3.md'), 'utf8')).toBe(mem('note 3\n'));
    expect(git(wt.worktreeDir, ['status', '--porcelain'], env)).toBe('');
    await discardWorktree(wt, runner);
    expect(existsSync(wt.worktreeDir)).toBe(false);
    expect(git(memoryDir, ['worktree', 'list', '--porcelain'], env)).not.toContain('worker-');
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });
});

describe('update worker', () => {
  it('merges its commits back with merge(memory): <branch>, deletes the branch and the directory', async () => {
    let seen: MemoryWorkerContext | undefined;
    const out = await runMemoryWorker(
      { memoryDir, description: 'note the office days' },
      async (ctx) => {
        seen = ctx;
        await editAndCommit({ 'system/office.md': '---\ndescription: office\n---\nWednesdays at home\n' })(ctx);
      },
      { git: runner },
    );
    expect(out.status).toBe('merged');
    if (out.status !== 'merged') return;
    expect(out.commitCount).toBe(1);
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(out.head);
    expect(git(memoryDir, ['log', '-1', '--format=%s'], env)).toBe(`merge(memory): ${out.branchName}`);
    expect(git(memoryDir, ['log', '-1', '--format=%b'], env)).toContain('Task: note the office days');
    expect(git(memoryDir, ['log', '-1', '--format=%P'], env).split(' ')).toHaveLength(2);
    expect(readFileSync(join(memoryDir, 'system/office.md'), 'utf8')).toContain('Wednesdays');
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
    expect(existsSync(seen?.worktreeDir ?? '/nonexistent')).toBe(false);
    expect(git(memoryDir, ['branch', '--list', out.branchName], env)).toBe('');
  });

  it('reports merge_conflict when worker and primary edit the same lines, keeps the branch and the primary commit', async () => {
    const handle = startMemoryWorker(
      { memoryDir, paths: ['system/'] },
      async (ctx) => {
        await editAndCommit({
          'system/persona.md': '---\ndescription: who I am\n---\nline one\nWORKER line two\nline three\n',
        })(ctx);
        // the primary writes the same line while the worker is still running
        write(
          memoryDir,
          'system/persona.md',
          '---\ndescription: who I am\n---\nline one\nPRIMARY line two\nline three\n',
        );
        commitAll(memoryDir, 'primary edit');
      },
      { git: runner },
    );
    const out = await handle.outcome;
    const primaryHead = git(memoryDir, ['rev-parse', 'HEAD'], env);
    expect(out.status).toBe('merge_conflict');
    if (out.status !== 'merge_conflict') return;
    expect(out.conflictingPaths).toEqual(['system/persona.md']);
    expect(out.conflictReason).toBe('content');
    expect(out.branchName).toMatch(/^gitmem\/worker\/\d{14}-[0-9a-f]{8}$/);
    expect(git(memoryDir, ['log', '-1', '--format=%s'], env)).toBe('primary edit');
    expect(git(memoryDir, ['rev-parse', `refs/heads/${out.branchName}`], env)).toBe(out.branchTip);
    expect((await listKeptBranches({ git: runner, memoryDir })).map((b) => b.branch)).toEqual([out.branchName]); // `gitmem conflicts`
    expect(readFileSync(join(memoryDir, 'system/persona.md'), 'utf8')).toContain('PRIMARY line two');
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(primaryHead);
    expect(git(memoryDir, ['worktree', 'list', '--porcelain'], env)).not.toContain('memory-worktrees');
    git(memoryDir, ['branch', '-D', out.branchName], env);
  });

  it('treats a primary uncommitted edit on a file the merge would change as a conflict and leaves it alone', async () => {
    const out = await runMemoryWorker(
      { memoryDir },
      async (ctx) => {
        await editAndCommit({ 'top.md': 'worker top\n' })(ctx);
        write(memoryDir, 'top.md', 'user is typing\n');
      },
      { git: runner },
    );
    expect(out.status).toBe('merge_conflict');
    if (out.status !== 'merge_conflict') return;
    expect(out.conflictReason).toBe('uncommitted');
    expect(out.conflictingPaths).toEqual(['top.md']);
    expect(readFileSync(join(memoryDir, 'top.md'), 'utf8')).toBe(mem('user is typing\n'));
    git(memoryDir, ['checkout', '--', 'top.md'], env);
    git(memoryDir, ['branch', '-D', out.branchName], env);
  });

  it('merges cleanly next to a primary uncommitted edit elsewhere', async () => {
    write(memoryDir, 'top.md', 'user is typing\n');
    const out = await runMemoryWorker(
      { memoryDir, paths: ['reference/topic/'] },
      async (ctx) => {
        await editAndCommit({ 'reference/topic/n1.md': 'note 1 revised\n' })(ctx);
        // same content, new mtime: stale stat data in the primary's index must not read as a local edit
        utimesSync(
          join(memoryDir, 'reference/topic/n1.md'),
          new Date(Date.now() + 5_000),
          new Date(Date.now() + 5_000),
        );
      },
      { git: runner },
    );
    expect(out.status).toBe('merged');
    expect(readFileSync(join(memoryDir, 'reference/topic/n1.md'), 'utf8')).toBe(mem('note 1 revised\n'));
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('M top.md');
    git(memoryDir, ['checkout', '--', 'top.md'], env);
  });

  it('ends no_changes (cleaned up) when nothing was committed, reporting and discarding uncommitted leftovers', async () => {
    const before = git(memoryDir, ['rev-parse', 'HEAD'], env);
    let dir = '';
    const out = await runMemoryWorker(
      { memoryDir },
      async (ctx) => {
        dir = ctx.worktreeDir;
        write(ctx.worktreeDir, 'system/draft.md', 'never committed\n');
      },
      { git: runner },
    );
    expect(out).toMatchObject({ status: 'no_changes', commitCount: 0, uncommittedPaths: ['system/draft.md'] });
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(before);
    expect(existsSync(dir)).toBe(false);
    expect(existsSync(join(memoryDir, 'system/draft.md'))).toBe(false);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('is discarded when cancelled mid-run: nothing merged, directory and branch gone', async () => {
    const before = git(memoryDir, ['rev-parse', 'HEAD'], env);
    let dir = '';
    let committed!: () => void;
    const ready = new Promise<void>((r) => (committed = r));
    const handle = startMemoryWorker(
      { memoryDir },
      async (ctx) => {
        dir = ctx.worktreeDir;
        await editAndCommit({ 'system/half.md': 'half done\n' })(ctx);
        committed();
        await new Promise<void>((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))),
        );
      },
      { git: runner },
    );
    await ready;
    handle.cancel();
    const out = await handle.outcome;
    expect(out).toMatchObject({ status: 'discarded', reason: 'cancelled', commitCount: 1 });
    expect(git(memoryDir, ['rev-parse', 'HEAD'], env)).toBe(before);
    expect(existsSync(dir)).toBe(false);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
    expect(git(memoryDir, ['worktree', 'list', '--porcelain'], env)).not.toContain('memory-worktrees');
  });

  it('is discarded when its body fails, with the error', async () => {
    const out = await runMemoryWorker(
      { memoryDir },
      async (ctx) => {
        await editAndCommit({ 'system/bad.md': 'x\n' })(ctx);
        throw new Error('model went away');
      },
      { git: runner },
    );
    expect(out).toMatchObject({ status: 'discarded', reason: 'body_failed', error: 'model went away' });
    expect(existsSync(join(memoryDir, 'system/bad.md'))).toBe(false);
  });

  it('never starts when already cancelled', async () => {
    const out = await runMemoryWorker(
      { memoryDir, signal: AbortSignal.abort() },
      async () => {
        throw new Error('must not run');
      },
      { git: runner },
    );
    expect(out).toMatchObject({ status: 'discarded', reason: 'cancelled', branchName: '' });
  });
});

describe('repair worker', () => {
  it('works on the checkout itself under the lease and reports its commits', async () => {
    const before = git(memoryDir, ['rev-parse', 'HEAD'], env);
    const out = await runMemoryWorker(
      { memoryDir, type: 'repair' },
      async (ctx) => {
        expect(ctx.worktreeDir).toBe(memoryDir);
        expect(ctx.branch).toBe('main');
        await editAndCommit(
          { 'system/fixed.md': '---\ndescription: fixed\n---\nok\n' },
          'fix: repair frontmatter',
        )(ctx);
      },
      { git: runner },
    );
    expect(out).toMatchObject({ type: 'repair', status: 'merged', commitCount: 1, branchName: 'main' });
    expect(git(memoryDir, ['rev-parse', 'HEAD~1'], env)).toBe(before);
    const none = await runMemoryWorker({ memoryDir, type: 'repair' }, async () => undefined, { git: runner });
    expect(none.status).toBe('no_changes');
  });
});
