// Explicit merge mode with an integrator that throws: the run still ends in an outcome — `failed` when the
// branch was not merged, `merged` when the integrator merged it before throwing — with the worktree and the
// imported branch cleaned up, the parent clean, and the cursor moved only for `merged`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readCursor } from '../../../src/reflection/cursor.js';
import { runReflection } from '../../../src/reflection/run.js';
import type { PendingIntegration, ReflectionCompleted } from '../../../src/reflection/run-types.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { commit, scripted, TRAILER_OF } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
let fx: MemoryFixture;
let agentDir: string;

afterAll(cleanupTmp);
beforeEach(async () => {
  fx = await memoryFixture('agent-x');
  agentDir = join(fx.home, 'agents', 'agent-x');
  appendTranscript(agentDir, 'conv-1', [
    { kind: 'user', text: 'I prefer British spelling.' },
    { kind: 'assistant', text: 'Noted.' },
  ]);
});

function reflect(integrate: (p: PendingIntegration) => Promise<void>) {
  const model = scripted([
    {
      calls: [
        {
          name: 'write_file',
          input: { path: 'preferences/spelling.md', content: '---\ndescription: Spelling\n---\nBritish spelling.\n' },
        },
      ],
    },
    { calls: [commit('Keep the British-spelling preference', TRAILER_OF('conv-1', 1, 2))] },
    { text: 'done' },
  ]);
  return runReflection({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-x',
    conversationId: 'conv-1',
    model,
    env: fx.env,
    git: handleGit(fx.memory),
    maxRetries: 0,
    merge: 'explicit',
    integrate,
  }) as Promise<ReflectionCompleted>;
}

function expectCleanedUp(): void {
  expect(readdirSync(join(agentDir, 'memory-worktrees')).filter((f) => !f.startsWith('.'))).toEqual([]);
  expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
  expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
}

describe.runIf(sandboxed)('explicit merge mode with a throwing integrator', () => {
  it('throwing before merging ends failed with the error, everything cleaned up, the transcript kept', async () => {
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    const r = await reflect(async () => {
      throw new Error('integration conversation crashed');
    });
    expect(r).toMatchObject({ launched: true, status: 'failed', success: false, commitCount: 1 });
    expect(r.error).toContain('integration conversation crashed');
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(0);
    expectCleanedUp();
  });

  it('throwing after merging ends merged, everything cleaned up, the transcript consumed', async () => {
    const r = await reflect(async (p) => {
      git(p.parentMemoryDir, ['merge', '-q', '--no-edit', p.branchName], fx.env);
      throw new Error('crashed while reporting');
    });
    expect(r).toMatchObject({ launched: true, status: 'merged', success: true, commitCount: 1 });
    expect(r.error).toContain('crashed while reporting');
    expect(git(fx.dir, ['ls-files', 'preferences'], fx.env)).toBe('preferences/spelling.md');
    expect(readCursor(agentDir, 'conv-1').reflectedThroughLine).toBe(2);
    expectCleanedUp();
  });
});
