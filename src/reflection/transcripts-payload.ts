/**
 * Renders transcript rows as the message array a reflection sub-agent reads: a meta header,
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

/** Cuts a string to at most `n` UTF-16 units without splitting a surrogate pair. */
function cut(text: string, n: number): string {
  if (text.length <= n) return text;
  const last = text.charCodeAt(n - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

interface Budget {
  text: number;
  items: number;
  depth: number;
}

/** Successively tighter budgets: the first whose result fits the cap is used. */
const BUDGETS: readonly Budget[] = [
  { text: 160, items: 16, depth: 6 },
  { text: 64, items: 8, depth: 4 },
  { text: 24, items: 4, depth: 3 },
  { text: 8, items: 2, depth: 2 },
  { text: 0, items: 1, depth: 1 },
];

/** The same JSON shape with long strings (and keys), long arrays, many keys and deep nesting cut down. */
function shrink(v: unknown, b: Budget, depth: number): unknown {
  if (typeof v === 'string') return v.length <= b.text ? v : `${cut(v, b.text)}… [truncated, ${v.length} chars]`;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= b.depth) return '… [truncated]';
  if (Array.isArray(v)) {
    const kept = v.slice(0, b.items).map((x: unknown) => shrink(x, b, depth + 1));
    return v.length > b.items ? [...kept, `… [${v.length - b.items} more]`] : kept;
  }
  const entries = Object.entries(v);
  // fromEntries defines own properties, so a key such as "__proto__" stays a plain key
  const kept = entries
    .slice(0, b.items)
    .map(([k, x]) => [
      k.length <= Math.max(b.text, 16) ? k : `${cut(k, Math.max(b.text, 16))}…`,
      shrink(x, b, depth + 1),
    ]);
  if (entries.length > b.items) kept.push(['…', `${entries.length - b.items} more keys`]);
  return Object.fromEntries(kept);
}

/** Text as a JSON string of at most `cap` characters once serialised (escapes included). */
function boundedText(text: string, cap: number): string {
  if (JSON.stringify(text).length <= cap) return text;
  for (let n = cap; ; n = Math.floor(n * 0.8)) {
    const s = `${cut(text, n)}… [truncated, ${text.length} chars]`;
    if (n === 0 || JSON.stringify(s).length <= cap) return s;
  }
}

/**
 * Arguments as a JSON value whose serialisation is at most {@link ARGS_CAP} characters: the parsed value when
 * it fits, else the same shape with its long parts cut (still valid JSON, never a cut-off JSON text); text
 * that is not JSON becomes a bounded string.
 * @example boundedArgs('{"path":"a.md"}') // { path: 'a.md' }
 */
function boundedArgs(argsText: string | undefined, cap = ARGS_CAP): unknown {
  if (argsText === undefined || argsText === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(argsText);
  } catch {
    return boundedText(argsText, cap);
  }
  if (fits(parsed, cap)) return parsed;
  for (const budget of BUDGETS) {
    const shrunk = shrink(parsed, budget, 0);
    if (fits(shrunk, cap)) return shrunk;
  }
  return boundedText(argsText, cap);
}

/** True when `v` serialises within `cap` (nesting too deep to serialise does not fit). */
function fits(v: unknown, cap: number): boolean {
  try {
    return JSON.stringify(v).length <= cap;
  } catch {
    return false;
  }
}

/**
 * Keeps the head and the tail of a long text.
 * @example headTail('x'.repeat(5000)).length <= 2500
 */
function headTail(text: string, cap = RESULT_CAP): string {
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
      out.push({
        role: 'assistant',
        content: '',
        tool_calls: [{ id, name: row.name ?? 'unknown', args: boundedArgs(row.argsText) }],
        timestamp,
      });
      if (row.resultText !== undefined) {
        const prefix = row.resultOk === false ? '[error] ' : '';
        out.push({ role: 'tool', tool_call_id: id, content: headTail(prefix + row.resultText), timestamp });
      }
    }
  });
  return out;
}
