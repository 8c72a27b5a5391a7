/**
 * The `--from` argument of `gitmem dream`: a stored conversation id, or an external transcript (one of the
 * SOURCES table's types) converted to transcript rows and staged into a synthetic conversation of the
 * agent, idempotently.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { MemoryError } from '../../errors.js';
import { appendTranscript, hasTranscript, readTranscript, type TranscriptRow } from '../transcripts.js';
import { claudeSubagentFiles, resolveClaudeSession, parseClaudeCode } from './claude-code.js';
import { parseCodex, resolveCodexRollout } from './codex.js';
import { parseOpenHands } from './openhands.js';
import { parseTranscriptFile } from './transcript.js';

/** One external source type: how `--from` names it (usage text) and how its rows are read. */
interface SourceDef {
  form: string;
  /** Reads the rows at `path` (absolute); returns the file the conversation id is derived from. */
  load: (path: string, now: () => Date) => { path: string; rows: TranscriptRow[] };
}

/** Every external source type, keyed by its `--from` prefix: the type is this table's keys. */
const SOURCES = {
  transcript: {
    form: 'transcript:<file.jsonl | file.json>',
    load: (path, now) => ({ path, rows: parseTranscriptFile(path, now) }),
  },
  openhands: {
    form: 'openhands:<dir | file>',
    load: (path, now) => ({ path, rows: parseOpenHands(path, now) }),
  },
  'claude-code': {
    form: 'claude-code:<session.jsonl | project dir>',
    load: (path, now) => {
      const session = resolveClaudeSession(path); // a project directory means its newest session
      // the main session's rows, then each sub-agent's (their own files, their own uuids)
      return {
        path: session,
        rows: [session, ...claudeSubagentFiles(session)].flatMap((f) => parseClaudeCode(f, now)),
      };
    },
  },
  codex: {
    form: 'codex:<rollout.jsonl | sessions dir>',
    load: (path, now) => {
      const rollout = resolveCodexRollout(path); // a directory means its newest rollout that is not a sub-agent's
      return { path: rollout, rows: parseCodex(rollout, now) };
    },
  },
} as const satisfies Record<string, SourceDef>;

export type SourceType = keyof typeof SOURCES;
/** The external source types, in the order help texts list them. */
export const SOURCE_TYPES = Object.keys(SOURCES) as SourceType[];
/** How `--from` writes each source type, for usage texts. */
export const SOURCE_FORMS: readonly string[] = SOURCE_TYPES.map((t) => SOURCES[t].form);

function isSourceType(type: string): type is SourceType {
  return Object.hasOwn(SOURCES, type); // own keys only: "constructor" or "__proto__" are not types
}

/** A parsed `--from` value. */
export type FromSpec = { type: 'conversation'; conversationId: string } | { type: SourceType; locator: string };

/** Options of {@link loadSource} / {@link stageSource}. */
export interface SourceOptions {
  agentDir: string;
  /** Base for relative paths (default: the process's working directory). */
  cwd?: string;
  clock?: () => Date;
}

/**
 * Parses a `--from` value. No `:` ⇒ a stored conversation id.
 * @example parseFromSpec('openhands:./conv') // { type: 'openhands', locator: './conv' }
 */
export function parseFromSpec(from: string): FromSpec {
  const spec = typeof from === 'string' ? from.trim() : '';
  if (spec === '')
    throw new MemoryError('INVALID_ARGUMENT', 'Invalid --from "": expected a conversation id or <type>:<path>');
  const colon = spec.indexOf(':');
  if (colon < 0) return { type: 'conversation', conversationId: spec };
  const type = spec.slice(0, colon);
  const locator = spec.slice(colon + 1).trim();
  if (!isSourceType(type)) {
    throw new MemoryError('INVALID_ARGUMENT', `Unknown source type "${type}". Supported: ${SOURCE_TYPES.join(', ')}`, {
      data: { from: spec, type },
    });
  }
  if (locator === '') {
    throw new MemoryError('INVALID_ARGUMENT', `Invalid --from "${spec}": missing path after "${type}:"`, {
      data: { from: spec },
    });
  }
  return { type, locator };
}

/**
 * The conversation id external rows are staged into: `from-<type>-<12 hex of sha1(type:absolute path)>`
 * (a Claude Code project directory or a Codex sessions directory hashes the file it resolved to).
 * @example syntheticConversationId('transcript', '/tmp/t.jsonl') // 'from-transcript-3f2a…'
 */
export function syntheticConversationId(type: SourceType, absolutePath: string): string {
  return `from-${type}-${createHash('sha1').update(`${type}:${absolutePath}`).digest('hex').slice(0, 12)}`;
}

/**
 * Loads the rows a `--from` value names. A stored conversation must have a transcript.
 * @example loadSource('claude-code:/home/me/.claude/projects/-work-app', { agentDir }).rows.length
 */
export function loadSource(from: string, o: SourceOptions): { conversationId: string; rows: TranscriptRow[] } {
  const spec = parseFromSpec(from);
  if (spec.type === 'conversation') {
    if (!hasTranscript(o.agentDir, spec.conversationId)) {
      const hint = `; to read a file, use one of ${SOURCE_FORMS.join(', ')}`;
      throw new MemoryError(
        'FILE_NOT_FOUND',
        `no transcript for conversation "${spec.conversationId}" under ${o.agentDir}${hint}`,
        {
          data: { conversationId: spec.conversationId },
        },
      );
    }
    return { conversationId: spec.conversationId, rows: readTranscript(o.agentDir, spec.conversationId) };
  }
  const now = o.clock ?? (() => new Date());
  const { path, rows } = SOURCES[spec.type].load(resolve(o.cwd ?? '.', spec.locator), now);
  return { conversationId: syntheticConversationId(spec.type, path), rows };
}

/** What {@link stageSource} did. */
export interface StageResult {
  conversationId: string;
  /** Rows appended now. */
  staged: number;
  /** Rows already present (same `source_message_id`). */
  skipped: number;
  /** True for a stored conversation (nothing to stage). */
  stored: boolean;
}

/**
 * Loads a source and appends its new rows to the agent's transcript of the synthetic conversation;
 * rows whose `source_message_id` is already there are skipped, so re-running is a no-op.
 * @example const { conversationId, staged } = stageSource('transcript:./t.jsonl', { agentDir })
 */
export function stageSource(from: string, o: SourceOptions): StageResult {
  const { conversationId, rows } = loadSource(from, o);
  if (parseFromSpec(from).type === 'conversation') return { conversationId, staged: 0, skipped: 0, stored: true };
  const seen = new Set(
    readTranscript(o.agentDir, conversationId)
      .map((r) => r.source_message_id)
      .filter(Boolean),
  );
  const fresh = rows.filter((r) => !(r.source_message_id && seen.has(r.source_message_id)));
  appendTranscript(o.agentDir, conversationId, fresh, o.clock);
  return { conversationId, staged: fresh.length, skipped: rows.length - fresh.length, stored: false };
}
