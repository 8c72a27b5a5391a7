// The harness entry points: step-count fires exactly at the threshold of assistant steps since the last
// successful reflection, compaction-event only on compaction, off never (reflectNow always); calls return at
// once; a launch while one runs is queued (not dropped) and runs once afterwards, re-checking its threshold.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCursor } from '../../../src/reflection/cursor.js';
import { createReflectionHarness } from '../../../src/reflection/harness.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp } from '../../helpers/tmp.js';
import { scripted, type Turn } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

let fx: MemoryFixture;
afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-t');
});

const turn = (n: number) => [
  { kind: 'user' as const, text: `question ${n}` },
  { kind: 'assistant' as const, text: `answer ${n}` },
];

/** A model turn that signals `entered`, then waits until `open()`. */
function gate(): { wait: Turn; open: () => void; entered: Promise<void> } {
  let open: () => void = () => undefined;
  let enter: () => void = () => undefined;
  const opened = new Promise<void>((r) => (open = r));
  const entered = new Promise<void>((r) => (enter = r));
  return { wait: async () => (enter(), await opened, { text: 'Nothing worth keeping.' }), open, entered };
}

describe('reflection triggers and the per-agent reservation', { tags: ['sandbox'] }, () => {
  it('step-count (from the agent config) fires at the threshold; a second launch queues and runs once after', async () => {
    const agentDir = join(fx.home, 'agents', 'agent-t');
    writeFileSync(
      join(agentDir, 'config.json'),
      JSON.stringify({ reflection: { trigger: 'step-count', stepCount: 3 } }),
    );
    const first = gate();
    const model = scripted([first.wait, { text: 'Nothing either.' }]);
    const h = createReflectionHarness({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-t',
      env: fx.env,
      git: handleGit(fx.memory),
      model,
      run: { maxRetries: 0 },
    });
    expect(h.settings()).toMatchObject({ trigger: 'step-count', stepCount: 3 });
    for (const n of [1, 2]) {
      h.recordTurn('c1', turn(n));
      expect(h.onTurnEnd('c1').state).toBe('skipped');
    }
    h.recordTurn('c1', [
      ...turn(3),
      { kind: 'tool_call', name: 'read', argsText: '{}', resultText: 'ok' },
      { kind: 'reasoning', text: 'hmm' },
    ]);
    const started = h.onTurnEnd('c1');
    expect(started).toMatchObject({ state: 'started', trigger: 'step-count' });
    expect(model.doGenerateCalls).toHaveLength(0); // returned before any model call
    await first.entered;
    for (const n of [4, 5, 6]) h.recordTurn('c1', turn(n));
    const queued = h.onTurnEnd('c1');
    const queuedAgain = h.onTurnEnd('c1');
    expect([queued.state, queuedAgain.state]).toEqual(['queued', 'queued']);
    first.open();
    expect(await started.done).toMatchObject({ launched: true, status: 'no_changes', lines: { from: 1, to: 8 } });
    const second = await queued.done;
    expect(second).toMatchObject({ launched: true, status: 'no_changes', lines: { from: 9, to: 14 } });
    expect(await queuedAgain.done).toBe(second);
    await h.idle();
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(readCursor(agentDir, 'c1')).toMatchObject({ reflectedThroughLine: 14, stepsSinceLastReflection: 0 });
    expect(h.onTurnEnd('c1').state).toBe('skipped');
  });

  it('a queued step-count launch is dropped when its threshold is no longer met', async () => {
    const g = gate();
    const model = scripted([g.wait]);
    const h = createReflectionHarness({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-t',
      env: fx.env,
      git: handleGit(fx.memory),
      model,
      settings: { trigger: 'step-count', stepCount: 2 },
    });
    h.recordTurn('c2', [...turn(1), ...turn(2)]);
    const a = h.onTurnEnd('c2');
    const b = h.onTurnEnd('c2'); // same rows: once the first run consumes them, nothing is due
    expect([a.state, b.state]).toEqual(['started', 'queued']);
    g.open();
    expect(await a.done).toMatchObject({ status: 'no_changes' });
    expect(await b.done).toMatchObject({ launched: false, reason: 'dropped' });
    expect(model.doGenerateCalls).toHaveLength(1);
  });

  it('compaction-event fires on compaction only; off never fires automatically; reflectNow always runs', async () => {
    const project = join(fx.home, 'project');
    mkdirSync(join(project, '.gitmem'), { recursive: true });
    writeFileSync(
      join(project, '.gitmem', 'config.json'),
      JSON.stringify({ reflection: { trigger: 'compaction-event' } }),
    );
    writeFileSync(join(fx.home, 'agents', 'agent-t', 'config.json'), JSON.stringify({ reflection: { merge: 'auto' } }));
    const model = scripted([{ text: 'ok' }, { text: 'ok' }]);
    const h = createReflectionHarness({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-t',
      env: fx.env,
      git: handleGit(fx.memory),
      model,
      projectDir: project,
    });
    for (let n = 0; n < 30; n++) h.recordTurn('c3', turn(n));
    expect(h.settings().trigger).toBe('compaction-event');
    expect(h.onTurnEnd('c3').state).toBe('skipped');
    const c = h.onCompaction('c3');
    expect(c).toMatchObject({ state: 'started', trigger: 'compaction-event' });
    expect(await c.done).toMatchObject({ status: 'no_changes', lines: { from: 1, to: 60 } });
    const off = createReflectionHarness({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-t',
      env: fx.env,
      git: handleGit(fx.memory),
      model,
      settings: { trigger: 'off' },
    });
    off.recordTurn('c3', turn(99));
    expect(off.onTurnEnd('c3').state).toBe('skipped');
    expect(off.onCompaction('c3').state).toBe('skipped');
    const manual = off.reflectNow('c3', { instruction: 'Focus on preferences.' });
    expect(manual).toMatchObject({ state: 'started', trigger: 'manual' });
    expect(await manual.done).toMatchObject({ status: 'no_changes', lines: { from: 61, to: 62 } });
    expect(model.doGenerateCalls).toHaveLength(2);
  });
});
