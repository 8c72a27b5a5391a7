/**
 * `--from codex:<rollout.jsonl | sessions dir>`: OpenAI Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/
 * rollout-<ts>-<uuid>.jsonl`, one `{timestamp, type, payload}` per line, a `session_meta` first). Rows come from
 * the `response_item` lines only: `event_msg` lines repeat them for the UI, and `turn_context`, `world_state`,
 * token records and the like teach nothing. Lines have no id, so rows are keyed by the byte offset of their line
 * (`codex:<offset>`), stable across incremental reads. Readable from a byte offset, for hooks.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../../errors.js';
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { capResult, isoTimestamp, isRecord, parseJson } from './common.js';
import { readFirstLine, readJsonlFrom } from './jsonl.js';

type Rec = Record<string, unknown>;
interface Line {
  timestamp?: unknown;
  type: string;
  payload: Rec;
}

const EXPECTED = 'one JSON object {"timestamp", "type", "payload": {…}} per line, the first of type "session_meta"';

/**
 * User-role items Codex writes itself, not the user: the environment (`<environment_context>`), AGENTS.md and
 * config instructions (`<user_instructions>`, `# AGENTS.md instructions for <dir>`), the sandbox policy
 * (`<permissions instructions>`), the marker of an interrupted turn (`<turn_aborted>`), a sub-agent's report
 * (`<subagent_notification>`) and an invoked skill's text (`<skill>`). Codex 0.169 also tags every item's
 * provenance ("harness" or "user", see {@link isInjected}); the prefixes cover rollouts written before that.
 * Developer items (permissions, skills, hook context) are dropped whole: the user never said them.
 */
const INJECTED_PREFIXES = [
  '<environment_context>',
  '<user_instructions>',
  '# AGENTS.md instructions',
  '<permissions instructions>',
  '<turn_aborted>',
  '<subagent_notification>',
  '<skill>',
];

function isRolloutLine(v: unknown, at: number): v is Line {
  if (!isRecord(v) || typeof v['type'] !== 'string' || v['type'] === '' || !isRecord(v['payload'])) return false;
  return at !== 0 || v['type'] === 'session_meta'; // a rollout starts with its session_meta
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** The provenance Codex records for content item `i` of a message ("harness" for what it injected). */
function isInjected(payload: Rec, i: number, text: string): boolean {
  const meta = isRecord(payload['internal_chat_message_metadata_passthrough'])
    ? payload['internal_chat_message_metadata_passthrough']
    : {};
  const items = Array.isArray(meta['content_item_metadata']) ? (meta['content_item_metadata'] as unknown[]) : [];
  const item = items[i];
  if (isRecord(item) && isRecord(item['provenance']) && item['provenance']['type'] === 'harness') return true;
  const start = text.trimStart();
  return INJECTED_PREFIXES.some((p) => start.startsWith(p));
}

/** The texts of `[{type, text}]` items of the given types, joined; `keep` filters by item index. */
function texts(content: unknown, types: string[], keep: (i: number, text: string) => boolean = () => true): string {
  if (!Array.isArray(content)) return '';
  return content
    .map((c: unknown, i) =>
      isRecord(c) && types.includes(String(c['type'])) && typeof c['text'] === 'string' && keep(i, c['text'])
        ? c['text']
        : '',
    )
    .filter((t) => t.trim() !== '')
    .join('\n');
}

/** A tool's output as text, and a guess at success: a non-zero exit code or `success: false` is a failure. */
function resultOf(output: unknown): { text: string; ok: boolean } {
  if (isRecord(output)) {
    const r = resultOf(output['content']);
    return { text: r.text, ok: r.ok && output['success'] !== false };
  }
  const raw = typeof output === 'string' ? output : texts(output, ['input_text', 'output_text', 'text']);
  const json = parseJson(raw);
  if (isRecord(json)) {
    const meta = isRecord(json['metadata']) ? json['metadata'] : {};
    const code = meta['exit_code'] ?? json['exit_code'];
    const failed =
      json['success'] === false ||
      json['isError'] === true ||
      json['is_error'] === true ||
      (typeof code === 'number' && code !== 0);
    return { text: typeof json['output'] === 'string' ? json['output'] : raw, ok: !failed };
  }
  const code = /^Exit code: (-?\d+)/m.exec(raw) ?? /Process exited with code (-?\d+)/.exec(raw);
  return { text: raw, ok: !code || Number(code[1]) === 0 };
}

interface Ctx {
  rows: TranscriptRow[];
  calls: Map<string, TranscriptToolRow>;
}

/** A tool call row; an MCP tool reads `mcp__<server>__<tool>` as in Claude Code (Codex splits namespace and name). */
function callRow(ctx: Ctx, p: Rec, id: string, at: string): void {
  const row: TranscriptToolRow = { kind: 'tool_call', captured_at: at, source_message_id: id };
  const name = str(p['name']) ?? (p['type'] === 'local_shell_call' ? 'local_shell' : undefined);
  const ns = str(p['namespace']);
  if (name) row.name = ns && !name.startsWith(`${ns}__`) ? `${ns}__${name}` : name;
  const args = p['arguments'] ?? p['input'] ?? p['action'];
  if (args !== undefined) row.argsText = typeof args === 'string' ? args : JSON.stringify(args);
  ctx.rows.push(row);
  const callId = str(p['call_id']) ?? str(p['id']);
  if (callId) ctx.calls.set(callId, row);
}

function convertItem(ctx: Ctx, p: Rec, id: string, at: string): void {
  const type = p['type'];
  if (type === 'message' && (p['role'] === 'user' || p['role'] === 'assistant')) {
    const keep = (i: number, text: string) => p['role'] !== 'user' || !isInjected(p, i, text);
    const text = texts(p['content'], ['input_text', 'output_text', 'text'], keep);
    if (text !== '') ctx.rows.push({ kind: p['role'], text, captured_at: at, source_message_id: id });
  } else if (type === 'reasoning') {
    const text = texts(p['summary'], ['summary_text']) || texts(p['content'], ['reasoning_text', 'text']);
    if (text !== '') ctx.rows.push({ kind: 'reasoning', text, captured_at: at, source_message_id: id });
  } else if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
    callRow(ctx, p, id, at);
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const call = ctx.calls.get(str(p['call_id']) ?? '\0');
    if (!call) return; // its call is before the offset this read started at (that read returned it unanswered)
    const r = resultOf(p['output']);
    call.resultText = capResult(r.text);
    call.resultOk = r.ok;
  }
  // tool_search_call/_output (Codex loading tool schemas), web searches, compaction and snapshots: not a turn
}

function readRollout(
  path: string,
  offset: number,
  now: () => Date,
  includeTail: boolean,
): { rows: TranscriptRow[]; end: number } {
  const { lines, end } = readJsonlFrom(path, offset, {
    what: 'a Codex rollout',
    expected: EXPECTED,
    isLine: isRolloutLine,
    includeTail,
  });
  const ctx: Ctx = { rows: [], calls: new Map() };
  for (const { value, at } of lines) {
    if (value.type === 'response_item')
      convertItem(ctx, value.payload, `codex:${at}`, isoTimestamp(value.timestamp, now));
  }
  return { rows: ctx.rows, end };
}

/**
 * True when a rollout's `session_meta` payload marks a spawned sub-agent or a fork rather than a session the
 * user ran. A heuristic (the field set varies by Codex version): `source` an object (`{"subagent": …}`) or a
 * string naming a sub-agent, `thread_source` naming one, or a parent/fork id present. A user's session has
 * `source` "cli", "exec", "vscode" or "mcp" and `thread_source` "user".
 * @example isCodexSubagentMeta({ source: { subagent: 'review' } }) === true
 */
export function isCodexSubagentMeta(payload: unknown): boolean {
  if (!isRecord(payload)) return false;
  const named = (v: unknown) => typeof v === 'string' && /sub_?agent/i.test(v);
  if (isRecord(payload['source']) || named(payload['source']) || named(payload['thread_source'])) return true;
  return ['forked_from_id', 'parent_thread_id', 'parent_id', 'parent_session_id'].some((k) => payload[k] != null);
}

function rolloutFiles(dir: string): { path: string; mtime: number }[] {
  const out: { path: string; mtime: number }[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...rolloutFiles(path));
    else if (e.isFile() && e.name.startsWith('rollout-') && e.name.endsWith('.jsonl'))
      out.push({ path, mtime: statSync(path).mtimeMs });
  }
  return out;
}

/**
 * The rollout a locator names: the file itself, or in a directory (`$CODEX_HOME/sessions`, a day's folder, any
 * folder) the most recently written `rollout-*.jsonl` under it, at any depth, that is not a sub-agent's (see
 * {@link isCodexSubagentMeta}).
 * @example resolveCodexRollout(`${process.env.CODEX_HOME}/sessions`) // '/…/sessions/2026/12/04/rollout-….jsonl'
 */
export function resolveCodexRollout(path: string): string {
  if (!existsSync(path)) throw new MemoryError('FILE_NOT_FOUND', `Codex source not found: ${path}`, { data: { path } });
  if (!statSync(path).isDirectory()) return path;
  const files = rolloutFiles(path).sort((a, b) => b.mtime - a.mtime || b.path.localeCompare(a.path));
  const main = files.find((f) => {
    const first = parseJson(readFirstLine(f.path) ?? '');
    return !(isRecord(first) && first['type'] === 'session_meta' && isCodexSubagentMeta(first['payload']));
  });
  if (!main) {
    const what = files.length === 0 ? 'No Codex rollouts (rollout-*.jsonl)' : 'Only sub-agent Codex rollouts';
    throw new MemoryError('FILE_NOT_FOUND', `${what} found under ${path}`, { data: { path } });
  }
  return main.path;
}

/**
 * Reads a Codex rollout file from byte `offset` (0, or the `end` of the previous read): the rows of the complete
 * lines from there, and `end`, the offset after the last line consumed. A torn last line is left for the next
 * read. Row ids are line offsets, so they match a whole-file read's. A tool output whose call is before
 * `offset` is dropped (the call was returned by the earlier read, without its result).
 * @example let { rows, end } = parseCodexFrom(transcriptPath, 0, now); ({ rows, end } = parseCodexFrom(transcriptPath, end, now))
 */
export function parseCodexFrom(path: string, offset: number, now: () => Date): { rows: TranscriptRow[]; end: number } {
  return readRollout(path, offset, now, false);
}

/**
 * Parses a whole Codex rollout (or the newest non-sub-agent rollout under a directory). A file that is not one
 * is refused, naming the first line that does not fit.
 * @example parseCodex('/home/me/.codex/sessions', () => new Date()).filter((r) => r.kind === 'user')
 */
export function parseCodex(path: string, now: () => Date): TranscriptRow[] {
  return readRollout(resolveCodexRollout(path), 0, now, true).rows;
}
