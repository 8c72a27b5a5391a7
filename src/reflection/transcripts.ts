/**
 * Conversations as append-only JSONL under the agent (`<agentDir>/transcripts/<conversation>.jsonl`, one
 * TranscriptRow per line: text rows and tool rows). A harness appends each turn's rows; reflection reads the
 * part not yet reflected.
 */
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../errors.js';

/** A text row: what the user or assistant said, the assistant's reasoning, or an error shown in the turn. */
export interface TranscriptTextRow {
  kind: 'user' | 'assistant' | 'reasoning' | 'error';
  text: string;
  captured_at: string;
  source_line_id?: string;
  source_message_id?: string;
}

/** A tool call with its result. */
export interface TranscriptToolRow {
  kind: 'tool_call';
  name?: string;
  argsText?: string;
  resultText?: string;
  resultOk?: boolean;
  captured_at: string;
  source_line_id?: string;
  source_message_id?: string;
}

/** One transcript line. */
export type TranscriptRow = TranscriptTextRow | TranscriptToolRow;

/** A row as a harness hands it in: `captured_at` and `source_line_id` are filled in when missing. */
export type TranscriptRowInput =
  | (Omit<TranscriptTextRow, 'captured_at'> & { captured_at?: string })
  | (Omit<TranscriptToolRow, 'captured_at'> & { captured_at?: string });

/** A parsed row with its 1-based line number in the file. */
export interface NumberedRow {
  line: number;
  row: TranscriptRow;
}

const TEXT_KINDS = new Set(['user', 'assistant', 'reasoning', 'error']);

/**
 * The file-name form of a conversation id: characters outside `[A-Za-z0-9._-]` become `_`, a leading dot
 * is escaped, empty becomes `unknown`.
 * @example conversationKey('conv 1/a') === 'conv_1_a'
 */
export function conversationKey(conversationId: string): string {
  const cleaned = String(conversationId).replace(/[^A-Za-z0-9._-]/g, '_');
  if (cleaned === '') return 'unknown';
  return cleaned.startsWith('.') ? `_${cleaned.slice(1)}` : cleaned;
}

/**
 * Directory holding an agent's transcripts.
 * @example transcriptsDir('/h/agents/a1') === '/h/agents/a1/transcripts'
 */
export function transcriptsDir(agentDir: string): string {
  return join(agentDir, 'transcripts');
}

/**
 * Path of one conversation's transcript.
 * @example transcriptPath('/h/agents/a1', 'conv-1') === '/h/agents/a1/transcripts/conv-1.jsonl'
 */
export function transcriptPath(agentDir: string, conversationId: string): string {
  return join(transcriptsDir(agentDir), `${conversationKey(conversationId)}.jsonl`);
}

/**
 * True for a JSON value shaped like a transcript row (used when reading files we did not write).
 * @example isTranscriptRow({ kind: 'user', text: 'hi', captured_at: '…' }) === true
 */
function isTranscriptRow(v: unknown): v is TranscriptRow {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const r = v as Record<string, unknown>;
  if (r['kind'] === 'tool_call') return true;
  return typeof r['kind'] === 'string' && TEXT_KINDS.has(r['kind']) && typeof r['text'] === 'string';
}

function checkRow(row: TranscriptRowInput, index: number): void {
  if (!isTranscriptRow({ captured_at: '', ...row })) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `transcript row ${index}: kind must be user, assistant, reasoning, error (with a string text) or tool_call`,
      { data: { index, kind: (row as { kind?: unknown }).kind } },
    );
  }
}

function physicalLines(path: string): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Appends rows to a conversation's transcript in one write. Missing `captured_at` gets the clock's time;
 * missing `source_line_id` gets `line-<n>`.
 * @example appendTranscript(agentDir, 'conv-1', [{ kind: 'user', text: 'use tabs' }, { kind: 'assistant', text: 'ok' }])
 */
export function appendTranscript(
  agentDir: string,
  conversationId: string,
  rows: TranscriptRowInput[],
  clock: () => Date = () => new Date(),
): void {
  rows.forEach(checkRow);
  if (rows.length === 0) return;
  const path = transcriptPath(agentDir, conversationId);
  mkdirSync(transcriptsDir(agentDir), { recursive: true });
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const torn = existing !== '' && !existing.endsWith('\n');
  let next = physicalLines(path).length + 1;
  const now = clock().toISOString();
  const text = rows
    .map((r) =>
      JSON.stringify({ ...r, captured_at: r.captured_at ?? now, source_line_id: r.source_line_id ?? `line-${next++}` }),
    )
    .join('\n');
  appendFileSync(path, `${torn ? '\n' : ''}${text}\n`);
}

/**
 * Reads a transcript with line numbers; blank and malformed lines are skipped but keep their numbers.
 * @example readNumberedTranscript(agentDir, 'conv-1').lines // total physical lines
 */
export function readNumberedTranscript(
  agentDir: string,
  conversationId: string,
): { rows: NumberedRow[]; lines: number } {
  const lines = physicalLines(transcriptPath(agentDir, conversationId));
  const rows: NumberedRow[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    try {
      const parsed: unknown = JSON.parse(text);
      if (isTranscriptRow(parsed)) rows.push({ line: i + 1, row: parsed });
    } catch {
      // a torn line from an interrupted write
    }
  });
  return { rows, lines: lines.length };
}

/**
 * Reads all rows of a conversation (empty when it has no transcript).
 * @example readTranscript(agentDir, 'conv-1').filter((r) => r.kind === 'assistant').length
 */
export function readTranscript(agentDir: string, conversationId: string): TranscriptRow[] {
  return readNumberedTranscript(agentDir, conversationId).rows.map((r) => r.row);
}

/**
 * True when the conversation has a transcript file.
 * @example hasTranscript(agentDir, 'default')
 */
export function hasTranscript(agentDir: string, conversationId: string): boolean {
  return existsSync(transcriptPath(agentDir, conversationId));
}

/**
 * Conversation ids (file-name form) with a transcript, most recently written first.
 * @example listConversations(agentDir) // ['conv-2', 'conv-1']
 */
export function listConversations(agentDir: string): string[] {
  const dir = transcriptsDir(agentDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => ({ id: f.slice(0, -'.jsonl'.length), mtime: statSync(join(dir, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime || a.id.localeCompare(b.id))
    .map((e) => e.id);
}
