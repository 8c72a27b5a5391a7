/**
 * `--from transcript:<file>`: a conversation another harness wrote, as JSONL (or one JSON array, or
 * `{"messages": [...]}`) of rows in either form: gitmem's own transcript rows (`{"kind", "text", …}`), or the
 * common message form `{"role", "content"}` of OpenAI and AI SDK messages (see messages.ts). Rows without an
 * id get one from their line number, so re-ingestion stays idempotent.
 */
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { isoTimestamp, isRecord, notOfShape, parseJson, readSourceFile } from './common.js';
import { messageRows } from './messages.js';

const TEXT_KINDS = new Set(['user', 'assistant', 'reasoning', 'error']);
const EXPECTED =
  'one transcript row {"kind": "user" | "assistant" | "reasoning" | "error" | "tool_call", …} or message {"role", "content"} per line';

/** A gitmem transcript row: `kind` is one of the row kinds (an event log's `"kind": "MessageEvent"` is not). */
function isRowForm(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && typeof v['kind'] === 'string' && (v['kind'] === 'tool_call' || TEXT_KINDS.has(v['kind']));
}

function toRow(v: Record<string, unknown>, line: number, now: () => Date): TranscriptRow | undefined {
  const captured_at = isoTimestamp(v['captured_at'], now);
  const id =
    typeof v['source_message_id'] === 'string' && v['source_message_id'] !== '' ? v['source_message_id'] : `L${line}`;
  if (v['kind'] === 'tool_call') {
    const row: TranscriptRow = { kind: 'tool_call', captured_at, source_message_id: id };
    if (typeof v['name'] === 'string') row.name = v['name'];
    if (typeof v['argsText'] === 'string') row.argsText = v['argsText'];
    if (typeof v['resultText'] === 'string') row.resultText = v['resultText'];
    if (typeof v['resultOk'] === 'boolean') row.resultOk = v['resultOk'];
    return row;
  }
  const kind = v['kind'];
  const text = typeof v['text'] === 'string' ? v['text'] : '';
  if (text.trim() === '') return undefined; // nothing to learn from an empty row
  return { kind: kind as 'user', text, captured_at, source_message_id: id };
}

/** The file's rows with their 1-based line (or array index + 1); undefined marks a line that is not JSON. */
function readRows(path: string): { line: number; value: unknown }[] {
  const text = readSourceFile(path);
  const whole = /^\s*[[{]/.test(text) ? wholeFile(text) : undefined;
  if (whole) return whole.map((value, i) => ({ line: i + 1, value }));
  const out: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() !== '') out.push({ line: i + 1, value: parseJson(raw) });
  });
  return out;
}

/** A file that is one JSON array of rows, or `{"messages": [...]}` (else it is JSONL). */
function wholeFile(text: string): unknown[] | undefined {
  const v = parseJson(text);
  if (Array.isArray(v)) return v;
  return isRecord(v) && Array.isArray(v['messages']) ? v['messages'] : undefined;
}

/**
 * Parses a transcript file in either row form (they may be mixed). Every row must be of one of them (else
 * INVALID_ARGUMENT naming the line); an empty file is an empty conversation.
 * @example parseTranscriptFile('/tmp/t.jsonl', () => new Date()).length
 */
export function parseTranscriptFile(path: string, now: () => Date): TranscriptRow[] {
  const out = { rows: [] as TranscriptRow[], calls: new Map<string, TranscriptToolRow>() };
  for (const { line, value } of readRows(path)) {
    if (isRowForm(value)) {
      const row = toRow(value, line, now);
      if (row) out.rows.push(row);
    } else if (isRecord(value) && typeof value['role'] === 'string') {
      messageRows(out, value, line, now);
    } else {
      throw notOfShape('a transcript', path, `line ${line}`, EXPECTED);
    }
  }
  return out.rows;
}
