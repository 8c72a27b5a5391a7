/**
 * `--from openhands:<dir | file>`: OpenHands agent-SDK event logs. A directory holds
 * `event-<n>-<id>.json` files (in `events/` when present); a file is a JSON array or `{"items": [...]}`.
 * Messages become user/assistant rows, actions become an optional thought plus a tool_call row whose result
 * comes from the matching observation, error or rejection.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../../errors.js';
import type { TranscriptRow, TranscriptToolRow } from '../transcripts.js';
import { capResult, isoTimestamp, isRecord, notOfShape, parseJson, readSourceFile, textOf } from './common.js';

type Event = Record<string, unknown>;
interface Result {
  text: string;
  ok: boolean;
}

const EVENT_FILE = /^event-(\d+)-.*\.json$/;
/** An event's `kind` is its class name ("MessageEvent", "ActionEvent", …); gitmem's own rows say "user". */
const EVENT_KIND = /^[A-Z][A-Za-z0-9]*$/;
const EXPECTED = 'OpenHands events: JSON objects whose "kind" names an event class ("MessageEvent", "ActionEvent", …)';

function isEvent(v: unknown): v is Event {
  return isRecord(v) && typeof v['kind'] === 'string' && EVENT_KIND.test(v['kind']);
}

/**
 * The events of a directory, in order. Each event file must hold one event (else INVALID_ARGUMENT naming it),
 * except a last file that is not JSON after at least one event: a live conversation's torn tail.
 */
function eventsFromDir(dir: string): Event[] {
  const base =
    existsSync(join(dir, 'events')) && statSync(join(dir, 'events')).isDirectory() ? join(dir, 'events') : dir;
  const files = readdirSync(base)
    .map((name) => ({ name, m: EVENT_FILE.exec(name) }))
    .filter((f): f is { name: string; m: RegExpExecArray } => f.m !== null)
    .sort((a, b) => Number(a.m[1]) - Number(b.m[1]));
  if (files.length === 0) {
    throw new MemoryError('FILE_NOT_FOUND', `No OpenHands event files (event-*.json) found in ${base}`, {
      data: { path: base },
    });
  }
  const events: Event[] = [];
  files.forEach((f, i) => {
    const v = parseJson(readSourceFile(join(base, f.name)));
    if (isEvent(v)) events.push(v);
    else if (!(v === undefined && i === files.length - 1 && events.length > 0))
      throw notOfShape('an OpenHands event', join(base, f.name), undefined, EXPECTED);
  });
  return events;
}

/** The events of a JSON array or `{"items": [...]}` file; every item must be an event. */
function eventsFromFile(path: string): Event[] {
  const v = parseJson(readSourceFile(path));
  const list: unknown[] | undefined = Array.isArray(v)
    ? v
    : isRecord(v) && Array.isArray(v['items'])
      ? v['items']
      : undefined;
  if (!list) throw notOfShape('an OpenHands event log', path, undefined, 'a JSON array of events or {"items": [...]}');
  const bad = list.findIndex((e) => !isEvent(e));
  if (bad >= 0) throw notOfShape('an OpenHands event log', path, `item ${bad + 1}`, EXPECTED);
  return list as Event[];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Results by tool_call_id and by action_id. */
function collectResults(events: Event[]): Map<string, Result> {
  const results = new Map<string, Result>();
  const put = (e: Event, r: Result) => {
    for (const key of [str(e['tool_call_id']), str(e['action_id'])]) if (key && !results.has(key)) results.set(key, r);
  };
  for (const e of events) {
    if (e['kind'] === 'ObservationEvent') {
      const obs = isRecord(e['observation']) ? e['observation'] : {};
      put(e, { text: textOf(obs['content']), ok: obs['is_error'] !== true });
    } else if (e['kind'] === 'AgentErrorEvent') {
      put(e, { text: String(e['error'] ?? ''), ok: false });
    } else if (e['kind'] === 'UserRejectObservation') {
      put(e, { text: String(e['rejection_reason'] ?? ''), ok: false });
    }
  }
  return results;
}

function argsOf(e: Event): string | undefined {
  const call = isRecord(e['tool_call']) ? e['tool_call'] : undefined;
  if (call && typeof call['arguments'] === 'string') return call['arguments'];
  if (isRecord(e['action'])) {
    const { kind: _kind, ...rest } = e['action'];
    return JSON.stringify(rest);
  }
  return undefined;
}

function actionRows(e: Event, id: string, at: string, results: Map<string, Result>): TranscriptRow[] {
  const rows: TranscriptRow[] = [];
  const thought = textOf(e['thought']).trim();
  if (thought !== '')
    rows.push({ kind: 'assistant', text: thought, captured_at: at, source_message_id: `${id}:thought` });
  const tool: TranscriptToolRow = { kind: 'tool_call', captured_at: at, source_message_id: id };
  const name = str(e['tool_name']);
  if (name) tool.name = name;
  const args = argsOf(e);
  if (args !== undefined) tool.argsText = args;
  const result = results.get(str(e['tool_call_id']) ?? '\0') ?? results.get(id);
  if (result) {
    tool.resultText = capResult(result.text);
    tool.resultOk = result.ok;
  }
  rows.push(tool);
  return rows;
}

function convert(events: Event[], now: () => Date): TranscriptRow[] {
  const results = collectResults(events);
  const rows: TranscriptRow[] = [];
  for (const e of events) {
    const id = str(e['id']);
    if (!id) continue;
    const at = isoTimestamp(e['timestamp'], now);
    if (e['kind'] === 'MessageEvent' && (e['source'] === 'user' || e['source'] === 'agent')) {
      const msg = isRecord(e['llm_message']) ? e['llm_message'] : {};
      const text = textOf(msg['content']).trim();
      if (text !== '')
        rows.push({
          kind: e['source'] === 'user' ? 'user' : 'assistant',
          text,
          captured_at: at,
          source_message_id: id,
        });
    } else if (e['kind'] === 'ActionEvent') {
      rows.push(...actionRows(e, id, at, results));
    }
  }
  return rows;
}

/**
 * Parses an OpenHands conversation directory or event file.
 * @example parseOpenHands('/data/conversations/abc', () => new Date())
 */
export function parseOpenHands(path: string, now: () => Date): TranscriptRow[] {
  if (!existsSync(path))
    throw new MemoryError('FILE_NOT_FOUND', `OpenHands source not found: ${path}`, { data: { path } });
  const events = statSync(path).isDirectory() ? eventsFromDir(path) : eventsFromFile(path);
  return convert(events, now);
}
