/**
 * `--from claude-code:<session.jsonl | project dir>`: Claude Code session logs (one JSON object per line,
 * `type` user/assistant/…, `message.content` a string or blocks text/thinking/tool_use/tool_result). A
 * project directory means its most recently modified session. Side chains (sub-agents) and meta lines are
 * skipped; tool results are attached to the tool call they answer.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../../errors.js';
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { capResult, isoTimestamp, isRecord, notOfShape, parseJson, readSourceFile, textOf } from './common.js';

type Line = Record<string, unknown>;

const EXPECTED = 'one JSON object per line with a "type" ("user", "assistant", "summary", …), a "message" object on user and assistant lines';

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
  if (!existsSync(path)) throw new MemoryError('FILE_NOT_FOUND', `Claude Code source not found: ${path}`, { data: { path } });
  if (!statSync(path).isDirectory()) return path;
  const newest = readdirSync(path)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ f, mtime: statSync(join(path, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || a.f.localeCompare(b.f))[0];
  if (!newest) throw new MemoryError('FILE_NOT_FOUND', `No Claude Code session files (*.jsonl) found in ${path}`, { data: { path } });
  return join(path, newest.f);
}

/**
 * The session's lines. Each must be a session line (else INVALID_ARGUMENT naming it), except a last line that
 * is not JSON after at least one session line: a live session's torn tail. An empty file is an empty session.
 */
function parseLines(path: string): Line[] {
  const lines = readSourceFile(path)
    .split('\n')
    .map((text, i) => ({ text, n: i + 1 }))
    .filter((l) => l.text.trim() !== '');
  const out: Line[] = [];
  lines.forEach(({ text, n }, i) => {
    const v = parseJson(text);
    if (isSessionLine(v)) out.push(v);
    else if (!(v === undefined && i === lines.length - 1 && out.length > 0)) throw notOfShape('a Claude Code session', path, `line ${n}`, EXPECTED);
  });
  return out;
}

interface Ctx {
  rows: TranscriptRow[];
  tools: Map<string, TranscriptToolRow>;
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
      if (!call) return;
      call.resultText = capResult(textOf(b['content']));
      call.resultOk = b['is_error'] !== true;
    }
  });
}

function convertLine(ctx: Ctx, line: Line, index: number, now: () => Date): void {
  if (line['isSidechain'] === true || line['isMeta'] === true) return;
  if (line['type'] !== 'user' && line['type'] !== 'assistant') return;
  const message = isRecord(line['message']) ? line['message'] : {};
  const uuid = typeof line['uuid'] === 'string' && line['uuid'] !== '' ? line['uuid'] : `L${index + 1}`;
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

/**
 * Parses a Claude Code session (or the newest session of a project directory). A file that is not one is
 * refused, naming the first line that does not fit.
 * @example parseClaudeCode('/home/me/.claude/projects/-work-app/abc.jsonl', () => new Date())
 */
export function parseClaudeCode(path: string, now: () => Date): TranscriptRow[] {
  const ctx: Ctx = { rows: [], tools: new Map() };
  parseLines(resolveClaudeSession(path)).forEach((line, i) => convertLine(ctx, line, i, now));
  return ctx.rows;
}
