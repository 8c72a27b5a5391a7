// The harness over several conversations: reflectMany({ recent | conversations }) runs one manifest through
// the per-agent reservation; the post-turn trigger asks for a multi run after every `multiEvery` successful
// single runs (a persisted, file-locked counter; off by default, when nothing is counted).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleGit } from '../../../src/internals.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { readCursor } from '../../../src/reflection/cursor.js';
import { createReflectionHarness, type HarnessOutcome } from '../../../src/reflection/harness.js';
import { multiCounterPath, readSingleRunCount } from '../../../src/reflection/multi-counter.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { firstPrompt, scripted } from '../../helpers/reflection-mock.js';
import { cleanupTmp } from '../../helpers/tmp.js';
import { existsSync } from 'node:fs';

let fx: MemoryFixture;
let agentDir: string;
afterAll(cleanupTmp);
beforeAll(async () => {
  fx = await memoryFixture('agent-k');
  agentDir = join(fx.home, 'agents', 'agent-k');
});

const turn = (n: number) => [
  { kind: 'user' as const, text: `question ${n}` },
  { kind: 'assistant' as const, text: `answer ${n}` },
];

function harness(outcomes: HarnessOutcome[] = []) {
  const model = scripted([]);
  const h = createReflectionHarness({
    launch: sharedShellLauncher(),
    home: fx.home,
    agentId: 'agent-k',
    env: fx.env,
    git: handleGit(fx.memory),
    model,
    run: { maxRetries: 0 },
    onComplete: (o) => outcomes.push(o),
  });
  return { h, model };
}

describe('harness over several conversations', { tags: ['sandbox'] }, () => {
  it('reflectMany runs one manifest and advances the unreflected conversations', async () => {
    const { h, model } = harness();
    h.recordTurn('k1', turn(1));
    h.recordTurn('k2', turn(2));
    const launch = h.reflectMany({ conversations: ['k1', 'k2'] });
    expect(launch.state).toBe('started');
    const r = await launch.done;
    expect(r).toMatchObject({ launched: true, success: true, conversationId: 'multi' });
    expect(firstPrompt(model).user).toContain('Reviewed-Transcript: k1 lines 1-2, k2 lines 1-2');
    expect(readCursor(agentDir, 'k1').reflectedThroughLine).toBe(2);
    expect(readCursor(agentDir, 'k2').reflectedThroughLine).toBe(2);
    expect(() => h.reflectMany({})).toThrow('reflectMany needs one of recent, conversations or auto');
  });

  it('memory.reflection({ recent | conversations }) runs one multi-conversation reflection from the handle', async () => {
    const { h } = harness();
    h.recordTurn('m1', turn(11));
    h.recordTurn('m2', turn(12));
    const model = scripted([]);
    const launch = fx.memory.reflection({ conversations: ['m1', 'm2'], model, run: { maxRetries: 0 } });
    expect(launch.state).toBe('started');
    expect(await launch.done).toMatchObject({ launched: true, success: true, conversationId: 'multi' });
    expect(firstPrompt(model).user).toContain('Reviewed-Transcript: m1 lines 1-2, m2 lines 1-2');
    expect(readCursor(agentDir, 'm2').reflectedThroughLine).toBe(2);
    const recent = fx.memory.reflection({ recent: 1, model: scripted([]), run: { maxRetries: 0 } });
    expect(await recent.done).toMatchObject({ launched: true, conversationId: 'multi' });
    // without a selection it is still the harness
    expect(typeof fx.memory.reflection({ model }).reflectMany).toBe('function');
  });

  it('off by default: single runs are not counted', async () => {
    const { h } = harness();
    h.recordTurn('k3', turn(3));
    await h.reflectNow('k3').done;
    expect(existsSync(multiCounterPath(agentDir))).toBe(false);
  });

  it('every K successful single runs, the trigger runs a multi reflection over the recent conversations', async () => {
    writeFileSync(join(agentDir, 'config.json'), JSON.stringify({ reflection: { multiEvery: 2, multiRecent: 2 } }));
    const outcomes: HarnessOutcome[] = [];
    const { h } = harness(outcomes);
    h.recordTurn('k4', turn(4));
    await h.reflectNow('k4').done;
    expect(readSingleRunCount(agentDir)).toBe(1);
    h.recordTurn('k5', turn(5));
    await h.reflectNow('k5').done;
    await h.idle();
    expect(readSingleRunCount(agentDir)).toBe(0); // reset when the multi run was asked for
    const multi = outcomes.find((o) => o.conversationId === 'multi');
    // both recent conversations were just reflected: the multi run replays them, moving no cursor
    expect(multi).toMatchObject({ launched: true, success: true });
    expect(outcomes.map((o) => o.conversationId)).toEqual(['k4', 'k5', 'multi']);
    expect(readCursor(agentDir, 'k5').reflectedThroughLine).toBe(2);
  });
});
