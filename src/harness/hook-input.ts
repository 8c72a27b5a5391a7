/**
 * What a harness hands its hook on standard input (Claude Code and Codex use the same field names): the
 * session, where its transcript is, the directory it runs in, and for a session start why it started. The
 * input comes from the harness but names files the model's session wrote: a value of the wrong type or a
 * relative transcript path is dropped, never used.
 */
import { isAbsolute } from 'node:path';
import { MemoryError } from '../index.js';

/** More than this on standard input is not a hook's input. */
export const HOOK_INPUT_MAX = 1024 * 1024;

export interface HookInput {
  sessionId?: string;
  /** Absolute; absent when the harness has none yet (Codex may send null). */
  transcriptPath?: string;
  cwd?: string;
  /** SessionStart's `source`: startup, resume, clear or compact. */
  source?: string;
  /** PreToolUse / PostToolUse: the tool's name and its input as the model wrote it (unchecked: hostile). */
  toolName?: string;
  toolInput?: unknown;
}

const SESSION_ID = /^[A-Za-z0-9._:-]{1,200}$/;

function str(v: unknown, max = 4096): string | undefined {
  return typeof v === 'string' && v !== '' && v.length <= max && !v.includes('\0') ? v : undefined;
}

/**
 * Parses a hook's standard input (empty input is an empty object: a hook run by hand).
 * @example parseHookInput('{"session_id":"abc","transcript_path":"/h/.claude/projects/-p/abc.jsonl"}').sessionId === 'abc'
 */
export function parseHookInput(text: string): HookInput {
  if (text.length > HOOK_INPUT_MAX)
    throw new MemoryError('INVALID_ARGUMENT', `hook input is larger than ${HOOK_INPUT_MAX} bytes`);
  if (text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `hook input is not JSON (${(err as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new MemoryError('INVALID_ARGUMENT', 'hook input must be a JSON object');
  const o = v as Record<string, unknown>;
  const sessionId = str(o['session_id']);
  const transcriptPath = str(o['transcript_path']);
  const cwd = str(o['cwd']);
  const source = str(o['source'], 64);
  const toolName = str(o['tool_name'], 200);
  return {
    ...(sessionId !== undefined && SESSION_ID.test(sessionId) ? { sessionId } : {}),
    ...(transcriptPath !== undefined && isAbsolute(transcriptPath) ? { transcriptPath } : {}),
    ...(cwd !== undefined && isAbsolute(cwd) ? { cwd } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(toolName !== undefined ? { toolName } : {}),
    ...(o['tool_input'] !== undefined ? { toolInput: o['tool_input'] } : {}),
  };
}
