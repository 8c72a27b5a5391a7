/**
 * `--from claude-code:<session.jsonl | project dir>`: Claude Code session logs (one JSON object per line,
 * `type` user/assistant/…, `message.content` a string or blocks text/thinking/tool_use/tool_result). A
 * project directory means its most recently modified session. Side chains and meta lines of the main session
 * are skipped; its sub-agents are read from their own files (`<session>/subagents/agent-<id>.jsonl`); tool
 * results are attached to the tool call they answer. Readable from a byte offset, for hooks.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MemoryError } from '../../errors.js';
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { capResult, isoTimestamp, isRecord, textOf } from './common.js';
import { readJsonlFrom, type JsonlLine } from './jsonl.js';

type Line = Record<string, unknown>;

const EXPECTED =
  'one JSON object per line with a "type" ("user", "assistant", "summary", …), a "message" object on user and assistant lines';

/** A line Claude Code writes: every one has a `type`; a user or assistant line carries its `message`. */
function isSessionLine(v: unknown): v is Line {
  if (!isRecord(v) || typeof v['type'] !== 'string' || v['type'] === '') return false;
  return (v['type'] !== 'user' && v['type'] !== 'assistant') || isRecord(v['message']);
}

/**
 * The session file a locator names: the file itself, or the newest `*.jsonl` in a directory.
 * @example resolveClaudeSession('~/.claude/projects/-work-app') // '/…/-work-app/0b1c….jsonl'
 */
export function resolveClaudeSession(path: string): string {
  if (!existsSync(path))
    throw new MemoryError('FILE_NOT_FOUND', `Claude Code source not found: ${path}`, { data: { path } });
  if (!statSync(path).isDirectory()) return path;
  const newest = readdirSync(path)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ f, mtime: statSync(join(path, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || a.f.localeCompare(b.f))[0];
  if (!newest)
    throw new MemoryError('FILE_NOT_FOUND', `No Claude Code session files (*.jsonl) found in ${path}`, {
      data: { path },
    });
  return join(path, newest.f);
}

/**
 * The sub-agent logs of a session, sorted: `<dir>/<session-id>/subagents/agent-*.jsonl` beside
 * `<dir>/<session-id>.jsonl` (none when that folder does not exist).
 * @example claudeSubagentFiles('/…/-work-app/5c49….jsonl') // ['/…/-work-app/5c49…/subagents/agent-a1.jsonl']
 */
export function claudeSubagentFiles(sessionPath: string): string[] {
  const dir = join(sessionPath.replace(/\.jsonl$/, ''), 'subagents');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith('agent-') && f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

/** A sub-agent's own log, whose every line is a side chain of the main session (so it must not be skipped). */
function isSubagentFile(path: string): boolean {
  return basename(dirname(path)) === 'subagents' && /^agent-.*\.jsonl$/.test(basename(path));
}

interface Ctx {
  rows: TranscriptRow[];
  tools: Map<string, TranscriptToolRow>;
  /** Reading a sub-agent file: its side-chain lines are its conversation. */
  subagent: boolean;
}

function assistantBlocks(ctx: Ctx, blocks: unknown[], uuid: string, at: string): void {
  blocks.forEach((b, i) => {
    if (!isRecord(b)) return;
    const id = `${uuid}:${i}`;
    if (b['type'] === 'text' && typeof b['text'] === 'string' && b['text'].trim() !== '') {
      ctx.rows.push({ kind: 'assistant', text: b['text'], captured_at: at, source_message_id: id });
    } else if (b['type'] === 'thinking' && typeof b['thinking'] === 'string' && b['thinking'].trim() !== '') {
      ctx.rows.push({ kind: 'reasoning', text: b['thinking'], captured_at: at, source_message_id: id });
    } else if (b['type'] === 'tool_use') {
      const row: TranscriptToolRow = { kind: 'tool_call', captured_at: at, source_message_id: id };
      if (typeof b['name'] === 'string') row.name = b['name'];
      if (b['input'] !== undefined) row.argsText = JSON.stringify(b['input']);
      ctx.rows.push(row);
      if (typeof b['id'] === 'string') ctx.tools.set(b['id'], row);
    }
  });
}

function userBlocks(ctx: Ctx, blocks: unknown[], uuid: string, at: string): void {
  blocks.forEach((b, i) => {
    if (!isRecord(b)) return;
    if (b['type'] === 'text' && typeof b['text'] === 'string' && b['text'].trim() !== '') {
      ctx.rows.push({ kind: 'user', text: b['text'], captured_at: at, source_message_id: `${uuid}:${i}` });
    } else if (b['type'] === 'tool_result' && typeof b['tool_use_id'] === 'string') {
      const call = ctx.tools.get(b['tool_use_id']);
      if (!call) return; // its call is in another file, or before the offset this read started at (reported then)
      call.resultText = capResult(textOf(b['content']));
      call.resultOk = b['is_error'] !== true;
    }
  });
}

function convertLine(ctx: Ctx, { value: line, at: offset }: JsonlLine<Line>, now: () => Date): void {
  if ((line['isSidechain'] === true && !ctx.subagent) || line['isMeta'] === true) return;
  if (line['type'] !== 'user' && line['type'] !== 'assistant') return;
  const message = isRecord(line['message']) ? line['message'] : {};
  // a line without a uuid is keyed by its byte offset, which no later append changes
  const uuid = typeof line['uuid'] === 'string' && line['uuid'] !== '' ? line['uuid'] : `B${offset}`;
  const at = isoTimestamp(line['timestamp'], now);
  const content = message['content'];
  if (typeof content === 'string') {
    if (content.trim() === '') return;
    ctx.rows.push({ kind: line['type'], text: content, captured_at: at, source_message_id: uuid });
  } else if (Array.isArray(content)) {
    if (line['type'] === 'assistant') assistantBlocks(ctx, content, uuid, at);
    else userBlocks(ctx, content, uuid, at);
  }
}

function readSession(
  path: string,
  offset: number,
  now: () => Date,
  includeTail: boolean,
): { rows: TranscriptRow[]; end: number } {
  const { lines, end } = readJsonlFrom(path, offset, {
    what: 'a Claude Code session',
    expected: EXPECTED,
    isLine: isSessionLine,
    includeTail,
  });
  const ctx: Ctx = { rows: [], tools: new Map(), subagent: isSubagentFile(path) };
  for (const line of lines) convertLine(ctx, line, now);
  return { rows: ctx.rows, end };
}

/**
 * Reads one Claude Code log file (a session, or a sub-agent file, whose side-chain lines are kept) from byte
 * `offset` (0, or the `end` of the previous read): the rows of the complete lines from there, and `end`, the
 * offset after the last line consumed. A torn last line is left for the next read. Row ids are the lines'
 * uuids, so they match a whole-file read's. A tool result whose call is before `offset` is dropped.
 * @example let { rows, end } = parseClaudeCodeFrom(transcriptPath, 0, now); ({ rows, end } = parseClaudeCodeFrom(transcriptPath, end, now))
 */
export function parseClaudeCodeFrom(
  path: string,
  offset: number,
  now: () => Date,
): { rows: TranscriptRow[]; end: number } {
  return readSession(path, offset, now, false);
}

/**
 * Parses a Claude Code session (or the newest session of a project directory), without its sub-agent files.
 * A file that is not one is refused, naming the first line that does not fit.
 * @example parseClaudeCode('/home/me/.claude/projects/-work-app/abc.jsonl', () => new Date())
 */
export function parseClaudeCode(path: string, now: () => Date): TranscriptRow[] {
  return readSession(resolveClaudeSession(path), 0, now, true).rows;
}
