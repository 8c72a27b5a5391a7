// A reflection run end to end with a scripted mock model and the real bubblewrap sandbox: the sub-agent
// edits a private worktree, commits with its reasons through its confined shell, and the commits are merged;
// a conflicting primary edit loses nothing and leaves the cursor where it was so the next run retries; a
// dirty parent or an empty transcript are skipped before anything is created; the sub-agent cannot write
// outside its worktree through any tool.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRunLog } from '../../../src/reflection/run-log.js';
import { readCursor } from '../../../src/reflection/cursor.js';
import { runReflection } from '../../../src/reflection/run.js';
import type { ReflectionCompleted, ReflectionRunOptions } from '../../../src/reflection/run-types.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { commit, firstPrompt, scripted, toolResults, TRAILER_OF, type Turn } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

let fx: MemoryFixture;
let agentDir: string;
const OLD = "I haven't got to know this person yet.";

afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-1');
  agentDir = join(fx.home, 'agents', 'agent-1');
});

function options(turns: Turn[], extra: Partial<ReflectionRunOptions> = {}) {
  const model = scripted(turns);
  const o: ReflectionRunOptions = {
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-1',
    conversationId: 'conv-1',
    model,
    env: fx.env,
    git: handleGit(fx.memory),
    maxRetries: 0,
    ...extra,
  };
  return { model, o };
}

function turn(user: string, assistant: string) {
  return [
    { kind: 'user' as const, text: user },
    { kind: 'assistant' as const, text: assistant },
  ];
}

describe('runReflection', { tags: ['sandbox'] }, () => {
  it('merges the sub-agent commits, whose messages are its reasons with the transcript trailer, and advances the cursor', async () => {
    appendTranscript(agentDir, 'conv-1', [
      ...turn('Use tabs, not spaces. I told you this before!', 'Sorry, switching to tabs.'),
      ...turn('Deploys go through make ship.', 'Noted.'),
    ]);
    const reason = 'Keep the user correction about tabs, stated twice';
    const { model, o } = options([
      {
        calls: [
          { name: 'read_file', input: { path: 'system/human.md' } },
          { name: 'shell', input: { command: 'wc -c "$TRANSCRIPT_PATH"; echo "dir=$MEMORY_DIR"' } },
        ],
      },
      {
        calls: [
          {
            name: 'edit_file',
            input: {
              path: 'system/human.md',
              old_string: OLD,
              new_string: 'Correction (verbatim): "Use tabs, not spaces. I told you this before!"',
            },
          },
        ],
      },
      { calls: [commit(reason, TRAILER_OF('conv-1', 1, 4))] },
      { text: 'Summary: kept the tabs correction.' },
    ]);
    const recompiles: number[] = [];
    const r = (await runReflection({ ...o, onRecompile: () => void recompiles.push(1) })) as ReflectionCompleted;
    expect(r).toMatchObject({
      launched: true,
      status: 'merged',
      success: true,
      commitCount: 1,
      lines: { from: 1, to: 4 },
      recompiled: true,
      steps: 4,
    });
    expect(r.usage).toEqual({ inputTokens: 4000, outputTokens: 200, totalTokens: 4200 });
    expect(recompiles).toHaveLength(1);
    expect(toolResults(model).join('\n')).toContain(reason);
    const log = git(fx.dir, ['log', '--format=%s%n%b%n--', '-3'], fx.env);
    expect(log).toMatch(/^merge\(reflection\): Keep the user correction about tabs/);
    expect(log).toContain(`${reason}\n${TRAILER_OF('conv-1', 1, 4)}`);
    expect(readFileSync(join(fx.dir, 'system/human.md'), 'utf8')).toContain('Correction (verbatim)');
    expect(readCursor(agentDir, 'conv-1')).toMatchObject({ reflectedThroughLine: 4, stepsSinceLastReflection: 0 });
    expect(readRunLog(agentDir).at(-1)).toMatchObject({
      kind: 'reflection',
      outcome: 'merged',
      steps: 4,
      inputTokens: 4000,
      outputTokens: 200,
      model: 'mock:reflector',
      conversationId: 'conv-1',
    });
    const { system, user } = firstPrompt(model);
    expect(system).toContain('Skills are not the default');
    expect(user).toContain('<parent_memory>');
    expect(user).toContain('<path>$MEMORY_DIR/system/human.md</path>');
    expect(user).toContain('Use tabs, not spaces.');
    expect(user).toContain(TRAILER_OF('conv-1', 1, 4));
    expect(`${system}${user}`).not.toContain(fx.home);
    expect(`${system}${user}`.toLowerCase()).not.toContain('worktree');
    expect(r.snapshot).toMatchObject({ budget: 40_000, truncated: [], omitted: 0 });
    expect(r.snapshot?.chars).toBeLessThanOrEqual(40_000);
    console.info(
      `[reflection-run] fixture usage ${JSON.stringify(r.usage)}; snapshot ${r.snapshot?.chars}/${r.snapshot?.budget} chars`,
    );
    expect(readdirSync(join(agentDir, 'memory-worktrees'))).toEqual([]);
    expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
  });

  it('skips a dirty parent and an empty payload before creating anything', async () => {
    const { o } = options([]);
    expect(await runReflection(o)).toMatchObject({ launched: false, reason: 'no_payload' });
    appendTranscript(agentDir, 'conv-1', turn('I work from home on Wednesdays.', 'Got it.'));
    writeFileSync(join(fx.dir, 'scratch.md'), 'uncommitted\n');
    try {
      expect(await runReflection(o)).toMatchObject({ launched: false, reason: 'parent_dirty' });
      expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
    } finally {
      rmSync(join(fx.dir, 'scratch.md'));
    }
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(4);
  });

  it('a conflicting primary edit loses nothing, keeps the branch and the cursor; the next run retries the same lines', async () => {
    const primary = async (): Promise<Turn> => {
      await fx.memory.tool({
        command: 'str_replace',
        file_path: 'system/human.md',
        old_string: 'Correction (verbatim)',
        new_string: 'Primary note',
        reason: 'primary edit',
      });
      return { calls: [commit('Record that the user works from home on Wednesdays', TRAILER_OF('conv-1', 5, 6))] };
    };
    const { o } = options([]);
    const conflicted = (await runReflection({
      ...o,
      model: scripted([
        {
          calls: [
            {
              name: 'edit_file',
              input: {
                path: 'system/human.md',
                old_string: 'Correction (verbatim)',
                new_string: 'Works from home on Wednesdays. Correction (verbatim)',
              },
            },
          ],
        },
        primary,
        { text: 'done' },
      ]),
    })) as ReflectionCompleted;
    expect(conflicted).toMatchObject({
      status: 'merge_conflict',
      success: false,
      branchKept: true,
      conflictingPaths: ['system/human.md'],
    });
    expect(readFileSync(join(fx.dir, 'system/human.md'), 'utf8')).toContain('Primary note');
    expect(git(fx.dir, ['log', '-1', '--format=%s', conflicted.branchName], fx.env)).toBe(
      'Record that the user works from home on Wednesdays',
    );
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(4);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    const retry = (await runReflection({
      ...o,
      model: scripted([
        {
          calls: [
            {
              name: 'write_file',
              input: {
                path: 'preferences/schedule.md',
                content: '---\ndescription: When the user works where\n---\nWorks from home on Wednesdays.\n',
              },
            },
          ],
        },
        { calls: [commit('Record that the user works from home on Wednesdays', TRAILER_OF('conv-1', 5, 6))] },
        { text: 'done' },
      ]),
    })) as ReflectionCompleted;
    expect(retry).toMatchObject({ status: 'merged', lines: { from: 5, to: 6 } });
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(6);
    expect(existsSync(join(fx.dir, 'preferences/schedule.md'))).toBe(true);
  });

  it('cannot write outside its worktree through any tool (file tools or the sandboxed shell), nor move the parent branch', async () => {
    const before = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    appendTranscript(agentDir, 'conv-1', turn('Remember my cat is called Miso.', 'Will do.'));
    const outside = join('/var/tmp', `gitmem-reflect-escape-${process.pid}.txt`);
    const parentFile = join(fx.dir, 'system', 'evil.md');
    const { model, o } = options([
      {
        calls: [
          { name: 'write_file', input: { path: '../../memory/system/evil.md', content: 'x' } },
          { name: 'write_file', input: { path: parentFile, content: 'x' } },
          {
            name: 'shell',
            input: {
              command: `echo x > ${parentFile}; echo x > ${outside}; echo x > ../escaped.txt; git -C ${fx.dir} commit --allow-empty -qm evil; git -C ${fx.dir} update-ref refs/heads/main HEAD~1; git -C ${fx.dir} branch evil`,
            },
          },
        ],
      },
      { text: 'could not escape' },
    ]);
    const r = (await runReflection(o)) as ReflectionCompleted;
    const results = toolResults(model);
    expect(results[0]).toMatch(/PATH_ESCAPE/);
    expect(results[1]).toMatch(/PATH_ESCAPE/);
    expect(results[2]).toMatch(/Read-only file system|Permission denied/);
    expect(existsSync(parentFile)).toBe(false);
    expect(existsSync(outside)).toBe(false);
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env)).not.toBe('evil');
    expect(git(fx.dir, ['branch', '--list', 'evil'], fx.env)).toBe('');
    expect(head).toBe(before);
    expect(r.status).toBe('no_changes');
  });
});
