/**
 * `--from transcript:<file.jsonl>`: a JSONL file of rows in the transcript format (SPEC B11.8), written by
 * another harness. Rows without an id get one from their line number so re-ingestion stays idempotent.
 */
import { MemoryError } from '../../errors.js';
import type { TranscriptRow } from '../transcripts.js';
import { isoTimestamp, isRecord, readSourceFile } from './common.js';

const TEXT_KINDS = new Set(['user', 'assistant', 'reasoning', 'error']);

function toRow(v: Record<string, unknown>, line: number, now: () => Date): TranscriptRow | undefined {
  const captured_at = isoTimestamp(v['captured_at'], now);
  const id = typeof v['source_message_id'] === 'string' && v['source_message_id'] !== '' ? v['source_message_id'] : `L${line}`;
  if (v['kind'] === 'tool_call') {
    const row: TranscriptRow = { kind: 'tool_call', captured_at, source_message_id: id };
    if (typeof v['name'] === 'string') row.name = v['name'];
    if (typeof v['argsText'] === 'string') row.argsText = v['argsText'];
    if (typeof v['resultText'] === 'string') row.resultText = v['resultText'];
    if (typeof v['resultOk'] === 'boolean') row.resultOk = v['resultOk'];
    return row;
  }
  const kind = v['kind'];
  if (typeof kind !== 'string' || !TEXT_KINDS.has(kind)) return undefined;
  const text = typeof v['text'] === 'string' ? v['text'] : '';
  if (text.trim() === '') return undefined; // nothing to learn from an empty row
  return { kind: kind as 'user', text, captured_at, source_message_id: id };
}

/**
 * Parses a JSONL transcript file.
 * @example parseTranscriptFile('/tmp/t.jsonl', () => new Date()).length
 */
export function parseTranscriptFile(path: string, now: () => Date): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  readSourceFile(path)
    .split('\n')
    .forEach((text, i) => {
      if (text.trim() === '') return;
      let v: unknown;
      try {
        v = JSON.parse(text);
      } catch {
        v = undefined;
      }
      if (!isRecord(v) || typeof v['kind'] !== 'string') {
        throw new MemoryError('INVALID_ARGUMENT', `Could not parse a JSONL transcript row in ${path} (line ${i + 1})`, {
          data: { path, line: i + 1 },
        });
      }
      const row = toRow(v, i + 1, now);
      if (row) rows.push(row);
    });
  return rows;
}
