/**
 * The common message form of `--from transcript:` rows, `{"role", "content"}` as harnesses write their
 * conversations: OpenAI chat messages (`tool_calls` on the assistant, `role: "tool"` results), AI SDK model
 * messages (`content: [{type: 'text' | 'reasoning' | 'tool-call' | 'tool-result'}]`) and AI SDK UI messages
 * (`parts: [{type: 'text' | 'reasoning' | 'tool-<name>' | 'dynamic-tool'}]`). System rows are skipped; a
 * tool result is attached to the call it answers, however many rows later.
 */
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { capResult, isoTimestamp, isRecord, textOf } from './common.js';

type Part = Record<string, unknown>;

/** What one message row needs: its id base and time; tool calls are remembered across rows. */
interface RowCtx {
  rows: TranscriptRow[];
  calls: Map<string, TranscriptToolRow>;
  id: string;
  at: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Arguments as JSON text: OpenAI sends a string already, the AI SDK a value (`input`, or `args` before v5). */
function argsText(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A tool result as text, and whether it was an error (AI SDK `output` types, older `result` + `isError`). */
function resultOf(p: Part): { text: string; ok: boolean } {
  const output = p['output'];
  if (isRecord(output) && typeof output['type'] === 'string') {
    const { type, value } = output;
    const ok = !String(type).startsWith('error') && type !== 'execution-denied';
    const text =
      type === 'content'
        ? textOf(value)
        : typeof value === 'string'
          ? value
          : JSON.stringify(value ?? output['reason'] ?? '');
    return { text, ok };
  }
  const raw = output !== undefined ? output : p['result'];
  const text = typeof raw === 'string' ? raw : textOf(raw) || JSON.stringify(raw ?? '');
  return { text, ok: p['isError'] !== true && p['is_error'] !== true };
}

function addCall(
  ctx: RowCtx,
  callId: string | undefined,
  name: string | undefined,
  args: string | undefined,
  key: string,
): TranscriptToolRow {
  const row: TranscriptToolRow = {
    kind: 'tool_call',
    captured_at: ctx.at,
    source_message_id: `${ctx.id}:${callId ?? key}`,
  };
  if (name) row.name = name;
  if (args !== undefined) row.argsText = args;
  ctx.rows.push(row);
  if (callId) ctx.calls.set(callId, row);
  return row;
}

function attach(ctx: RowCtx, callId: string | undefined, r: { text: string; ok: boolean }): void {
  const call = callId ? ctx.calls.get(callId) : undefined;
  if (!call) return; // a result whose call is not in this file
  call.resultText = capResult(r.text);
  call.resultOk = r.ok;
}

function text(ctx: RowCtx, kind: 'user' | 'assistant' | 'reasoning', value: unknown, id: string): void {
  if (typeof value === 'string' && value.trim() !== '')
    ctx.rows.push({ kind, text: value, captured_at: ctx.at, source_message_id: id });
}

/** One content part or UI part of a user/assistant/tool message. */
function part(ctx: RowCtx, role: 'user' | 'assistant', p: Part, i: number): void {
  const type = typeof p['type'] === 'string' ? p['type'] : '';
  if (type === 'text') text(ctx, role, p['text'], `${ctx.id}:${i}`);
  else if (type === 'reasoning') text(ctx, 'reasoning', p['text'], `${ctx.id}:${i}`);
  else if (type === 'tool-call')
    addCall(ctx, str(p['toolCallId']), str(p['toolName']), argsText(p['input'] ?? p['args']), String(i));
  else if (type === 'tool-result') attach(ctx, str(p['toolCallId']), resultOf(p));
  else if (type === 'dynamic-tool' || (type.startsWith('tool-') && type.length > 'tool-'.length))
    uiTool(ctx, p, type, i);
}

/** An AI SDK UI tool part: the call and, once available, its output or error, in one part. */
function uiTool(ctx: RowCtx, p: Part, type: string, i: number): void {
  const name = type === 'dynamic-tool' ? str(p['toolName']) : type.slice('tool-'.length);
  const call = addCall(ctx, str(p['toolCallId']), name, argsText(p['input']), String(i));
  if (typeof p['errorText'] === 'string') {
    call.resultText = capResult(p['errorText']);
    call.resultOk = false;
  } else if (p['output'] !== undefined) {
    const r = resultOf({ result: p['output'] });
    call.resultText = capResult(r.text);
    call.resultOk = true;
  }
}

/** OpenAI chat: `tool_calls` beside the assistant's content. */
function openAiCalls(ctx: RowCtx, calls: unknown): void {
  if (!Array.isArray(calls)) return;
  calls.forEach((c: unknown, i) => {
    if (!isRecord(c)) return;
    const fn = isRecord(c['function']) ? c['function'] : {};
    addCall(ctx, str(c['id']), str(fn['name']), argsText(fn['arguments']), String(i));
  });
}

/**
 * Converts one message row (any of the three forms) into transcript rows, appended to `out.rows`; `out.calls`
 * carries tool calls between rows so later results find them.
 * @example const out = { rows: [], calls: new Map() }; messageRows(out, { role: 'user', content: 'hi' }, 1, now)
 */
export function messageRows(
  out: Pick<RowCtx, 'rows' | 'calls'>,
  v: Record<string, unknown>,
  line: number,
  now: () => Date,
): void {
  const role = v['role'];
  const at = isoTimestamp(v['timestamp'] ?? v['createdAt'] ?? v['created_at'] ?? v['captured_at'], now);
  const ctx: RowCtx = { ...out, id: str(v['id']) ?? `L${line}`, at };
  if (role === 'tool') {
    const content = v['content'];
    if (Array.isArray(content))
      content.forEach(
        (p: unknown) => isRecord(p) && p['type'] === 'tool-result' && attach(ctx, str(p['toolCallId']), resultOf(p)),
      );
    else attach(ctx, str(v['tool_call_id']), { text: textOf(content), ok: true });
    return;
  }
  if (role !== 'user' && role !== 'assistant') return; // system, developer and unknown roles teach nothing here
  const parts = Array.isArray(v['parts']) && v['content'] === undefined ? v['parts'] : v['content'];
  if (typeof parts === 'string') text(ctx, role, parts, ctx.id);
  else if (Array.isArray(parts)) parts.forEach((p: unknown, i) => isRecord(p) && part(ctx, role, p, i));
  if (role === 'assistant') openAiCalls(ctx, v['tool_calls']);
}
