import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../../test/helpers/tmp.js';
import { loadSource } from './index.js';

afterAll(cleanupTmp);

const FIX = resolve(import.meta.dirname, '../../../test/fixtures/sources');
const clock = () => new Date('2025-09-09T09:09:09.000Z');

describe('openhands: source', () => {
  it('converts an event directory: messages, thoughts, tool calls with results, errors and rejections', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const { rows } = loadSource(`openhands:${FIX}/openhands/conv-a`, { agentDir, clock });
    expect(rows).toEqual([
      {
        kind: 'user',
        text: 'Fix the failing date test; we always use UTC in this repo.',
        captured_at: '2025-06-01T10:00:01.000Z',
        source_message_id: 'e1',
      },
      {
        kind: 'assistant',
        text: 'Let me look at the test first.',
        captured_at: '2025-06-01T08:00:02.500Z',
        source_message_id: 'e2:thought',
      },
      {
        kind: 'tool_call',
        name: 'execute_bash',
        argsText: '{"command":"npm test -- dates"}',
        resultText: '1 failing: expected 2025-06-01T00:00:00Z',
        resultOk: true,
        captured_at: '2025-06-01T08:00:02.500Z',
        source_message_id: 'e2',
      },
      {
        kind: 'tool_call',
        name: 'str_replace_editor',
        argsText: '{"command":"str_replace","path":"src/date.ts"}',
        resultText: 'old_str not found in src/date.ts',
        resultOk: false,
        captured_at: '2025-06-01T10:00:04.000Z',
        source_message_id: 'e4',
      },
      {
        kind: 'tool_call',
        name: 'execute_bash',
        argsText: '{"command":"rm -rf build"}',
        resultText: 'Never delete build/ without asking.',
        resultOk: false,
        captured_at: '2025-06-01T10:00:06.000Z',
        source_message_id: 'e6',
      },
      {
        kind: 'assistant',
        text: 'Fixed the test by pinning the timezone to UTC.',
        captured_at: '2025-06-01T10:00:10.000Z',
        source_message_id: 'e10',
      },
    ]);
    // the events/ sub-directory itself works too, and gives the same rows
    expect(loadSource(`openhands:${FIX}/openhands/conv-a/events`, { agentDir, clock }).rows).toHaveLength(6);
  });

  it('reads an {"items": [...]} file and refuses other JSON and empty directories', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const { rows } = loadSource(`openhands:${FIX}/openhands/items.json`, { agentDir, clock });
    expect(rows.map((r) => (r.kind === 'tool_call' ? r.kind : `${r.kind}:${r.text}`))).toEqual([
      'user:Hello',
      'assistant:Hi there',
    ]);
    expect(() => loadSource(`openhands:${FIX}/openhands/not-events.json`, { agentDir })).toThrow(
      'expected a JSON array of events or {"items": [...]}',
    );
    expect(() => loadSource(`openhands:${makeTmpDir('gitmem-empty-')}`, { agentDir })).toThrow(
      'No OpenHands event files (event-*.json) found',
    );
  });
});
