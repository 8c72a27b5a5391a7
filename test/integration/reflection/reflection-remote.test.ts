// Background merges against the remote's state, with a real bare remote and a second clone that pushes
// while the writer runs: the parent is brought up to date first (fetch + fast-forward or rebase), so a
// conflicting remote edit ends `merge_conflict` with the branch kept and the parent at the remote's main
// (never a local merge the next sync cannot push); an unrelated remote edit is merged under the reflection's
// commits and the next sync pushes; an unreachable remote merges locally and says so; unpushed local commits
// that conflict with the remote fail the reflection and leave everything as it was.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readCursor } from '../../../src/reflection/cursor.js';
import { runReflection } from '../../../src/reflection/run.js';
import type { ReflectionCompleted } from '../../../src/reflection/run-types.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { prepareParentRefresh } from '../../../src/sync/refresh.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, gitTry, makeTmpDir } from '../../helpers/tmp.js';
import { commit, scripted, TRAILER_OF, type Call, type Turn } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
const OLD = "I haven't got to know this person yet.";
let fx: MemoryFixture;
let agentDir: string;
let remote: string;
let other: string;

afterAll(cleanupTmp);
beforeEach(async () => {
  fx = await memoryFixture('agent-r');
  agentDir = join(fx.home, 'agents', 'agent-r');
  remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  git(fx.home, ['init', '-q', '--bare', '-b', 'main', remote], fx.env);
  await setRemote({ git: handleGit(fx.memory), memoryDir: fx.dir, url: remote });
  expect((await syncMemory({ git: handleGit(fx.memory), memoryDir: fx.dir })).status).toBe('pushed');
  other = join(makeTmpDir('gitmem-machine-'), 'memory');
  git(fx.home, ['clone', '-q', remote, other], fx.env);
  appendTranscript(agentDir, 'conv-1', [
    { kind: 'user', text: 'I am Ada; I review code on Fridays.' },
    { kind: 'assistant', text: 'Noted.' },
  ]);
});

/** The second machine edits `file` (replacing `from` with `to`) and pushes. */
function pushFromOtherMachine(file: string, from: string, to: string): void {
  const path = join(other, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
  git(other, ['commit', '-q', '-am', `other machine: ${file}`], fx.env);
  git(other, ['push', '-q', 'origin', 'main'], fx.env);
}

const head = (dir: string, rev = 'HEAD'): string => git(dir, ['rev-parse', rev], fx.env);
const isAncestor = (dir: string, a: string, b: string): boolean =>
  gitTry(dir, ['merge-base', '--is-ancestor', a, b], fx.env).status === 0;

const EDIT_HUMAN: Call = {
  name: 'edit_file',
  input: { path: 'system/human.md', old_string: OLD, new_string: 'Ada; reviews code on Fridays.' },
};

/** A reflection that makes `edit` (default: rewrite the starter line of system/human.md); `during` runs before it finishes. */
function reflect(during: () => void, edit = EDIT_HUMAN) {
  const late = (): Turn => (during(), { text: 'Summary: recorded who the user is.' });
  const model = scripted([
    { calls: [edit] },
    { calls: [commit('Record who the user is', TRAILER_OF('conv-1', 1, 2))] },
    late,
  ]);
  return runReflection({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-r',
    conversationId: 'conv-1',
    model,
    env: fx.env,
    git: handleGit(fx.memory),
    maxRetries: 0,
  }) as Promise<ReflectionCompleted>;
}

describe.runIf(sandboxed)('reflection merges against the remote', () => {
  it('a conflicting remote edit pushed while the reflection runs ends merge_conflict: branch kept, parent at the remote main, clean', async () => {
    const r = await reflect(() => pushFromOtherMachine('system/human.md', OLD, 'Ada (edited on the laptop).'));
    expect(r).toMatchObject({
      status: 'merge_conflict',
      branchKept: true,
      conflictingPaths: ['system/human.md'],
      success: false,
    });
    expect(head(fx.dir)).toBe(head(remote, 'main'));
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(git(fx.dir, ['log', '-1', '--format=%s', r.branchName], fx.env)).toBe('Record who the user is');
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(0);
    expect((await syncMemory({ git: handleGit(fx.memory), memoryDir: fx.dir })).status).toBe('clean');
  });

  it('an unrelated remote edit is brought in first; the reflection merges on top and the next sync pushes it', async () => {
    const r = await reflect(() => pushFromOtherMachine('system/persona.md', 'on purpose', 'on purpose, truly'));
    expect(r).toMatchObject({ status: 'merged', success: true });
    expect(r.refreshError).toBeUndefined();
    expect(isAncestor(fx.dir, head(remote, 'main'), 'HEAD')).toBe(true);
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env)).toBe('merge(reflection): Record who the user is');
    const pushed = await syncMemory({ git: handleGit(fx.memory), memoryDir: fx.dir });
    expect(pushed).toMatchObject({ status: 'pushed', pulled: 0 });
    expect(head(remote, 'main')).toBe(head(fx.dir));
  });

  it('an unreachable remote: the reflection merges locally and reports why the parent was not refreshed', async () => {
    git(fx.dir, ['remote', 'set-url', 'origin', join(fx.home, 'gone.git')], fx.env);
    const r = await reflect(() => undefined);
    expect(r).toMatchObject({ status: 'merged', success: true });
    expect(r.refreshError).toMatch(/gone\.git/);
  });

  it('unpushed local commits that conflict with the remote fail the reflection; nothing moves and the transcript is kept', async () => {
    await fx.memory.tool({
      command: 'str_replace',
      file_path: 'system/human.md',
      old_string: OLD,
      new_string: 'Local, unpushed.',
      reason: 'local edit',
    });
    const before = head(fx.dir);
    const note = {
      name: 'write_file',
      input: { path: 'reference/reviews.md', content: '---\ndescription: Review days\n---\nFridays.\n' },
    };
    const r = await reflect(() => pushFromOtherMachine('system/human.md', OLD, 'Remote wins?'), note);
    expect(r).toMatchObject({ status: 'failed', success: false });
    expect(r.error).toMatch(/SYNC_CONFLICT|conflict/i);
    expect(head(fx.dir)).toBe(before);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(0);
  });
});

describe('worker merges against the remote', () => {
  it('a conflicting remote edit pushed while the worker runs keeps its branch (merge_conflict, reason remote)', async () => {
    const outcome = await runMemoryWorker(
      { memoryDir: fx.dir, description: 'rewrite the human block' },
      async (ctx) => {
        const path = join(ctx.worktreeDir, 'system/human.md');
        writeFileSync(path, readFileSync(path, 'utf8').replace(OLD, 'Worker edit.'));
        git(ctx.worktreeDir, ['commit', '-q', '-am', 'worker edit'], { ...fx.env, ...ctx.gitEnv });
        pushFromOtherMachine('system/human.md', OLD, 'Remote edit.');
      },
      {
        git: handleGit(fx.memory),
        refreshParent: () => prepareParentRefresh({ git: handleGit(fx.memory), memoryDir: fx.dir }),
      },
    );
    expect(outcome).toMatchObject({ status: 'merge_conflict', conflictingPaths: ['system/human.md'] });
    expect(head(fx.dir)).toBe(head(remote, 'main'));
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(git(fx.dir, ['branch', '--list', outcome.branchName], fx.env)).toContain(outcome.branchName);
  });

  it('an unrelated remote edit is brought in before the worker merge', async () => {
    const outcome = await runMemoryWorker(
      { memoryDir: fx.dir },
      async (ctx) => {
        writeFileSync(join(ctx.worktreeDir, 'notes.md'), '---\ndescription: Worker notes\n---\nworker note\n');
        git(ctx.worktreeDir, ['add', '-A'], { ...fx.env, ...ctx.gitEnv });
        git(ctx.worktreeDir, ['commit', '-q', '-m', 'worker note'], { ...fx.env, ...ctx.gitEnv });
        pushFromOtherMachine('system/persona.md', 'on purpose', 'on purpose, truly');
      },
      {
        git: handleGit(fx.memory),
        refreshParent: () => prepareParentRefresh({ git: handleGit(fx.memory), memoryDir: fx.dir }),
      },
    );
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: 'merged' });
    expect(isAncestor(fx.dir, head(remote, 'main'), 'HEAD')).toBe(true);
    expect((await syncMemory({ git: handleGit(fx.memory), memoryDir: fx.dir })).status).toBe('pushed');
  });

  it('unpushed local commits that conflict with the remote keep the worker branch (reason remote); main is unchanged', async () => {
    await fx.memory.tool({
      command: 'str_replace',
      file_path: 'system/human.md',
      old_string: OLD,
      new_string: 'Local, unpushed.',
      reason: 'local edit',
    });
    pushFromOtherMachine('system/human.md', OLD, 'Remote edit.');
    const before = head(fx.dir);
    const outcome = await runMemoryWorker(
      { memoryDir: fx.dir },
      async (ctx) => {
        writeFileSync(join(ctx.worktreeDir, 'notes.md'), '---\ndescription: Worker notes\n---\nworker note\n');
        git(ctx.worktreeDir, ['add', '-A'], { ...fx.env, ...ctx.gitEnv });
        git(ctx.worktreeDir, ['commit', '-q', '-m', 'worker note'], { ...fx.env, ...ctx.gitEnv });
      },
      {
        git: handleGit(fx.memory),
        refreshParent: () => prepareParentRefresh({ git: handleGit(fx.memory), memoryDir: fx.dir }),
      },
    );
    expect(outcome).toMatchObject({
      status: 'merge_conflict',
      conflictReason: 'remote',
      conflictingPaths: ['system/human.md'],
    });
    expect(head(fx.dir)).toBe(before);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(git(fx.dir, ['branch', '--list', outcome.branchName], fx.env)).toContain(outcome.branchName);
  });

  it.runIf(sandboxed)(
    'gitmem worker run refreshes first: a remote edit of the same line is a kept branch (exit 3), not a local merge',
    () => {
      pushFromOtherMachine('system/human.md', 'got to know', 'properly met');
      const before = head(remote, 'main');
      const command = "sed -i 's/got to know/met/' system/human.md && git commit -qam 'worker: met'";
      const r = spawnSync(
        process.execPath,
        ['--import', 'tsx', CLI, 'worker', 'run', '--agent', 'agent-r', '--command', command, '--json'],
        { env: { ...fx.env, NODE_OPTIONS: '' }, encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(3);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'merge_conflict', conflictingPaths: ['system/human.md'] });
      expect(head(fx.dir)).toBe(before);
      expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    },
  );
});
