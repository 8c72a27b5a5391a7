/**
 * The payload of a reflection over several conversations: one manifest with a slice per conversation —
 * its unreflected range, else a replay of its last user turns — under a total character budget (the first
 * slice is always kept). The manifest and each slice are written under
 * `<agentDir>/multi-reflection-payloads/<run>/` for the record; the sub-agent reads one file, the manifest
 * with every slice's messages inline (its sandbox sees that file only).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unreflectedSlice } from './cursor.js';
import { buildTranscriptPayload, type PayloadMessage } from './transcripts-payload.js';
import { conversationKey, readNumberedTranscript, type TranscriptRow } from './transcripts.js';

/** The manifest's type tag and schema. */
export const MULTI_PAYLOAD_TYPE = 'multi_transcript_reflection_payload';
/** Total characters of all slices together (the first slice is kept even when it alone is larger). */
export const MULTI_PAYLOAD_BUDGET = 150_000;
/** A conversation with nothing unreflected is replayed from this many of its last user turns. */
export const REPLAY_USER_TURNS = 50;

/** How the conversations were chosen. */
export type MultiSelection =
  | { policy: 'recent'; limit: number }
  | { policy: 'explicit-conversations'; conversation_ids: string[] }
  | { policy: 'auto-selected'; selections: SelectedConversation[]; candidates_path: string };

/** One conversation picked by the automatic selector. */
export interface SelectedConversation {
  conversation_id: string;
  reason: string;
  priority?: 'high' | 'medium' | 'low';
}

/** One conversation's part of the manifest. */
export interface MultiSlice {
  conversation_id: string;
  /** `gitmem`, or the external type it was staged from (`claude-code`, `transcript`, …). */
  source: string;
  /** `unreflected`: new content, its cursor advances on success; `replay`: seen before, nothing advances. */
  mode: 'unreflected' | 'replay';
  /** Transcript lines covered (1-based, inclusive). */
  lines: { from: number; to: number };
  chars: number;
  /** The slice's own file. */
  file: string;
}

export interface MultiManifest {
  type: typeof MULTI_PAYLOAD_TYPE;
  schema: 1;
  agent_id: string;
  created_at: string;
  instruction?: string;
  selection: MultiSelection;
  budget_chars: number;
  slices: MultiSlice[];
  /** Conversations left out: nothing in them, or past the budget. */
  skipped: { conversation_id: string; reason: 'empty' | 'budget' }[];
}

/** What a multi run is handed: the sub-agent's payload and the cursors to advance when it succeeds. */
export interface MultiPayload {
  manifest: MultiManifest;
  manifestPath: string;
  /** The manifest with each slice's messages inline. */
  payload: string;
  /** The commit trailer's text. */
  reviewed: string;
  /** Unreflected slices only: replays never move a cursor. */
  advance: { conversationId: string; throughLine: number }[];
}

export interface MultiPayloadOptions {
  agentDir: string;
  agentId: string;
  conversationIds: string[];
  selection: MultiSelection;
  instruction?: string;
  budgetChars?: number;
  clock?: () => Date;
}

/** `claude-code` for `from-claude-code-<hash>` (a staged external transcript), else `gitmem`. */
export function sourceOf(conversationId: string): string {
  const m = /^from-(.+)-[0-9a-f]{12}$/.exec(conversationId);
  return m?.[1] ?? 'gitmem';
}

type Draft = { id: string; mode: MultiSlice['mode']; lines: MultiSlice['lines']; messages: PayloadMessage[] };

/** The unreflected range, else the last {@link REPLAY_USER_TURNS} user turns; undefined when there is nothing. */
function draftSlice(agentDir: string, id: string): Draft | undefined {
  const source = sourceOf(id);
  const fresh = unreflectedSlice(agentDir, id);
  const messages = buildTranscriptPayload(fresh.rows, source);
  if (messages.length > 1) {
    return { id, mode: 'unreflected', lines: { from: fresh.startLine, to: fresh.endLine }, messages };
  }
  const { rows, lines } = readNumberedTranscript(agentDir, id);
  const users = rows.filter((r) => r.row.kind === 'user');
  const first = users.at(-REPLAY_USER_TURNS)?.line ?? users[0]?.line;
  if (first === undefined) return undefined;
  const kept: TranscriptRow[] = rows.filter((r) => r.line >= first).map((r) => r.row);
  const replay = buildTranscriptPayload(kept, source);
  return replay.length > 1 ? { id, mode: 'replay', lines: { from: first, to: lines }, messages: replay } : undefined;
}

function runDirName(now: Date): string {
  return `${now.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/**
 * Builds and writes the manifest and its slices; undefined when no conversation has anything to show.
 * @example const m = buildMultiPayload({ agentDir, agentId: 'a1', conversationIds: ['c1', 'c2'], selection: { policy: 'recent', limit: 2 } })
 */
export function buildMultiPayload(o: MultiPayloadOptions): MultiPayload | undefined {
  const budget = o.budgetChars ?? MULTI_PAYLOAD_BUDGET;
  const now = (o.clock ?? (() => new Date()))();
  const kept: (Draft & { chars: number })[] = [];
  const skipped: MultiManifest['skipped'] = [];
  let total = 0;
  for (const id of o.conversationIds) {
    const d = draftSlice(o.agentDir, id);
    if (!d) {
      skipped.push({ conversation_id: id, reason: 'empty' });
      continue;
    }
    const chars = JSON.stringify(d.messages).length;
    if (kept.length > 0 && total + chars > budget) {
      skipped.push({ conversation_id: id, reason: 'budget' });
      continue;
    }
    total += chars;
    kept.push({ ...d, chars });
  }
  if (kept.length === 0) return undefined;
  const dir = join(o.agentDir, 'multi-reflection-payloads', runDirName(now));
  mkdirSync(dir, { recursive: true });
  const slices: MultiSlice[] = kept.map((d, i) => {
    const file = join(dir, `${String(i + 1).padStart(2, '0')}-${conversationKey(d.id)}.json`);
    writeFileSync(file, JSON.stringify(d.messages, null, 1));
    return { conversation_id: d.id, source: sourceOf(d.id), mode: d.mode, lines: d.lines, chars: d.chars, file };
  });
  const manifest: MultiManifest = {
    type: MULTI_PAYLOAD_TYPE,
    schema: 1,
    agent_id: o.agentId,
    created_at: now.toISOString(),
    ...(o.instruction ? { instruction: o.instruction } : {}),
    selection: o.selection,
    budget_chars: budget,
    slices,
    skipped,
  };
  const manifestPath = join(dir, 'manifest.json');
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  const inline = { ...manifest, slices: slices.map((s, i) => ({ ...s, messages: kept[i]?.messages ?? [] })) };
  const reviewed = slices
    .map((s) => `${s.conversation_id} ${s.mode === 'replay' ? 'replay ' : ''}lines ${s.lines.from}-${s.lines.to}`)
    .join(', ');
  const advance = slices
    .filter((s) => s.mode === 'unreflected')
    .map((s) => ({ conversationId: s.conversation_id, throughLine: s.lines.to }));
  return { manifest, manifestPath, payload: JSON.stringify(inline, null, 1), reviewed, advance };
}
