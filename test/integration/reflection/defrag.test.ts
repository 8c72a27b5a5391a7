// `runDefrag` end to end with scripted mock models and the real bubblewrap sandbox: the sub-agent restructures
// a private worktree and commits; a split and a merge land through the validated merge; a run that deletes a
// fact without moving it is refused (branch kept, main untouched) or, with allowDrops, merged and reported; a
// conflict with a primary edit keeps the branch; a dry run shows the diff and lands nothing; a dirty parent is
// refused before anything is created.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleGit } from '../../../src/internals.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { runDefrag } from '../../../src/reflection/defrag.js';
import { DEFRAG_TRAILER } from '../../../src/reflection/defrag-prompt.js';
import type { DefragOptions } from '../../../src/reflection/defrag-types.js';
import { readRunLog } from '../../../src/reflection/run-log.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { commit, firstPrompt, scripted, type Turn } from '../../helpers/reflection-mock.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

let fx: MemoryFixture;
let agentDir: string;

afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-1');
  agentDir = join(fx.home, 'agents', 'agent-1');
  await fx.memory.tool({
    command: 'create',
    file_path: 'project/notes.md',
    description: 'Everything about the project',
    file_text:
      '# Project\n- Tooling: we use bun for scripts.\n- Tooling: tests run with vitest.\n- Deploys go out on Fridays.\n',
    reason: 'fixture: a multi-topic file',
  });
});

function options(turns: Turn[], extra: Partial<DefragOptions> = {}) {
  const model = scripted(turns);
  const o: DefragOptions = {
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-1',
    model,
    env: fx.env,
    git: handleGit(fx.memory),
    maxRetries: 0,
    refreshParent: false,
    ...extra,
  };
  return { model, o };
}

const write = (path: string, description: string, body: string) => ({
  name: 'write_file',
  input: { path, content: `---\ndescription: ${description}\n---\n${body}` },
});
const head = () => git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
const branches = () => git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env);

describe('runDefrag', { tags: ['sandbox'] }, () => {
  it('a dry run shows the diff it would merge and lands nothing', async () => {
    const before = head();
    const { o } = options([
      { calls: [write('project/tooling/bun.md', 'How scripts run', '- Tooling: we use bun for scripts.\n')] },
      { calls: [commit('Start splitting project notes', DEFRAG_TRAILER)] },
      { text: 'done' },
    ]);
    const r = await runDefrag({ ...o, dryRun: true });
    expect(r).toMatchObject({ status: 'dry_run', success: true, commitCount: 1 });
    expect(r.diff).toContain('+- Tooling: we use bun for scripts.');
    expect(r.preservation?.droppedCount).toBe(0);
    expect(head()).toBe(before);
    expect(branches()).toBe('');
    expect(existsSync(join(fx.dir, 'project/tooling/bun.md'))).toBe(false);
  });

  it('a split: one multi-topic file becomes an index and two topic files, merged as a defrag', async () => {
    const { model, o } = options([
      {
        calls: [
          write(
            'project/tooling.md',
            'Tools used for scripts and tests',
            '- Tooling: we use bun for scripts.\n- Tooling: tests run with vitest.\n',
          ),
          write('project/deploys.md', 'When deploys happen', 'Deploys go out on Fridays.\n'),
          write(
            'project/notes.md',
            'Index of the project notes',
            '# Project\n\n## Related files\n- [[project/tooling.md]]\n- [[project/deploys.md]]\n',
          ),
        ],
      },
      { calls: [commit('Split project notes by topic so each is found by its description', DEFRAG_TRAILER)] },
      { text: 'Split project/notes.md into tooling and deploys.' },
    ]);
    const recompiles: number[] = [];
    const r = await runDefrag({ ...o, onRecompile: () => void recompiles.push(1) });
    expect(r).toMatchObject({ status: 'merged', success: true, commitCount: 1, recompiled: true });
    expect(r.preservation).toMatchObject({ droppedCount: 0 });
    expect(r.error).toBeUndefined();
    expect(recompiles).toHaveLength(1);
    expect(readFileSync(join(fx.dir, 'project/deploys.md'), 'utf8')).toContain('Deploys go out on Fridays.');
    expect(git(fx.dir, ['log', '-1', '--format=%s', 'HEAD'], fx.env)).toBe(
      'merge(reflection): defrag: Split project notes by topic so each is found by its description',
    );
    expect(git(fx.dir, ['log', '-1', '--format=%b', 'HEAD^2'], fx.env)).toContain(DEFRAG_TRAILER);
    expect(branches()).toBe('');
    expect(readdirSync(join(agentDir, 'memory-worktrees'))).toEqual([]);
    const { system, user } = firstPrompt(model);
    expect(system).toContain('SPLIT');
    expect(user).toContain('<parent_memory>');
    expect(user).toContain('notes.md — Everything about the project');
    expect(user).toContain('Move text; do not delete it.');
    expect(`${system}${user}`).not.toContain(fx.home);
    expect(readRunLog(agentDir).at(-1)).toMatchObject({ kind: 'defrag', outcome: 'merged', droppedLines: 0 });
  });

  it('a merge: two overlapping files become one, the originals deleted', async () => {
    const { o } = options([
      {
        calls: [
          write(
            'project/tooling.md',
            'Tools used for scripts, tests and deploys',
            '- Tooling: we use bun for scripts.\n- Tooling: tests run with vitest.\n- Deploys go out on Fridays.\n',
          ),
          { name: 'shell', input: { command: 'git rm -q project/deploys.md' } },
          write(
            'project/notes.md',
            'Index of the project notes',
            '# Project\n\n## Related files\n- [[project/tooling.md]]\n',
          ),
        ],
      },
      { calls: [commit('Merge the tiny deploys note into tooling', DEFRAG_TRAILER)] },
      { text: 'Merged deploys into tooling.' },
    ]);
    const r = await runDefrag(o);
    expect(r).toMatchObject({ status: 'merged', success: true, preservation: { droppedCount: 0 } });
    expect(existsSync(join(fx.dir, 'project/deploys.md'))).toBe(false);
    expect(readFileSync(join(fx.dir, 'project/tooling.md'), 'utf8')).toContain('Deploys go out on Fridays.');
  });

  it('a deletion without a move is refused: nothing merged, the branch kept, the line named; allowDrops merges and reports it', async () => {
    const before = head();
    const drop = (): Turn[] => [
      {
        calls: [
          {
            name: 'edit_file',
            input: { path: 'project/tooling.md', old_string: '- Deploys go out on Fridays.\n', new_string: '' },
          },
        ],
      },
      { calls: [commit('Tidy tooling', DEFRAG_TRAILER)] },
      { text: 'done' },
    ];
    const refused = await runDefrag(options(drop()).o);
    expect(refused).toMatchObject({
      status: 'content_dropped',
      success: false,
      branchKept: true,
      error: { code: 'CONTENT_DROPPED' },
      preservation: {
        droppedCount: 1,
        dropped: [{ path: 'project/tooling.md', text: '- Deploys go out on Fridays.' }],
      },
    });
    expect(refused.error?.message).toContain('project/tooling.md:6');
    expect(head()).toBe(before);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    expect(branches()).toContain(refused.branchName);
    expect(git(fx.dir, ['show', `${refused.branchName}:project/tooling.md`], fx.env)).not.toContain('Fridays');
    expect((await fx.memory.conflicts.list()).map((k) => [k.kind, k.branch])).toContainEqual([
      'defrag',
      refused.branchName,
    ]);
    git(fx.dir, ['branch', '-D', refused.branchName], fx.env);

    const dry = await runDefrag({ ...options(drop()).o, dryRun: true });
    expect(dry).toMatchObject({ status: 'dry_run', preservation: { droppedCount: 1 } });
    expect(dry.message).toContain('1 line(s) of the old memory are nowhere in the new one');

    const allowed = await runDefrag({ ...options(drop()).o, allowDrops: true });
    expect(allowed).toMatchObject({ status: 'merged', success: true, preservation: { droppedCount: 1 } });
    expect(readFileSync(join(fx.dir, 'project/tooling.md'), 'utf8')).not.toContain('Fridays');
  });

  it('a conflict with a primary edit keeps the branch and loses nothing', async () => {
    const before = readFileSync(join(fx.dir, 'project/tooling.md'), 'utf8');
    expect(before).toContain('tests run with vitest');
    const primary = async (): Promise<Turn> => {
      await fx.memory.tool({
        command: 'str_replace',
        file_path: 'project/tooling.md',
        old_string: '- Tooling: tests run with vitest.',
        new_string: '- Tooling: tests run with vitest --run.',
        reason: 'primary edit',
      });
      return { calls: [commit('Reword the test tooling line', DEFRAG_TRAILER)] };
    };
    const { o } = options([
      {
        calls: [
          {
            name: 'edit_file',
            input: {
              path: 'project/tooling.md',
              old_string: '- Tooling: tests run with vitest.',
              new_string: '- Tooling: tests run with vitest. Index: [[project/notes.md]]',
            },
          },
        ],
      },
      primary,
      { text: 'done' },
    ]);
    const r = await runDefrag(o);
    expect(r).toMatchObject({
      status: 'merge_conflict',
      success: false,
      branchKept: true,
      conflictingPaths: ['project/tooling.md'],
      error: { code: 'MERGE_CONFLICT' },
    });
    expect(readFileSync(join(fx.dir, 'project/tooling.md'), 'utf8')).toContain('vitest --run');
    expect(git(fx.dir, ['log', '-1', '--format=%s', r.branchName], fx.env)).toBe('Reword the test tooling line');
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  });

  it('memory.defrag runs the same through the handle (its wiring, a model instance)', async () => {
    const before = head();
    const r = await fx.memory.defrag({
      model: scripted([
        { calls: [write('project/extra.md', 'An extra note', 'Nothing new.\n')] },
        { calls: [commit('Add an extra note', DEFRAG_TRAILER)] },
        { text: 'done' },
      ]),
      dryRun: true,
      maxRetries: 0,
    });
    expect(r).toMatchObject({ status: 'dry_run', success: true, agentId: 'agent-1', commitCount: 1 });
    expect(r.diff).toContain('+Nothing new.');
    expect(head()).toBe(before);
  });

  it('refuses a dirty parent before creating anything', async () => {
    const before = readdirSync(join(agentDir, 'memory-worktrees'));
    writeFileSync(join(fx.dir, 'scratch.md'), 'uncommitted\n');
    try {
      await expect(runDefrag(options([]).o)).rejects.toMatchObject({ code: 'REPO_DIRTY' });
      expect(readdirSync(join(agentDir, 'memory-worktrees'))).toEqual(before);
    } finally {
      rmSync(join(fx.dir, 'scratch.md'));
    }
  });
});
