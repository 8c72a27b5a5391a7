/**
 * Renders transcript rows as the message array a reflection sub-agent reads (SPEC B10.13): a meta header,
 * then user/assistant messages, tool calls with short arguments and tool results bounded in size. Errors
 * and reasoning are left out; no system message is included.
 */
import type { TranscriptRow } from './transcripts.js';

/** One element of the payload array. */
export type PayloadMessage =
  | { role: 'meta'; source: string }
  | { role: 'user' | 'assistant'; content: string; timestamp: string }
  | { role: 'assistant'; content: string; tool_calls: { id: string; name: string; args: unknown }[]; timestamp: string }
  | { role: 'tool'; tool_call_id: string; content: string; timestamp: string };

/** Longest serialised tool-call arguments kept. */
export const ARGS_CAP = 300;
/** Longest tool result kept (head and tail around a marker). */
export const RESULT_CAP = 2_500;

function stamp(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? new Date(0).toISOString() : d.toISOString();
}

/**
 * Arguments as JSON no longer than {@link ARGS_CAP}: the parsed value when it fits, else a truncated string.
 * @example boundedArgs('{"path":"a.md"}') // { path: 'a.md' }
 */
export function boundedArgs(argsText: string | undefined): unknown {
  if (argsText === undefined || argsText === '') return {};
  try {
    const parsed: unknown = JSON.parse(argsText);
    if (JSON.stringify(parsed).length <= ARGS_CAP) return parsed;
  } catch {
    // not JSON: kept as text below
  }
  return argsText.length <= ARGS_CAP - 2 ? argsText : `${argsText.slice(0, ARGS_CAP - 20)}… [truncated]`;
}

/**
 * Keeps the head and the tail of a long text.
 * @example headTail('x'.repeat(5000)).length <= 2500
 */
export function headTail(text: string, cap = RESULT_CAP): string {
  if (text.length <= cap) return text;
  const marker = `\n… [${text.length - cap} characters omitted] …\n`;
  const room = Math.max(0, cap - marker.length);
  const head = Math.ceil(room / 2);
  return `${text.slice(0, head)}${marker}${text.slice(text.length - (room - head))}`;
}

/**
 * Builds the payload array for a slice of rows.
 * @example JSON.stringify(buildTranscriptPayload(unreflectedSlice(agentDir, 'conv-1').rows), null, 2)
 */
export function buildTranscriptPayload(rows: TranscriptRow[], source = 'gitmem'): PayloadMessage[] {
  const out: PayloadMessage[] = [{ role: 'meta', source }];
  rows.forEach((row, i) => {
    const timestamp = stamp(row.captured_at);
    if (row.kind === 'user' || row.kind === 'assistant') {
      out.push({ role: row.kind, content: row.text, timestamp });
    } else if (row.kind === 'tool_call') {
      const id = row.source_message_id ?? row.source_line_id ?? `call-${i + 1}`;
      out.push({ role: 'assistant', content: '', tool_calls: [{ id, name: row.name ?? 'unknown', args: boundedArgs(row.argsText) }], timestamp });
      if (row.resultText !== undefined) {
        const prefix = row.resultOk === false ? '[error] ' : '';
        out.push({ role: 'tool', tool_call_id: id, content: headTail(prefix + row.resultText), timestamp });
      }
    }
  });
  return out;
}
