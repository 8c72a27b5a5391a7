import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { errorCodeOf } from '../../../test/helpers/errors.js';
import { cleanupTmp, makeTmpDir } from '../../../test/helpers/tmp.js';
import { isCodexSubagentMeta, parseCodex, parseCodexFrom, resolveCodexRollout } from './codex.js';
import { loadSource, syntheticConversationId } from './index.js';
import { MAX_LINE_BYTES } from './jsonl.js';

afterAll(cleanupTmp);
const ROLLOUT = resolve(import.meta.dirname, '../../../test/fixtures/harness/codex-rollout.jsonl');
const now = () => new Date('2025-09-09T09:09:09.000Z');
const T = '2026-12-04T18:40:53.000Z';

/** The recorded rollout's lines, each with its '\n'. */
const fixtureLines = () => readFileSync(ROLLOUT, 'utf8').split(/(?<=\n)/);
const line = (type: string, payload: object) => `${JSON.stringify({ timestamp: T, type, payload })}\n`;
const meta = (extra: object = {}) => line('session_meta', { id: 's1', cwd: '/w', source: 'cli', ...extra });
const msg = (role: string, text: string, extra: object = {}) =>
  line('response_item', {
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
    ...extra,
  });
const write = (text: string, name = 'rollout.jsonl') => {
  const path = join(makeTmpDir('gitmem-codex-'), name);
  writeFileSync(path, text);
  return path;
};

describe('codex: the recorded rollout (codex 0.169.0)', () => {
  it('keeps the user prompt, the MCP call linked to its output and the answer; drops injected context', () => {
    const rows = parseCodex(ROLLOUT, now);
    const bytes = readFileSync(ROLLOUT);
    const offsetOf = (needle: string) => bytes.lastIndexOf('\n', bytes.indexOf(needle)) + 1;
    expect(rows).toEqual([
      {
        kind: 'user',
        text: 'Please remember that the harness spike ran.',
        captured_at: '2026-12-04T18:40:53.913Z',
        source_message_id: `codex:${offsetOf('"text":"Please remember')}`,
      },
      {
        kind: 'tool_call',
        name: 'mcp__gitmem__memory',
        argsText: expect.stringContaining('"file_path":"notes/harness-spike.md"') as string,
        resultText: expect.stringContaining('Memory create committed (2015db8).') as string,
        resultOk: true,
        captured_at: '2026-12-04T18:40:54.057Z',
        source_message_id: `codex:${offsetOf('"id":"fc_fake_1"')}`,
      },
      {
        kind: 'assistant',
        text: 'Noted.',
        captured_at: '2026-12-04T18:40:54.411Z',
        source_message_id: `codex:${offsetOf('"role":"assistant"')}`,
      },
    ]);
    const all = JSON.stringify(rows);
    for (const injected of ['<environment_context>', 'MARKER-123', '<skills_instructions>'])
      expect(all).not.toContain(injected);
  });

  it('stages through --from codex: with the conversation id of the file', () => {
    const { conversationId, rows } = loadSource(`codex:${ROLLOUT}`, {
      agentDir: makeTmpDir('gitmem-src-'),
      clock: now,
    });
    expect(conversationId).toBe(syntheticConversationId('codex', ROLLOUT));
    expect(rows.map((r) => r.kind)).toEqual(['user', 'tool_call', 'assistant']);
  });
});

describe('codex: items', () => {
  it('drops developer items and injected user wrappers (older rollouts carry no provenance), keeps reasoning summaries', () => {
    const path = write(
      meta() +
        msg('developer', '<permissions instructions>sandboxed</permissions instructions>') +
        msg('user', '<user_instructions>be brief</user_instructions>') +
        msg('user', '# AGENTS.md instructions for /w\n\n<INSTRUCTIONS>use tabs</INSTRUCTIONS>') +
        msg('user', '  <environment_context><cwd>/w</cwd></environment_context>') +
        msg('user', 'hook text', {
          internal_chat_message_metadata_passthrough: { content_item_metadata: [{ provenance: { type: 'harness' } }] },
        }) +
        msg('user', 'Use tabs, please.') +
        line('event_msg', { type: 'user_message', message: 'Use tabs, please.' }) +
        line('response_item', {
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'A style rule.' }],
          encrypted_content: 'xx',
        }) +
        line('turn_context', { cwd: '/w' }),
    );
    expect(parseCodex(path, now).map((r) => (r.kind === 'tool_call' ? r.kind : `${r.kind}:${r.text}`))).toEqual([
      'user:Use tabs, please.',
      'reasoning:A style rule.',
    ]);
  });

  it('links function and custom tool calls to their outputs and guesses failure from exit codes and success:false', () => {
    const call = (type: string, id: string, extra: object) =>
      line('response_item', { type, call_id: id, name: 'shell', ...extra });
    const out = (type: string, id: string, output: unknown) => line('response_item', { type, call_id: id, output });
    const path = write(
      meta() +
        call('function_call', 'c1', { arguments: '{"cmd":"ls"}' }) +
        call('custom_tool_call', 'c2', { name: 'apply_patch', input: '*** Begin Patch' }) +
        call('function_call', 'c3', { arguments: '{}' }) +
        call('function_call', 'c4', { arguments: '{}' }) +
        call('function_call', 'c5', { arguments: '{}' }) +
        out('function_call_output', 'c1', '{"output":"a.txt\\n","metadata":{"exit_code":0}}') +
        out('custom_tool_call_output', 'c2', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\npatch rejected') +
        out('function_call_output', 'c3', { content: 'denied', success: false }) +
        out('function_call_output', 'c4', 'Process exited with code 2') +
        out('function_call_output', 'c5', [{ type: 'input_text', text: 'fine' }]) +
        out('function_call_output', 'unknown', 'orphan'),
    );
    const rows = parseCodex(path, now);
    expect(rows.map((r) => (r.kind === 'tool_call' ? [r.name, r.argsText, r.resultText, r.resultOk] : r.kind))).toEqual(
      [
        ['shell', '{"cmd":"ls"}', 'a.txt\n', true],
        ['apply_patch', '*** Begin Patch', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\npatch rejected', false],
        ['shell', '{}', 'denied', false],
        ['shell', '{}', 'Process exited with code 2', false],
        ['shell', '{}', 'fine', true],
      ],
    );
  });
});

describe('codex: incremental reads by byte offset', () => {
  it('reading from the end of a first read gives exactly the appended rows, with the ids of a whole-file read', () => {
    const lines = fixtureLines();
    const path = write(lines.slice(0, 9).join('')); // through the user prompt
    const first = parseCodexFrom(path, 0, now);
    expect(first.rows.map((r) => r.kind)).toEqual(['user']);
    expect(first.end).toBe(readFileSync(path).length);
    appendFileSync(path, lines.slice(9).join(''));
    const second = parseCodexFrom(path, first.end, now);
    expect(second.rows.map((r) => r.kind)).toEqual(['tool_call', 'assistant']);
    expect([...first.rows, ...second.rows]).toEqual(parseCodex(ROLLOUT, now));
    expect(second.end).toBe(readFileSync(ROLLOUT).length);
    expect(parseCodexFrom(path, second.end, now)).toEqual({ rows: [], end: second.end });
  });

  it('leaves a torn last line unconsumed and reads it once it is complete', () => {
    const whole = meta() + msg('user', 'first') + msg('assistant', 'second');
    const cut = whole.length - 20;
    const path = write(whole.slice(0, cut));
    const torn = parseCodexFrom(path, 0, now);
    expect(torn.rows.map((r) => r.kind)).toEqual(['user']);
    expect(torn.end).toBe((meta() + msg('user', 'first')).length);
    expect(parseCodex(path, now)).toHaveLength(1); // a whole-file read skips the torn tail too
    appendFileSync(path, whole.slice(cut));
    const next = parseCodexFrom(path, torn.end, now);
    expect(next.rows).toEqual([
      { kind: 'assistant', text: 'second', captured_at: T, source_message_id: `codex:${torn.end}` },
    ]);
    expect(next.end).toBe(whole.length);
  });

  it('reads a line only once its newline is written (a whole-file read takes a complete last line without one)', () => {
    const head = meta() + msg('user', 'first');
    const path = write(head + msg('assistant', 'no newline yet').trimEnd());
    expect(parseCodexFrom(path, 0, now)).toMatchObject({ rows: [{ text: 'first' }], end: head.length });
    expect(parseCodex(path, now).map((r) => r.kind)).toEqual(['user', 'assistant']);
  });

  it('does not consume a last line that is not JSON even with its newline, and refuses it once lines follow', () => {
    const head = meta() + msg('user', 'first');
    const path = write(`${head}{"timestamp":"2026-\n`);
    expect(parseCodexFrom(path, 0, now)).toMatchObject({ rows: [{ text: 'first' }], end: head.length });
    expect(parseCodexFrom(path, head.length, now)).toEqual({ rows: [], end: head.length });
    appendFileSync(path, msg('assistant', 'later'));
    expect(() => parseCodexFrom(path, head.length, now)).toThrow(`(line at byte ${head.length})`);
  });

  it('counts offsets in bytes: multi-byte text before the offset', () => {
    const head = meta() + msg('user', 'Grüße aus Köln 🌍 日本語');
    const path = write(head);
    const first = parseCodexFrom(path, 0, now);
    expect(first.end).toBe(Buffer.byteLength(head));
    expect(first.end).toBeGreaterThan(head.length);
    appendFileSync(path, msg('assistant', 'Danke — ありがとう'));
    const second = parseCodexFrom(path, first.end, now);
    expect(second.rows).toEqual([
      {
        kind: 'assistant',
        text: 'Danke — ありがとう',
        captured_at: T,
        source_message_id: `codex:${Buffer.byteLength(head)}`,
      },
    ]);
    expect(parseCodex(path, now).map((r) => r.source_message_id)).toEqual(
      [...first.rows, ...second.rows].map((r) => r.source_message_id),
    );
  });

  it(`skips a line over ${MAX_LINE_BYTES} bytes without error, counting it as consumed`, () => {
    const huge = msg('user', 'x'.repeat(MAX_LINE_BYTES + 10));
    const path = write(meta() + msg('user', 'before') + huge + msg('assistant', 'after'));
    const r = parseCodexFrom(path, 0, now);
    expect(r.rows.map((x) => (x.kind === 'tool_call' ? '' : x.text))).toEqual(['before', 'after']);
    expect(r.end).toBe(readFileSync(path).length);
  });

  it('refuses bad offsets: negative, fractional, past the end', () => {
    const path = write(meta());
    for (const offset of [-1, 1.5, 10_000])
      expect(
        errorCodeOf(() => parseCodexFrom(path, offset, now)),
        String(offset),
      ).toBe('INVALID_ARGUMENT');
  });
});

describe('codex: strictness', () => {
  it('refuses a file that is not a rollout, naming the line (or its byte offset when reading from one)', () => {
    const claude = resolve(import.meta.dirname, '../../../test/fixtures/harness/claude-code-session.jsonl');
    expect(() => parseCodex(claude, now)).toThrow(`Could not read ${claude} as a Codex rollout (line 1): expected `);
    const noMeta = write(msg('user', 'hi'));
    expect(() => parseCodex(noMeta, now)).toThrow('as a Codex rollout (line 1)');
    const bad = write(meta() + msg('user', 'hi') + '{"role":"user","content":"hi"}\n' + msg('user', 'later'));
    expect(() => parseCodex(bad, now)).toThrow('as a Codex rollout (line 3)');
    const at = Buffer.byteLength(meta() + msg('user', 'hi'));
    expect(() => parseCodexFrom(bad, Buffer.byteLength(meta()), now)).toThrow(
      `as a Codex rollout (line at byte ${at})`,
    );
    expect(errorCodeOf(() => parseCodex(write('not json\n' + meta()), now))).toBe('INVALID_ARGUMENT');
    expect(parseCodex(write(''), now)).toEqual([]);
  });
});

describe('codex: a sessions directory', () => {
  const rollout = (dir: string, name: string, metaExtra: object, mtime: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), meta(metaExtra) + msg('user', name));
    utimesSync(join(dir, name), new Date(mtime), new Date(mtime));
    return join(dir, name);
  };

  it('means its newest rollout at any depth that is not a sub-agent or a fork', () => {
    const sessions = makeTmpDir('gitmem-codex-home-');
    rollout(join(sessions, '2026/12/03'), 'rollout-a.jsonl', {}, '2026-12-03');
    const main = rollout(join(sessions, '2026/12/04'), 'rollout-b.jsonl', {}, '2026-12-04T10:00:00Z');
    rollout(
      join(sessions, '2026/12/04'),
      'rollout-c.jsonl',
      { source: { subagent: 'review' } },
      '2026-12-04T11:00:00Z',
    );
    rollout(join(sessions, '2026/12/04'), 'rollout-d.jsonl', { forked_from_id: 's0' }, '2026-12-04T12:00:00Z');
    rollout(join(sessions, '2026/12/04'), 'notes.jsonl', {}, '2026-12-04T13:00:00Z');
    expect(resolveCodexRollout(sessions)).toBe(main);
    const { conversationId, rows } = loadSource(`codex:${sessions}`, {
      agentDir: makeTmpDir('gitmem-src-'),
      clock: now,
    });
    expect(conversationId).toBe(syntheticConversationId('codex', main));
    expect(rows).toMatchObject([{ kind: 'user', text: 'rollout-b.jsonl' }]);
    expect(errorCodeOf(() => resolveCodexRollout(makeTmpDir('gitmem-codex-empty-')))).toBe('FILE_NOT_FOUND');
    expect(errorCodeOf(() => resolveCodexRollout(join(sessions, 'nope')))).toBe('FILE_NOT_FOUND');
  });

  it('tells a sub-agent session_meta from a user session', () => {
    expect(isCodexSubagentMeta({ source: 'exec', thread_source: 'user' })).toBe(false);
    expect(isCodexSubagentMeta({ source: 'cli', forked_from_id: null })).toBe(false);
    expect(isCodexSubagentMeta({ source: { subagent: { thread_spawn: { parent_thread_id: 'p' } } } })).toBe(true);
    expect(isCodexSubagentMeta({ source: 'subagent' })).toBe(true);
    expect(isCodexSubagentMeta({ thread_source: 'sub_agent' })).toBe(true);
    expect(isCodexSubagentMeta({ source: 'cli', parent_thread_id: 'p' })).toBe(true);
  });
});

describe('codex: what is not a regular file', () => {
  it('a FIFO named as the rollout is refused at once (never read, so never waited on)', () => {
    const fifo = join(makeTmpDir('gitmem-codex-fifo-'), 'rollout.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(errorCodeOf(() => parseCodexFrom(fifo, 0, () => new Date()))).toBe('FILE_NOT_FOUND');
  });
});
