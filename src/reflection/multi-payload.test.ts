// The manifest: a slice per conversation (unreflected range, else a replay of the last user turns), the
// budget with the first slice always kept, the files written, and which cursors a success would advance.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { advanceCursor } from './cursor.js';
import { buildMultiPayload, REPLAY_USER_TURNS } from './multi-payload.js';
import { appendTranscript } from './transcripts.js';

afterAll(cleanupTmp);

function agent(): string {
  return join(makeTmpDir('gitmem-multi-'), 'agents', 'a1');
}

describe('buildMultiPayload', () => {
  it('slices unreflected ranges, replays a reflected conversation, and advances only the unreflected', () => {
    const dir = agent();
    appendTranscript(dir, 'new', [
      { kind: 'user', text: 'use tabs' },
      { kind: 'assistant', text: 'ok' },
    ]);
    const rows = Array.from({ length: REPLAY_USER_TURNS + 5 }, (_, i) => [
      { kind: 'user' as const, text: `u${i}` },
      { kind: 'assistant' as const, text: `a${i}` },
    ]).flat();
    appendTranscript(dir, 'old', rows);
    advanceCursor(dir, 'old', rows.length);
    const m = buildMultiPayload({
      agentDir: dir,
      agentId: 'a1',
      conversationIds: ['new', 'old', 'missing'],
      selection: { policy: 'explicit-conversations', conversation_ids: ['new', 'old', 'missing'] },
      instruction: 'focus on style',
      clock: () => new Date('2026-01-02T03:04:05Z'),
    });
    expect(m).toBeDefined();
    const manifest = JSON.parse(readFileSync(m?.manifestPath ?? '', 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      type: 'multi_transcript_reflection_payload',
      schema: 1,
      agent_id: 'a1',
      created_at: '2026-01-02T03:04:05.000Z',
      instruction: 'focus on style',
      skipped: [{ conversation_id: 'missing', reason: 'empty' }],
    });
    expect(m?.manifest.slices.map((s) => [s.conversation_id, s.mode, s.lines])).toEqual([
      ['new', 'unreflected', { from: 1, to: 2 }],
      ['old', 'replay', { from: 11, to: rows.length }], // the last 50 user turns: from u5's line
    ]);
    for (const s of m?.manifest.slices ?? []) expect(existsSync(s.file)).toBe(true);
    expect(m?.manifestPath).toContain(join(dir, 'multi-reflection-payloads'));
    expect(m?.advance).toEqual([{ conversationId: 'new', throughLine: 2 }]);
    expect(JSON.parse(m?.payload ?? '{}').slices[0].messages[1]).toMatchObject({ role: 'user', content: 'use tabs' });
  });

  it('skips a slice past the budget but always keeps the first, however large', () => {
    const dir = agent();
    for (const id of ['a', 'b', 'c'])
      appendTranscript(dir, id, [
        { kind: 'user', text: `${id} `.repeat(200) },
        { kind: 'assistant', text: 'ok' },
      ]);
    const m = buildMultiPayload({
      agentDir: dir,
      agentId: 'a1',
      conversationIds: ['a', 'b', 'c'],
      selection: { policy: 'recent', limit: 3 },
      budgetChars: 10,
    });
    expect(m?.manifest.slices.map((s) => s.conversation_id)).toEqual(['a']);
    expect(m?.manifest.skipped).toEqual([
      { conversation_id: 'b', reason: 'budget' },
      { conversation_id: 'c', reason: 'budget' },
    ]);
  });

  it('has nothing to build when no conversation has content', () => {
    const dir = agent();
    expect(
      buildMultiPayload({
        agentDir: dir,
        agentId: 'a1',
        conversationIds: ['x'],
        selection: { policy: 'recent', limit: 1 },
      }),
    ).toBeUndefined();
  });
});
