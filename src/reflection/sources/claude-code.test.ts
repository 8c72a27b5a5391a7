import { appendFileSync, copyFileSync, cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../../test/helpers/tmp.js';
import { claudeSubagentFiles, parseClaudeCode, parseClaudeCodeFrom } from './claude-code.js';
import { loadSource, stageSource, syntheticConversationId } from './index.js';
import { errorCodeOf } from '../../../test/helpers/errors.js';
import { MAX_LINE_BYTES } from './jsonl.js';

afterAll(cleanupTmp);
const SESSION = resolve(import.meta.dirname, '../../../test/fixtures/harness/claude-code-session.jsonl');
const now = () => new Date('2025-09-09T09:09:09.000Z');
const clock = now;
const FIX = resolve(import.meta.dirname, '../../../test/fixtures/sources');
const T = '2026-12-04T18:40:47.000Z';

/** The recorded session's lines, each with its '\n'. */
const fixtureLines = () => readFileSync(SESSION, 'utf8').split(/(?<=\n)/);
const user = (uuid: string, content: unknown, extra: object = {}) =>
  `${JSON.stringify({ type: 'user', uuid, timestamp: T, isSidechain: false, message: { role: 'user', content }, ...extra })}\n`;
const assistant = (uuid: string, text: string, extra: object = {}) =>
  `${JSON.stringify({ type: 'assistant', uuid, timestamp: T, isSidechain: false, message: { role: 'assistant', content: [{ type: 'text', text }] }, ...extra })}\n`;
const write = (text: string, dir = makeTmpDir('gitmem-cc-'), name = 'session.jsonl') => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
const texts = (rows: ReturnType<typeof parseClaudeCode>) =>
  rows.map((r) => (r.kind === 'tool_call' ? `tool_call:${r.name}` : `${r.kind}:${r.text}`));

describe('claude-code: the recorded session (claude 2.1.328)', () => {
  it('keeps the prompt, the MCP call with its result and the answer; attachments, API records and hook context are not rows', () => {
    const rows = parseClaudeCode(SESSION, now);
    expect(rows).toEqual([
      {
        kind: 'user',
        text: 'Please remember that the harness spike ran.',
        captured_at: '2026-12-04T18:40:46.960Z',
        source_message_id: '5d7314a4-b55f-483b-9a9d-2cbd9e063bfd',
      },
      {
        kind: 'tool_call',
        name: 'mcp__gitmem__memory',
        argsText: expect.stringContaining('"file_path":"notes/harness-spike.md"') as string,
        resultText: expect.stringContaining('Memory create committed (652ec7b).') as string,
        resultOk: true,
        captured_at: '2026-12-04T18:40:47.385Z',
        source_message_id: '6607d707-1a93-4c1e-a70a-89f71c2327a7:0',
      },
      {
        kind: 'assistant',
        text: 'Noted.',
        captured_at: '2026-12-04T18:40:47.932Z',
        source_message_id: '2abb9231-7691-40d0-b883-bdaddfc971df:0',
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain('MARKER-123');
  });
});

describe('claude-code: incremental reads by byte offset', () => {
  it('reading from the end of a first read gives exactly the appended rows, with the ids of a whole-file read', () => {
    const lines = fixtureLines();
    const path = write(lines.slice(0, 26).join('')); // through the tool result
    const first = parseClaudeCodeFrom(path, 0, now);
    expect(texts(first.rows)).toEqual([
      'user:Please remember that the harness spike ran.',
      'tool_call:mcp__gitmem__memory',
    ]);
    expect(first.end).toBe(readFileSync(path).length);
    appendFileSync(path, lines.slice(26).join(''));
    const second = parseClaudeCodeFrom(path, first.end, now);
    expect(texts(second.rows)).toEqual(['assistant:Noted.']);
    expect([...first.rows, ...second.rows]).toEqual(parseClaudeCode(SESSION, now));
    expect(second.end).toBe(readFileSync(SESSION).length);
  });

  it('drops a tool result whose call was before the offset (the earlier read returned the call without it)', () => {
    const lines = fixtureLines();
    const path = write(lines.slice(0, 23).join('')); // through the tool_use, before its result
    const first = parseClaudeCodeFrom(path, 0, now);
    expect(first.rows[1]).toMatchObject({ kind: 'tool_call', name: 'mcp__gitmem__memory' });
    expect(first.rows[1]).not.toHaveProperty('resultText');
    appendFileSync(path, lines.slice(23).join(''));
    expect(texts(parseClaudeCodeFrom(path, first.end, now).rows)).toEqual(['assistant:Noted.']);
  });

  it('leaves a torn last line unconsumed and reads it once it is complete', () => {
    const whole = user('u1', 'first') + assistant('a1', 'second');
    const cut = whole.length - 15;
    const path = write(whole.slice(0, cut));
    const torn = parseClaudeCodeFrom(path, 0, now);
    expect(texts(torn.rows)).toEqual(['user:first']);
    expect(torn.end).toBe(user('u1', 'first').length);
    appendFileSync(path, whole.slice(cut));
    expect(parseClaudeCodeFrom(path, torn.end, now)).toEqual({
      rows: [{ kind: 'assistant', text: 'second', captured_at: T, source_message_id: 'a1:0' }],
      end: whole.length,
    });
  });

  it('counts offsets in bytes: multi-byte text before the offset; an id-less line is keyed by its byte offset', () => {
    const head = user('u1', 'Grüße aus Köln 🌍 日本語');
    const path = write(head);
    const first = parseClaudeCodeFrom(path, 0, now);
    expect(first.end).toBe(Buffer.byteLength(head));
    expect(first.end).toBeGreaterThan(head.length);
    appendFileSync(
      path,
      `${JSON.stringify({ type: 'user', timestamp: T, message: { role: 'user', content: 'ありがとう' } })}\n`,
    );
    const second = parseClaudeCodeFrom(path, first.end, now);
    expect(second.rows).toEqual([
      { kind: 'user', text: 'ありがとう', captured_at: T, source_message_id: `B${Buffer.byteLength(head)}` },
    ]);
    expect(parseClaudeCode(path, now)).toEqual([...first.rows, ...second.rows]);
  });

  it(`skips a line over ${MAX_LINE_BYTES} bytes without error, counting it as consumed`, () => {
    const path = write(user('u1', 'before') + user('u2', 'y'.repeat(MAX_LINE_BYTES)) + assistant('a1', 'after'));
    const r = parseClaudeCodeFrom(path, 0, now);
    expect(texts(r.rows)).toEqual(['user:before', 'assistant:after']);
    expect(r.end).toBe(readFileSync(path).length);
  });

  it('refuses a line that is not a session line, naming its byte offset when reading from one', () => {
    const path = write(user('u1', 'ok') + '{"role":"user","content":"hi"}\n' + user('u2', 'later'));
    expect(() => parseClaudeCodeFrom(path, 0, now)).toThrow(
      `Could not read ${path} as a Claude Code session (line 2): expected `,
    );
    const at = Buffer.byteLength(user('u1', 'ok'));
    expect(() => parseClaudeCodeFrom(path, at, now)).toThrow(`as a Claude Code session (line at byte ${at})`);
  });
});

describe('claude-code: sub-agent files', () => {
  const project = () => {
    const dir = makeTmpDir('gitmem-cc-project-');
    const session = join(dir, '5c49.jsonl');
    copyFileSync(SESSION, session);
    appendFileSync(session, assistant('side-main', 'sidechain in the main file', { isSidechain: true }));
    const sub = join(dir, '5c49', 'subagents');
    mkdirSync(sub, { recursive: true });
    // Claude Code writes a sub-agent's own lines with isSidechain: true
    write(
      user('sa-b1', 'Find the deploy script.', { isSidechain: true, agentId: 'b' }) +
        assistant('sa-b2', 'It is scripts/ship.sh.', { isSidechain: true, agentId: 'b' }),
      sub,
      'agent-b.jsonl',
    );
    write(user('sa-a1', 'Count the tests.', { isSidechain: true, agentId: 'a' }), sub, 'agent-a.jsonl');
    write('not a log', sub, 'notes.txt');
    return { session, sub };
  };

  it('lists a session’s sub-agent files, sorted; none for a session without them', () => {
    const { session, sub } = project();
    expect(claudeSubagentFiles(session)).toEqual([join(sub, 'agent-a.jsonl'), join(sub, 'agent-b.jsonl')]);
    expect(claudeSubagentFiles(SESSION)).toEqual([]);
  });

  it('claude-code:<session> adds the sub-agents’ rows after the main session’s; the session file alone skips side chains', () => {
    const { session, sub } = project();
    const main = texts(parseClaudeCode(session, now));
    expect(main).toEqual([
      'user:Please remember that the harness spike ran.',
      'tool_call:mcp__gitmem__memory',
      'assistant:Noted.',
    ]);
    expect(texts(parseClaudeCodeFrom(join(sub, 'agent-b.jsonl'), 0, now).rows)).toEqual([
      'user:Find the deploy script.',
      'assistant:It is scripts/ship.sh.',
    ]);
    const { rows } = loadSource(`claude-code:${session}`, { agentDir: makeTmpDir('gitmem-src-'), clock: now });
    expect(texts(rows)).toEqual([
      ...main,
      'user:Count the tests.',
      'user:Find the deploy script.',
      'assistant:It is scripts/ship.sh.',
    ]);
    expect(rows.map((r) => r.source_message_id).slice(3)).toEqual(['sa-a1', 'sa-b1', 'sa-b2:0']);
  });
});

describe('claude-code: source', () => {
  it('converts a session: text, thinking, tool calls with their results; skips meta, side chains and other line types', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const file = `${FIX}/claude-code/project/7f0c2a9e-session.jsonl`;
    const { rows, conversationId } = loadSource(`claude-code:${file}`, { agentDir, clock });
    expect(conversationId).toBe(syntheticConversationId('claude-code', file));
    expect(rows).toEqual([
      {
        kind: 'user',
        text: 'Deploys go through `make ship`, never `npm publish` directly.',
        captured_at: '2025-07-01T12:00:00.000Z',
        source_message_id: 'c-1',
      },
      {
        kind: 'reasoning',
        text: 'The user has a deploy convention.',
        captured_at: '2025-07-01T12:00:02.000Z',
        source_message_id: 'c-2:0',
      },
      {
        kind: 'assistant',
        text: 'Noted. Let me check the Makefile.',
        captured_at: '2025-07-01T12:00:03.000Z',
        source_message_id: 'c-3:0',
      },
      {
        kind: 'tool_call',
        name: 'Read',
        argsText: '{"file_path":"/work/app/Makefile"}',
        resultText: 'ship:\n\t./scripts/ship.sh',
        resultOk: true,
        captured_at: '2025-07-01T12:00:03.000Z',
        source_message_id: 'c-3:1',
      },
      {
        kind: 'tool_call',
        name: 'Bash',
        argsText: '{"command":"npm publish"}',
        resultText: "The user doesn't want to proceed with this tool use.",
        resultOk: false,
        captured_at: '2025-07-01T12:00:05.000Z',
        source_message_id: 'c-5:0',
      },
      {
        kind: 'user',
        text: 'No! I said make ship.',
        captured_at: '2025-07-01T12:00:06.000Z',
        source_message_id: 'c-6:1',
      },
      {
        kind: 'assistant',
        text: 'Sorry, running make ship instead.',
        captured_at: '2025-07-01T12:00:07.000Z',
        source_message_id: 'c-7:0',
      },
    ]);
  });

  it('a project directory means its most recent session; staging is idempotent', () => {
    const agentDir = makeTmpDir('gitmem-src-');
    const project = makeTmpDir('gitmem-cc-');
    cpSync(`${FIX}/claude-code/project`, project, { recursive: true });
    utimesSync(join(project, 'older-session.jsonl'), new Date('2025-01-01'), new Date('2025-01-01'));
    utimesSync(join(project, '7f0c2a9e-session.jsonl'), new Date('2025-08-01'), new Date('2025-08-01'));
    const staged = stageSource(`claude-code:${project}`, { agentDir, clock });
    expect(staged).toMatchObject({ staged: 7, skipped: 0 });
    expect(staged.conversationId).toBe(syntheticConversationId('claude-code', join(project, '7f0c2a9e-session.jsonl')));
    expect(stageSource(`claude-code:${project}`, { agentDir, clock }).staged).toBe(0);
    copyFileSync(join(project, 'older-session.jsonl'), join(project, 'newest.jsonl'));
    expect(loadSource(`claude-code:${project}`, { agentDir }).rows.map((r) => r.source_message_id)).toEqual(['old-1']);
    expect(errorCodeOf(() => loadSource(`claude-code:${makeTmpDir('gitmem-cc-empty-')}`, { agentDir }))).toBe(
      'FILE_NOT_FOUND',
    );
  });
});
