/**
 * How far each conversation has been reflected on (`<agentDir>/transcripts/<conversation>.state.json`).
 * The cursor only moves when a reflection outcome consumes the transcript (`merged`, `no_changes`), so a
 * failed or conflicted run is retried later from the same point. Step counts are always recomputed from the
 * transcript (a step = an assistant row), so the file cannot drift from the rows.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { conversationKey, readNumberedTranscript, transcriptsDir, type TranscriptRow } from './transcripts.js';

/** Our own schema tag. */
const CURSOR_SCHEMA = 'gitmem_lines_v1';

/** The state of one conversation. */
export interface ReflectionCursor {
  /** Lines 1..N of the transcript have been reflected (0 = nothing yet). */
  reflectedThroughLine: number;
  totalSteps: number;
  stepsSinceLastReflection: number;
  lastStartedAt?: string;
  lastSucceededAt?: string;
}

/** The not-yet-reflected tail of a transcript. `endLine` is the snapshot to pass to {@link advanceCursor}. */
export interface UnreflectedSlice {
  rows: TranscriptRow[];
  /** First line of the slice (1-based). */
  startLine: number;
  /** Last line of the transcript when the slice was taken (`< startLine` when empty). */
  endLine: number;
  /** Assistant rows in the slice. */
  steps: number;
}

interface StateFile {
  schema_version: string;
  reflected_through_line: number;
  total_completed_steps: number;
  reflected_completed_steps: number;
  steps_since_last_successful_reflection: number;
  last_reflection_started_at?: string;
  last_reflection_succeeded_at?: string;
}

/**
 * Path of a conversation's cursor file.
 * @example cursorPath('/h/agents/a1', 'conv-1') === '/h/agents/a1/transcripts/conv-1.state.json'
 */
export function cursorPath(agentDir: string, conversationId: string): string {
  return join(transcriptsDir(agentDir), `${conversationKey(conversationId)}.state.json`);
}

function readState(path: string): Partial<StateFile> {
  if (!existsSync(path)) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Partial<StateFile>) : {};
  } catch {
    return {}; // unreadable state ⇒ rebuilt as fully unreflected
  }
}

function writeState(path: string, state: StateFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, path);
}

function compute(agentDir: string, conversationId: string) {
  const state = readState(cursorPath(agentDir, conversationId));
  const { rows, lines } = readNumberedTranscript(agentDir, conversationId);
  const stored = Number.isInteger(state.reflected_through_line) ? (state.reflected_through_line as number) : 0;
  const through = Math.min(Math.max(0, stored), lines);
  const isStep = (r: TranscriptRow) => r.kind === 'assistant';
  const totalSteps = rows.filter((r) => isStep(r.row)).length;
  const reflectedSteps = rows.filter((r) => r.line <= through && isStep(r.row)).length;
  return { state, rows, lines, through, totalSteps, reflectedSteps };
}

/**
 * Reads a conversation's cursor (a conversation never reflected starts at line 0).
 * @example readCursor(agentDir, 'conv-1').stepsSinceLastReflection >= 25 // step-count trigger
 */
export function readCursor(agentDir: string, conversationId: string): ReflectionCursor {
  const c = compute(agentDir, conversationId);
  return {
    reflectedThroughLine: c.through,
    totalSteps: c.totalSteps,
    stepsSinceLastReflection: c.totalSteps - c.reflectedSteps,
    ...(c.state.last_reflection_started_at ? { lastStartedAt: c.state.last_reflection_started_at } : {}),
    ...(c.state.last_reflection_succeeded_at ? { lastSucceededAt: c.state.last_reflection_succeeded_at } : {}),
  };
}

/**
 * The rows after the cursor, with the line range to advance to once they are consumed.
 * @example const s = unreflectedSlice(agentDir, 'conv-1'); ... advanceCursor(agentDir, 'conv-1', s.endLine)
 */
export function unreflectedSlice(agentDir: string, conversationId: string): UnreflectedSlice {
  const c = compute(agentDir, conversationId);
  const rows = c.rows.filter((r) => r.line > c.through).map((r) => r.row);
  return { rows, startLine: c.through + 1, endLine: c.lines, steps: rows.filter((r) => r.kind === 'assistant').length };
}

function save(agentDir: string, conversationId: string, through: number, extra: Partial<StateFile>): void {
  const c = compute(agentDir, conversationId);
  const reflected = c.rows.filter((r) => r.line <= through && r.row.kind === 'assistant').length;
  const next: StateFile = {
    schema_version: CURSOR_SCHEMA,
    reflected_through_line: through,
    total_completed_steps: c.totalSteps,
    reflected_completed_steps: reflected,
    steps_since_last_successful_reflection: c.totalSteps - reflected,
    ...(c.state.last_reflection_started_at ? { last_reflection_started_at: c.state.last_reflection_started_at } : {}),
    ...(c.state.last_reflection_succeeded_at
      ? { last_reflection_succeeded_at: c.state.last_reflection_succeeded_at }
      : {}),
    ...extra,
  };
  writeState(cursorPath(agentDir, conversationId), next);
}

/**
 * Stamps the start of a reflection over this conversation (the cursor itself does not move).
 * @example markReflectionStarted(agentDir, 'conv-1')
 */
export function markReflectionStarted(
  agentDir: string,
  conversationId: string,
  clock: () => Date = () => new Date(),
): void {
  save(agentDir, conversationId, compute(agentDir, conversationId).through, {
    last_reflection_started_at: clock().toISOString(),
  });
}

/**
 * Marks lines 1..throughLine as reflected. Call ONLY when an outcome consumed the transcript (`merged` or
 * `no_changes`), with the `endLine` of the slice taken at launch: rows appended meanwhile stay unreflected.
 * The cursor never moves backwards.
 * @example advanceCursor(agentDir, 'conv-1', slice.endLine)
 */
export function advanceCursor(
  agentDir: string,
  conversationId: string,
  throughLine: number,
  clock: () => Date = () => new Date(),
): void {
  const c = compute(agentDir, conversationId);
  if (!Number.isInteger(throughLine) || throughLine < 0 || throughLine > c.lines) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `throughLine must be an integer between 0 and ${c.lines}, got ${throughLine}`,
      {
        data: { conversationId, throughLine, lines: c.lines },
      },
    );
  }
  save(agentDir, conversationId, Math.max(c.through, throughLine), {
    last_reflection_succeeded_at: clock().toISOString(),
  });
}
