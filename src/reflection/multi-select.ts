/**
 * `--auto`: which conversations a multi reflection should look at. A candidate catalogue (the most recent,
 * the most unreflected, the current conversation, keyword hits over conversation text), filtered, scored and
 * capped; then the selector's answer (model output: hostile) checked against it.
 */
import { statSync } from 'node:fs';
import { MemoryError } from '../errors.js';
import { readCursor } from './cursor.js';
import type { SelectedConversation } from './multi-payload.js';
import { sourceOf } from './multi-payload.js';
import { listConversations, readTranscript, transcriptPath } from './transcripts.js';

/** Most candidates written to the catalogue, and most conversations the selector may pick. */
export const MAX_CANDIDATES = 30;
export const MAX_SELECTED = 5;
const PER_LIST = 20;
const HITS_PER_QUERY = 10;
const DAY = 86_400_000;

/** The five searches over conversation text: what a reflection is for. */
const QUERIES: Readonly<Record<string, readonly string[]>> = {
  'user corrections': ['no', 'wrong', 'instead', 'actually', "don't", 'correct', 'should', 'prefer'],
  'coding style': ['style', 'format', 'lint', 'naming', 'convention', 'tabs', 'spaces', 'type'],
  collaboration: ['please', 'always', 'never', 'remember', 'review', 'ask', 'workflow'],
  'repo gotchas': ['error', 'fails', 'broken', 'workaround', 'careful', 'build', 'test', 'bug'],
  'long-term facts': ['my', 'our', 'project', 'team', 'deadline', 'uses', 'name', 'important'],
};

export interface Candidate {
  conversation_id: string;
  source: string;
  score: number;
  reasons: string[];
  unreflected_steps: number;
  total_steps: number;
  last_activity: string;
  /** The first user words, for the selector. */
  preview: string;
}

export interface CandidateCatalogue {
  type: 'auto_transcript_reflection_candidates';
  schema: 1;
  max_selected: number;
  candidates: Candidate[];
}

interface Facts {
  id: string;
  mtime: number;
  rows: number;
  steps: number;
  total: number;
  text: string;
  preview: string;
}

function factsOf(agentDir: string, id: string): Facts {
  const rows = readTranscript(agentDir, id).filter((r) => r.kind === 'user' || r.kind === 'assistant');
  const c = readCursor(agentDir, id);
  const text = rows.map((r) => ('text' in r ? r.text : '')).join('\n');
  const firstUser = rows.find((r) => r.kind === 'user');
  return {
    id,
    mtime: statSync(transcriptPath(agentDir, id)).mtimeMs,
    rows: rows.length,
    steps: c.stepsSinceLastReflection,
    total: c.totalSteps,
    text: text.toLowerCase(),
    preview: (firstUser && 'text' in firstUser ? firstUser.text : '').slice(0, 160),
  };
}

/** The share of a query's words the text holds (0..1). */
function strength(text: string, words: readonly string[]): number {
  const tokens = new Set(text.split(/[^a-z0-9']+/));
  return words.filter((w) => tokens.has(w)).length / words.length;
}

function recencyBonus(ageMs: number): number {
  if (ageMs <= DAY) return 8;
  if (ageMs <= 7 * DAY) return 5;
  return ageMs <= 30 * DAY ? 2 : 0;
}

function score(f: Facts, hit: number, lists: string[], now: number, current: boolean): number {
  return (
    Math.round(hit * 50) +
    (f.steps > 0 ? 15 + Math.min(f.steps, 10) : -10) +
    recencyBonus(now - f.mtime) +
    lists.length * 2 +
    Math.min(3, Math.floor(f.rows / 20)) +
    (current ? 10 : 0)
  );
}

/**
 * The scored, capped catalogue of conversations an automatic reflection may pick from.
 * @example buildCandidates(agentDir, { current: 'conv-3' }).candidates[0]?.conversation_id
 */
export function buildCandidates(agentDir: string, o: { current?: string; now?: Date } = {}): CandidateCatalogue {
  const now = (o.now ?? new Date()).getTime();
  const all = listConversations(agentDir).map((id) => factsOf(agentDir, id));
  const lists = new Map<string, string[]>();
  const add = (id: string, why: string) => lists.set(id, [...(lists.get(id) ?? []), why]);
  all.slice(0, PER_LIST).forEach((f) => add(f.id, 'recent'));
  [...all]
    .filter((f) => f.steps > 0)
    .sort((a, b) => b.steps - a.steps)
    .slice(0, PER_LIST)
    .forEach((f) => add(f.id, 'unreflected'));
  if (o.current && all.some((f) => f.id === o.current)) add(o.current, 'current');
  const hits = new Map<string, number>();
  for (const [name, words] of Object.entries(QUERIES)) {
    const ranked = all
      .map((f) => ({ f, s: strength(f.text, words) }))
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, HITS_PER_QUERY);
    for (const { f, s } of ranked) {
      add(f.id, `search: ${name}`);
      hits.set(f.id, Math.max(hits.get(f.id) ?? 0, s));
    }
  }
  const candidates = all
    .filter((f) => lists.has(f.id))
    .filter((f) => f.steps > 0 || hits.has(f.id)) // nothing new and no hit: nothing to learn
    .filter((f) => f.rows >= 2) // a lone line is no conversation
    .map((f) => {
      const reasons = [...new Set(lists.get(f.id))];
      return {
        conversation_id: f.id,
        source: sourceOf(f.id),
        score: score(f, hits.get(f.id) ?? 0, reasons, now, f.id === o.current),
        reasons,
        unreflected_steps: f.steps,
        total_steps: f.total,
        last_activity: new Date(f.mtime).toISOString(),
        preview: f.preview,
      };
    })
    .sort((a, b) => b.score - a.score || a.conversation_id.localeCompare(b.conversation_id))
    .slice(0, MAX_CANDIDATES);
  return { type: 'auto_transcript_reflection_candidates', schema: 1, max_selected: MAX_SELECTED, candidates };
}

/** The JSON object in a model's answer: the whole text, a fenced block, or the outermost braces. */
function jsonObjectIn(text: string): unknown {
  const attempts = [text.trim()];
  const fenced = /```(?:json)?\s*\n?([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]) attempts.push(fenced[1].trim());
  const open = text.indexOf('{');
  const close = text.lastIndexOf('}');
  if (open >= 0 && close > open) attempts.push(text.slice(open, close + 1));
  for (const a of attempts) {
    try {
      const v: unknown = JSON.parse(a);
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
    } catch {
      // try the next form
    }
  }
  throw new MemoryError('MODEL_ERROR', 'Reflection selector did not answer with a JSON object');
}

const PRIORITIES = new Set(['high', 'medium', 'low']);

/**
 * Checks the selector's answer: `{"selected_conversations":[{conversation_id, reason, priority}]}` as raw
 * JSON, a fenced block or the outermost object; an unknown id is refused by name, duplicates are dropped,
 * at most `max` are kept.
 * @example parseSelection('{"selected_conversations":[{"conversation_id":"c1"}]}', ['c1'])
 */
export function parseSelection(text: string, known: readonly string[], max = MAX_SELECTED): SelectedConversation[] {
  const answer = jsonObjectIn(text) as { selected_conversations?: unknown };
  const list = answer.selected_conversations;
  if (!Array.isArray(list))
    throw new MemoryError('MODEL_ERROR', 'Reflection selector answer has no selected_conversations list');
  const ids = new Set(known);
  const out: SelectedConversation[] = [];
  for (const item of list as unknown[]) {
    const o = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const id = o['conversation_id'];
    if (typeof id !== 'string' || !ids.has(id)) {
      const shown = (typeof id === 'string' ? id : JSON.stringify(id ?? null)).slice(0, 200);
      throw new MemoryError('MODEL_ERROR', `Reflection selector chose unknown conversation: ${shown}`, {
        data: { conversationId: shown },
      });
    }
    if (out.some((s) => s.conversation_id === id)) continue;
    const reason = typeof o['reason'] === 'string' && o['reason'].trim() ? o['reason'].trim() : undefined;
    const priority = typeof o['priority'] === 'string' && PRIORITIES.has(o['priority']) ? o['priority'] : undefined;
    out.push({
      conversation_id: id,
      reason: (reason ?? 'Selected by automatic reflection.').slice(0, 500),
      ...(priority ? { priority: priority as SelectedConversation['priority'] & string } : {}),
    });
  }
  return out.slice(0, max);
}
