import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { isMemoryError } from '../errors.js';
import { advanceCursor, cursorPath, markReflectionStarted, readCursor, unreflectedSlice } from './cursor.js';
import { appendTranscript, conversationKey, listConversations, readTranscript, transcriptPath } from './transcripts.js';

afterAll(cleanupTmp);
const at = (iso: string) => () => new Date(iso);

describe('transcripts', () => {
  it('round-trip rows of every kind, filling captured_at and source_line_id', () => {
    const agentDir = makeTmpDir('gitmem-tr-');
    appendTranscript(
      agentDir,
      'conv-1',
      [
        { kind: 'user', text: 'Please always use tabs.', source_message_id: 'm1' },
        { kind: 'reasoning', text: 'The user wants tabs.' },
        { kind: 'tool_call', name: 'edit', argsText: '{"f":"a.ts"}', resultText: 'ok', resultOk: true },
        { kind: 'assistant', text: 'Done.', captured_at: '2025-01-01T00:00:00.000Z' },
        { kind: 'error', text: 'rate limited' },
      ],
      at('2025-02-03T04:05:06.000Z'),
    );
    const rows = readTranscript(agentDir, 'conv-1');
    expect(rows.map((r) => r.kind)).toEqual(['user', 'reasoning', 'tool_call', 'assistant', 'error']);
    expect(rows[0]).toEqual({
      kind: 'user',
      text: 'Please always use tabs.',
      source_message_id: 'm1',
      captured_at: '2025-02-03T04:05:06.000Z',
      source_line_id: 'line-1',
    });
    expect(rows[2]).toMatchObject({ name: 'edit', resultOk: true, source_line_id: 'line-3' });
    expect(rows[3]?.captured_at).toBe('2025-01-01T00:00:00.000Z');
    appendTranscript(agentDir, 'conv-1', [{ kind: 'user', text: 'more' }]);
    expect(readTranscript(agentDir, 'conv-1')[5]?.source_line_id).toBe('line-6');
    expect(readFileSync(transcriptPath(agentDir, 'conv-1'), 'utf8').split('\n')).toHaveLength(7);
  });

  it('reject malformed rows, sanitise ids, skip torn lines and list conversations', () => {
    const agentDir = makeTmpDir('gitmem-tr-');
    let caught: unknown;
    try {
      appendTranscript(agentDir, 'c', [{ kind: 'shout', text: 'x' } as never]);
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught, 'INVALID_ARGUMENT')).toBe(true);
    expect(conversationKey('a/b c')).toBe('a_b_c');
    expect(conversationKey('..')).toBe('_.');
    expect(conversationKey('')).toBe('unknown');
    appendTranscript(agentDir, 'a/b', [{ kind: 'user', text: 'hi' }]);
    appendFileSync(transcriptPath(agentDir, 'a/b'), '{"kind":"assi'); // torn write
    appendTranscript(agentDir, 'a/b', [{ kind: 'assistant', text: 'hello' }]);
    expect(readTranscript(agentDir, 'a/b').map((r) => r.kind)).toEqual(['user', 'assistant']);
    expect(listConversations(agentDir)).toEqual(['a_b']);
    expect(readTranscript(agentDir, 'never')).toEqual([]);
  });
});

describe('reflection cursor', () => {
  it('counts assistant rows as steps and advances only when told, never past the launch snapshot', () => {
    const agentDir = makeTmpDir('gitmem-cur-');
    const conv = 'conv-9';
    expect(readCursor(agentDir, conv)).toEqual({ reflectedThroughLine: 0, totalSteps: 0, stepsSinceLastReflection: 0 });
    appendTranscript(agentDir, conv, [
      { kind: 'user', text: 'u1' },
      { kind: 'assistant', text: 'a1' },
      { kind: 'tool_call', name: 't' },
      { kind: 'assistant', text: 'a2' },
    ]);
    expect(readCursor(agentDir, conv)).toMatchObject({ totalSteps: 2, stepsSinceLastReflection: 2 });

    const slice = unreflectedSlice(agentDir, conv);
    expect(slice).toMatchObject({ startLine: 1, endLine: 4, steps: 2 });
    expect(slice.rows).toHaveLength(4);
    markReflectionStarted(agentDir, conv, at('2025-03-01T00:00:00.000Z'));
    expect(readCursor(agentDir, conv)).toMatchObject({
      reflectedThroughLine: 0,
      lastStartedAt: '2025-03-01T00:00:00.000Z',
    });

    // rows appended while the reflection runs stay unreflected after it consumes its snapshot
    appendTranscript(agentDir, conv, [
      { kind: 'user', text: 'u2' },
      { kind: 'assistant', text: 'a3' },
    ]);
    advanceCursor(agentDir, conv, slice.endLine, at('2025-03-01T00:01:00.000Z'));
    expect(readCursor(agentDir, conv)).toEqual({
      reflectedThroughLine: 4,
      totalSteps: 3,
      stepsSinceLastReflection: 1,
      lastStartedAt: '2025-03-01T00:00:00.000Z',
      lastSucceededAt: '2025-03-01T00:01:00.000Z',
    });
    const next = unreflectedSlice(agentDir, conv);
    expect(next).toMatchObject({ startLine: 5, endLine: 6, steps: 1 });
    expect(next.rows.map((r) => (r.kind === 'tool_call' ? '' : r.text))).toEqual(['u2', 'a3']);

    advanceCursor(agentDir, conv, 2); // never backwards
    expect(readCursor(agentDir, conv).reflectedThroughLine).toBe(4);
    const state = JSON.parse(readFileSync(cursorPath(agentDir, conv), 'utf8')) as Record<string, unknown>;
    expect(state).toMatchObject({
      schema_version: 'gitmem_lines_v1',
      reflected_through_line: 4,
      total_completed_steps: 3,
      reflected_completed_steps: 2,
      steps_since_last_successful_reflection: 1,
    });
  });

  it('a failed run leaves the cursor alone so the same slice is offered again; bad lines are refused', () => {
    const agentDir = makeTmpDir('gitmem-cur-');
    appendTranscript(agentDir, 'c', [
      { kind: 'user', text: 'u' },
      { kind: 'assistant', text: 'a' },
    ]);
    const first = unreflectedSlice(agentDir, 'c');
    markReflectionStarted(agentDir, 'c'); // the run then fails: no advanceCursor
    expect(unreflectedSlice(agentDir, 'c')).toEqual(first);
    for (const bad of [-1, 3, 1.5]) {
      let caught: unknown;
      try {
        advanceCursor(agentDir, 'c', bad);
      } catch (err) {
        caught = err;
      }
      expect(isMemoryError(caught, 'INVALID_ARGUMENT'), String(bad)).toBe(true);
    }
  });
});
