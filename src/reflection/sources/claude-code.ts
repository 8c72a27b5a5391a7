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
import { capResult, isoTimestamp, isRecord, readSourceFile, textOf } from './common.js';

type Line = Record<string, unknown>;

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

function parseLines(path: string): Line[] {
  const out: Line[] = [];
  for (const text of readSourceFile(path).split('\n')) {
    if (text.trim() === '') continue;
    try {
      const v: unknown = JSON.parse(text);
      if (isRecord(v)) out.push(v);
    } catch {
      // a torn line at the end of a live session
    }
  }
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
 * Parses a Claude Code session (or the newest session of a project directory).
 * @example parseClaudeCode('/home/me/.claude/projects/-work-app/abc.jsonl', () => new Date())
 */
export function parseClaudeCode(path: string, now: () => Date): TranscriptRow[] {
  const ctx: Ctx = { rows: [], tools: new Map() };
  parseLines(resolveClaudeSession(path)).forEach((line, i) => convertLine(ctx, line, i, now));
  return ctx.rows;
}
