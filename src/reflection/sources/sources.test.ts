import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../../test/helpers/tmp.js';
import { appendTranscript, readTranscript } from '../transcripts.js';
import { loadSource, parseFromSpec, stageSource, syntheticConversationId } from './index.js';
import { errorCodeOf } from '../../../test/helpers/errors.js';

afterAll(cleanupTmp);
const FIX = resolve(import.meta.dirname, '../../../test/fixtures/sources');
const clock = () => new Date('2025-09-09T09:09:09.000Z');

describe('--from parsing', () => {
  it('splits type and locator, treats a bare value as a conversation id, rejects unknown types and empty paths', () => {
    expect(parseFromSpec('conv-123')).toEqual({ type: 'conversation', conversationId: 'conv-123' });
    expect(parseFromSpec('openhands:./a:b')).toEqual({ type: 'openhands', locator: './a:b' });
    expect(() => parseFromSpec('slack:x')).toThrow(
      'Unknown source type "slack". Supported: transcript, openhands, claude-code, codex',
    );
    for (const inherited of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(
        errorCodeOf(() => parseFromSpec(`${inherited}:x`)),
        inherited,
      ).toBe('INVALID_ARGUMENT');
    }
    expect(() => parseFromSpec('transcript:')).toThrow(
      'Invalid --from "transcript:": missing path after "transcript:"',
    );
    expect(syntheticConversationId('transcript', '/a')).toMatch(/^from-transcript-[0-9a-f]{12}$/);
    expect(syntheticConversationId('transcript', '/a')).toBe(syntheticConversationId('transcript', '/a'));
    expect(syntheticConversationId('transcript', '/b')).not.toBe(syntheticConversationId('transcript', '/a'));
  });
});

describe('transcript: source', () => {
  it('parses rows, skips empty text rows, gives id-less rows a line id and treats zone-less times as UTC', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const { conversationId, rows } = loadSource(`transcript:${FIX}/transcript/session.jsonl`, { agentDir, clock });
    expect(conversationId).toBe(syntheticConversationId('transcript', join(FIX, 'transcript/session.jsonl')));
    expect(rows.map((r) => r.kind)).toEqual(['user', 'assistant', 'tool_call', 'reasoning', 'assistant']);
    expect(rows[2]).toMatchObject({ name: 'bash', resultOk: true, source_message_id: 'L4' });
    expect(rows[3]?.captured_at).toBe('2025-05-01T09:00:10.000Z');
    expect(rows[4]?.captured_at).toBe('2025-09-09T09:09:09.000Z');
    expect(errorCodeOf(() => loadSource(`transcript:${FIX}/transcript/bad.jsonl`, { agentDir }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(() => loadSource(`transcript:${FIX}/transcript/bad.jsonl`, { agentDir })).toThrow(
      /Could not read .*bad\.jsonl as a transcript \(line 2\)/,
    );
    expect(errorCodeOf(() => loadSource('transcript:/nope.jsonl', { agentDir }))).toBe('FILE_NOT_FOUND');
  });

  it('stages idempotently: a second run appends nothing; relative paths resolve against cwd', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const first = stageSource('transcript:transcript/session.jsonl', { agentDir, cwd: FIX, clock });
    expect(first).toMatchObject({ staged: 5, skipped: 0, stored: false });
    expect(stageSource(`transcript:${FIX}/transcript/session.jsonl`, { agentDir, clock })).toMatchObject({
      conversationId: first.conversationId,
      staged: 0,
      skipped: 5,
    });
    expect(readTranscript(agentDir, first.conversationId)).toHaveLength(5);
  });
});

describe('transcript: source in the common message form', () => {
  const at = '2025-09-09T09:09:09.000Z';

  it('reads OpenAI chat messages: tool_calls with role "tool" results, text parts; skips system rows and images', () => {
    const { rows } = loadSource(`transcript:${FIX}/transcript/openai-chat.jsonl`, {
      agentDir: makeTmpDir('gitmem-src-'),
      clock,
    });
    expect(rows).toEqual([
      {
        kind: 'user',
        text: 'Deploys go through make ship, never npm publish.',
        captured_at: '2025-08-01T10:00:00.000Z',
        source_message_id: 'L2',
      },
      { kind: 'assistant', text: 'Let me look at the Makefile.', captured_at: at, source_message_id: 'L3' },
      {
        kind: 'tool_call',
        name: 'read_file',
        argsText: '{"path":"Makefile"}',
        resultText: 'ship:\n\t./scripts/ship.sh',
        resultOk: true,
        captured_at: at,
        source_message_id: 'L3:call_1',
      },
      { kind: 'assistant', text: 'Noted: deploys use make ship.', captured_at: at, source_message_id: 'L5:0' },
      { kind: 'user', text: 'Also: never push on Fridays.', captured_at: at, source_message_id: 'L6:0' },
    ]);
  });

  it('reads AI SDK model messages (a JSON array file): reasoning, tool-call input or args, tool-result outputs and errors', () => {
    const { rows } = loadSource(`transcript:${FIX}/transcript/ai-sdk.json`, {
      agentDir: makeTmpDir('gitmem-src-'),
      clock,
    });
    expect(rows).toEqual([
      { kind: 'user', text: 'Use tabs, not spaces.', captured_at: at, source_message_id: 'L2:0' },
      { kind: 'reasoning', text: 'A style rule.', captured_at: at, source_message_id: 'L3:0' },
      { kind: 'assistant', text: 'Switching to tabs.', captured_at: at, source_message_id: 'L3:1' },
      {
        kind: 'tool_call',
        name: 'edit_file',
        argsText: '{"path":"src/a.ts"}',
        resultText: '{"ok":true}',
        resultOk: true,
        captured_at: at,
        source_message_id: 'L3:t1',
      },
      {
        kind: 'tool_call',
        name: 'bash',
        argsText: '{"command":"rm -rf build"}',
        resultText: 'Never delete build/ without asking.',
        resultOk: false,
        captured_at: at,
        source_message_id: 'L5:t2',
      },
      { kind: 'assistant', text: 'Done: tabs everywhere.', captured_at: at, source_message_id: 'L8' },
    ]);
  });

  it('reads AI SDK UI messages (parts with tool-<name> and dynamic-tool), keyed by their ids', () => {
    const { rows } = loadSource(`transcript:${FIX}/transcript/ai-sdk-ui.jsonl`, {
      agentDir: makeTmpDir('gitmem-src-'),
      clock,
    });
    expect(rows).toEqual([
      { kind: 'user', text: 'My name is Ada.', captured_at: at, source_message_id: 'm1:0' },
      { kind: 'reasoning', text: 'Name given.', captured_at: at, source_message_id: 'm2:1' },
      {
        kind: 'tool_call',
        name: 'remember',
        argsText: '{"fact":"name=Ada"}',
        resultText: 'saved',
        resultOk: true,
        captured_at: at,
        source_message_id: 'm2:r1',
      },
      { kind: 'assistant', text: 'Nice to meet you, Ada.', captured_at: at, source_message_id: 'm2:3' },
      {
        kind: 'tool_call',
        name: 'search',
        argsText: '{"q":"x"}',
        resultText: 'offline',
        resultOk: false,
        captured_at: at,
        source_message_id: 'm3:s1',
      },
    ]);
  });

  it('stages a message-form file idempotently and refuses a row of neither form, naming its line', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    expect(stageSource(`transcript:${FIX}/transcript/ai-sdk.json`, { agentDir, clock })).toMatchObject({
      staged: 6,
      skipped: 0,
    });
    expect(stageSource(`transcript:${FIX}/transcript/ai-sdk.json`, { agentDir, clock })).toMatchObject({
      staged: 0,
      skipped: 6,
    });
    expect(() => loadSource(`transcript:${FIX}/transcript/unknown-shape.jsonl`, { agentDir })).toThrow(
      /line 2\).*\{"role", "content"\}/,
    );
  });
});

describe('stored conversation source', () => {
  it('loads the agent transcript and refuses an unknown conversation', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    appendTranscript(agentDir, 'default', [{ kind: 'user', text: 'hi' }]);
    expect(loadSource('default', { agentDir }).rows).toHaveLength(1);
    expect(stageSource('default', { agentDir })).toEqual({
      conversationId: 'default',
      staged: 0,
      skipped: 0,
      stored: true,
    });
    expect(errorCodeOf(() => loadSource('conv-x', { agentDir }))).toBe('FILE_NOT_FOUND');
  });
});

describe('every source is strict alike', () => {
  const files = makeTmpDir('gitmem-shapes-');
  const write = (name: string, text: string) => {
    writeFileSync(join(files, name), text);
    return join(files, name);
  };
  const refusal = (from: string) => {
    try {
      loadSource(from, { agentDir: files, clock });
    } catch (err) {
      return err as { code: string; message: string };
    }
    return undefined;
  };
  const plain = write('notes.txt', 'hello\n');
  const rows = write('rows.jsonl', '{"kind":"user","text":"use tabs"}\n');
  const messages = write('messages.jsonl', '{"role":"user","content":"use tabs"}\n');
  const events = write(
    'events.json',
    '[{"kind":"MessageEvent","id":"x1","source":"user","llm_message":{"content":"use tabs"}}]',
  );
  const session = `${FIX}/claude-code/project/7f0c2a9e-session.jsonl`;

  it.each([
    ['claude-code', plain, 'a Claude Code session (line 1)'],
    ['claude-code', rows, 'a Claude Code session (line 1)'],
    ['claude-code', messages, 'a Claude Code session (line 1)'],
    [
      'claude-code',
      write('midway.jsonl', '{"type":"summary"}\nnot json\n{"type":"summary"}\n'),
      'a Claude Code session (line 2)',
    ],
    ['claude-code', write('no-message.jsonl', '{"type":"user","uuid":"u"}\n'), 'a Claude Code session (line 1)'],
    ['codex', plain, 'a Codex rollout (line 1)'],
    ['codex', rows, 'a Codex rollout (line 1)'],
    ['codex', session, 'a Codex rollout (line 1)'],
    ['openhands', rows, 'an OpenHands event log'],
    ['openhands', write('rows.json', '[{"kind":"user","text":"use tabs"}]'), 'an OpenHands event log (item 1)'],
    ['openhands', session, 'an OpenHands event log'],
    ['transcript', events, 'a transcript (line 1)'],
    ['transcript', session, 'a transcript (line 1)'],
    ['transcript', plain, 'a transcript (line 1)'],
  ])('%s: refuses %s, naming the file, where and what was expected', (type, path, what) => {
    const err = refusal(`${type}:${path}`);
    expect(err?.code).toBe('INVALID_ARGUMENT');
    expect(err?.message).toContain(`Could not read ${path} as ${what}: expected `);
    expect(err?.message).not.toContain('\n');
  });

  it('an OpenHands directory refuses an event file that is not an event, but not a torn last one', () => {
    const dir = makeTmpDir('gitmem-oh-');
    cpSync(`${FIX}/openhands/conv-a/events`, dir, { recursive: true });
    writeFileSync(join(dir, 'event-00005-err.json'), '{ broken');
    expect(refusal(`openhands:${dir}`)?.message).toContain(
      `Could not read ${join(dir, 'event-00005-err.json')} as an OpenHands event: expected `,
    );
    writeFileSync(join(dir, 'event-00005-err.json'), '{"kind":"user","text":"not an event"}');
    expect(refusal(`openhands:${dir}`)?.code).toBe('INVALID_ARGUMENT');
    rmSync(join(dir, 'event-00005-err.json'));
    expect(loadSource(`openhands:${dir}`, { agentDir: files, clock }).rows.length).toBeGreaterThan(0); // event-00011-torn.json is the tail
  });

  it('an empty but valid log of each type is 0 rows, not an error', () => {
    const load = (from: string) => loadSource(from, { agentDir: files, clock }).rows;
    expect(load(`claude-code:${write('empty.jsonl', '')}`)).toEqual([]);
    expect(
      load(`claude-code:${write('summary-only.jsonl', '{"type":"summary","summary":"s","leafUuid":"u"}\n\n')}`),
    ).toEqual([]);
    expect(load(`claude-code:${write('torn.jsonl', '{"type":"summary"}\n{"type":"user","mess')}`)).toEqual([]);
    expect(load(`codex:${write('empty-rollout.jsonl', '')}`)).toEqual([]);
    expect(
      load(
        `codex:${write('meta-only.jsonl', '{"type":"session_meta","payload":{"id":"s"}}\n{"type":"response_item","payl')}`,
      ),
    ).toEqual([]);
    expect(load(`openhands:${write('empty-array.json', '[]')}`)).toEqual([]);
    expect(load(`openhands:${write('empty-items.json', '{"items": []}')}`)).toEqual([]);
    expect(load(`transcript:${write('empty-transcript.jsonl', '\n')}`)).toEqual([]);
    expect(load(`transcript:${write('empty-array-transcript.json', '[]')}`)).toEqual([]);
  });
});
