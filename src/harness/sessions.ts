/**
 * Where each harness session's transcript stands, per agent: one small JSON file per session under
 * `<agentDir>/harness/sessions/` (one file each, so two sessions ending together never lose each other's
 * update), written whole through a rename. `offset` is how far the transcript was when a hook last saw it;
 * `staged` how far its rows are in the agent's transcript store; `reflected` how far a reflection has covered.
 * A part between `reflected` and `offset` is still owed a reflection: the next run takes it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SessionRecord {
  harness: string;
  sessionId: string;
  transcript: string;
  /** Bytes of the transcript when a hook last saw it. */
  offset: number;
  /** Bytes whose rows are staged into the agent's transcript store. */
  staged: number;
  /** Bytes a merged (or nothing-to-change) reflection covered. */
  reflected: number;
  /** Turns (Stop events) seen, and the count when the last reflection started. */
  turns: number;
  turnsAtReflection: number;
  updatedAt: string;
}

export function sessionsDir(agentDir: string): string {
  return join(agentDir, 'harness', 'sessions');
}

/** A session's file: the harness and a hash of its id (an id never becomes a path). */
function sessionFile(agentDir: string, harness: string, sessionId: string): string {
  const key = createHash('sha256').update(`${harness}\0${sessionId}`).digest('hex').slice(0, 24);
  return join(sessionsDir(agentDir), `${harness}-${key}.json`);
}

function valid(v: unknown): v is SessionRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  const nums = ['offset', 'staged', 'reflected', 'turns', 'turnsAtReflection'].every(
    (k) => Number.isSafeInteger(r[k]) && (r[k] as number) >= 0,
  );
  return (
    nums &&
    typeof r['harness'] === 'string' &&
    typeof r['sessionId'] === 'string' &&
    typeof r['transcript'] === 'string'
  );
}

function readRecord(path: string): SessionRecord | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return valid(v) ? v : undefined;
  } catch {
    return undefined; // a torn or foreign file: the session starts over (staging is idempotent by row id)
  }
}

/**
 * One session's record, if any.
 * @example readSession(agentDir, 'claude-code', 'abc')?.offset
 */
export function readSession(agentDir: string, harness: string, sessionId: string): SessionRecord | undefined {
  return readRecord(sessionFile(agentDir, harness, sessionId));
}

/** Writes a session's record whole (temp file and rename: a reader sees the old or the new one). */
export function writeSession(agentDir: string, record: SessionRecord): void {
  const dir = sessionsDir(agentDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = sessionFile(agentDir, record.harness, record.sessionId);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Every recorded session of the agent, oldest update first.
 * @example listSessions(agentDir).filter((s) => s.offset > s.reflected)
 */
export function listSessions(agentDir: string): SessionRecord[] {
  const dir = sessionsDir(agentDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => readRecord(join(dir, f)))
    .filter((r): r is SessionRecord => r !== undefined)
    .sort((a, b) => a.updatedAt.localeCompare(b.updatedAt) || a.sessionId.localeCompare(b.sessionId));
}

/**
 * Records where a session's transcript stands now (its size; a missing file stands at 0), and one more turn
 * when `turn` is set. Idempotent for the same size apart from the turn count.
 * @example recordPosition(agentDir, { harness: 'codex', sessionId, transcript }, true, new Date())
 */
export function recordPosition(
  agentDir: string,
  s: { harness: string; sessionId: string; transcript: string },
  turn: boolean,
  now: Date,
): SessionRecord {
  const before = readSession(agentDir, s.harness, s.sessionId);
  const size = existsSync(s.transcript) ? statSync(s.transcript).size : 0;
  // A transcript replaced by a shorter file (or another path) is a new stream: start it over.
  const fresh = before === undefined || before.transcript !== s.transcript || size < before.staged;
  const base = fresh
    ? {
        offset: 0,
        staged: 0,
        reflected: 0,
        turns: before?.turns ?? 0,
        turnsAtReflection: before?.turnsAtReflection ?? 0,
      }
    : before;
  const record: SessionRecord = {
    ...base,
    harness: s.harness,
    sessionId: s.sessionId,
    transcript: s.transcript,
    offset: Math.max(size, base.offset),
    turns: base.turns + (turn ? 1 : 0),
    updatedAt: now.toISOString(),
  };
  writeSession(agentDir, record);
  return record;
}
