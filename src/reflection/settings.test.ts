import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import {
  applyReflectionLayer,
  DEFAULT_REFLECTION_SETTINGS,
  describeReflectionSettings,
  legacyInterval,
  resolveReflectionSettings,
} from './settings.js';
import { decideReflection } from './triggers.js';
import { createReservationTable } from './reservation.js';

afterAll(cleanupTmp);

describe('reflection settings', () => {
  it('defaults to every 25 assistant steps, merged automatically', () => {
    expect(DEFAULT_REFLECTION_SETTINGS).toEqual({
      trigger: 'step-count',
      stepCount: 25,
      merge: 'auto',
      mergeInstructions: '',
      multiEvery: 0,
      multiRecent: 5,
    });
    expect(describeReflectionSettings(DEFAULT_REFLECTION_SETTINGS)).toBe('Every 25 steps, apply automatically');
  });

  it('maps the legacy interval and ignores invalid values', () => {
    expect(legacyInterval(null)).toEqual({ trigger: 'off' });
    expect(legacyInterval(-3)).toEqual({ trigger: 'step-count', stepCount: 25 });
    expect(legacyInterval('auto-compaction')).toEqual({ trigger: 'compaction-event' });
    const s = applyReflectionLayer(DEFAULT_REFLECTION_SETTINGS, {
      trigger: 'sometimes',
      stepCount: 0,
      merge: 'maybe',
      mergeInstructions: '  be careful ',
    });
    expect(s).toEqual({ ...DEFAULT_REFLECTION_SETTINGS, mergeInstructions: 'be careful' });
  });

  it('resolves global → project → agent, later layers winning field by field', () => {
    const home = makeTmpDir('gitmem-settings-');
    const project = join(home, 'proj');
    const agentDir = join(home, 'agents', 'a1');
    mkdirSync(join(project, '.gitmem'), { recursive: true });
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(
      join(home, 'config'),
      JSON.stringify({ reflection: { trigger: 'compaction-event', merge: 'explicit' } }),
    );
    expect(resolveReflectionSettings({ home })).toMatchObject({ trigger: 'compaction-event', merge: 'explicit' });
    writeFileSync(
      join(project, '.gitmem', 'config.json'),
      JSON.stringify({ reflection: { memoryReminderInterval: 10 } }),
    );
    expect(resolveReflectionSettings({ home, projectDir: project })).toMatchObject({
      trigger: 'step-count',
      stepCount: 10,
      merge: 'explicit',
    });
    writeFileSync(
      join(agentDir, 'config.json'),
      JSON.stringify({ reflection: { merge: 'auto', stepCount: 7, multiEvery: 3, multiRecent: 'x' } }),
    );
    expect(resolveReflectionSettings({ home, projectDir: project, agentDir })).toEqual({
      trigger: 'step-count',
      stepCount: 7,
      merge: 'auto',
      mergeInstructions: '',
      multiEvery: 3,
      multiRecent: 5,
    });
  });
});

describe('reflection triggers', () => {
  const s = (trigger: 'off' | 'step-count' | 'compaction-event', stepCount = 25) => ({ trigger, stepCount });
  it('step-count fires at turn end exactly when steps reach the count', () => {
    expect(decideReflection(s('step-count', 3), 'turn-end', 2)).toBeNull();
    expect(decideReflection(s('step-count', 3), 'turn-end', 3)).toBe('step-count');
    expect(decideReflection(s('step-count', 0), 'turn-end', 24)).toBeNull();
    expect(decideReflection(s('step-count', 0), 'turn-end', 25)).toBe('step-count');
    expect(decideReflection(s('step-count', 3), 'compaction', 99)).toBeNull();
  });
  it('compaction-event fires on compaction only; off never; manual always', () => {
    expect(decideReflection(s('compaction-event'), 'turn-end', 99)).toBeNull();
    expect(decideReflection(s('compaction-event'), 'compaction', 0)).toBe('compaction-event');
    expect(decideReflection(s('off'), 'compaction', 99)).toBeNull();
    expect(decideReflection(s('off'), 'manual', 0)).toBe('manual');
  });
  it('the reservation queues one launch per key, the latest merged into the earlier one', () => {
    const t = createReservationTable<string[]>((a, b) => [...a, ...b]);
    expect(t.tryReserve('a', ['first'])).toBe(true);
    expect(t.tryReserve('a', ['second'])).toBe(false);
    expect(t.tryReserve('a', ['third'])).toBe(false);
    expect(t.tryReserve('b', ['other'])).toBe(true);
    expect(t.release('a')).toEqual(['second', 'third']);
    expect(t.isActive('a')).toBe(false);
    expect(t.release('a')).toBeUndefined();
  });
});
