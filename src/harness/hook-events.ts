/**
 * The hook events gitmem answers (`gitmem hook <harness> <event>`) and, per harness, the transcript source its
 * sessions are read with. The harness catalogue (catalogue.ts) maps each harness's own event names onto these.
 */
import { claudeSubagentFiles, parseClaudeCodeFrom, parseCodexFrom, type SourceType, type TranscriptRow } from '../internals.js';

/** What each event does (usage text). */
export const HOOK_EVENTS = {
  'session-start': 'print the memory as the session\'s context (also after a compaction or a resume)',
  'turn-end': 'record where the transcript stands; reflect when the turn count reaches the trigger',
  'session-end': 'record where the transcript stands; reflect over the session\'s new part',
  reflect: 'reflect now over every recorded session\'s unreflected part (what the other events start, detached)',
} as const;

export type HookEvent = keyof typeof HOOK_EVENTS;

export function isHookEvent(v: string): v is HookEvent {
  return Object.hasOwn(HOOK_EVENTS, v);
}

interface HarnessSource {
  source: SourceType;
  /** Rows of the complete lines from a byte offset, and the offset after the last one. */
  parseFrom: (path: string, offset: number, now: () => Date) => { rows: TranscriptRow[]; end: number };
  /** Other files of the session read whole each time (their rows are staged once, by id): sub-agents. */
  companions?: (path: string) => string[];
}

/** Each harness's transcript source. */
export const HARNESS_SOURCES = {
  'claude-code': { source: 'claude-code', parseFrom: parseClaudeCodeFrom, companions: claudeSubagentFiles },
  codex: { source: 'codex' as SourceType, parseFrom: parseCodexFrom },
} as const satisfies Record<string, HarnessSource>;

export type HarnessName = keyof typeof HARNESS_SOURCES;

export function isHarnessName(v: string): v is HarnessName {
  return Object.hasOwn(HARNESS_SOURCES, v);
}
