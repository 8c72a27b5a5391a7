/**
 * Small helpers shared by the `--from` source parsers: reading files with typed errors, timestamps, text
 * truncation.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { MemoryError } from '../../errors.js';

/** Longest tool result kept from an external source. */
export const RESULT_CAP = 4_000;

/** Reads a UTF-8 file or throws FILE_NOT_FOUND naming it. */
export function readSourceFile(path: string): string {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new MemoryError('FILE_NOT_FOUND', `source file not found: ${path}`, { data: { path } });
  }
  return readFileSync(path, 'utf8');
}

/**
 * An ISO timestamp: zone-less values are taken as UTC, missing or unparsable ones get `now`.
 * @example isoTimestamp('2025-01-02T03:04:05', now) === '2025-01-02T03:04:05.000Z'
 */
export function isoTimestamp(value: unknown, now: () => Date): string {
  if (typeof value !== 'string' || value.trim() === '') return now().toISOString();
  const v = value.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(v);
  const d = new Date(zoned ? v : `${v}Z`);
  return Number.isNaN(d.getTime()) ? now().toISOString() : d.toISOString();
}

/** Truncates a tool result to {@link RESULT_CAP} characters with a marker. */
export function capResult(text: string): string {
  return text.length <= RESULT_CAP ? text : `${text.slice(0, RESULT_CAP)}… [truncated]`;
}

/** Joins the `text` of `[{type:'text', text}]` content arrays (or returns a plain string as is). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (c): c is { type: string; text: string } =>
        typeof c === 'object' && c !== null && c.type === 'text' && typeof c.text === 'string',
    )
    .map((c) => c.text)
    .join('\n');
}

/** The value of one JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The refusal of a `--from` file that is not of the type its prefix names (each source is strict alike: what
 * is not its format is an error, never a run over 0 rows): one line naming the file, where the first record
 * that does not fit is, and what was expected.
 * @example throw notOfShape('a Claude Code session', '/tmp/x.jsonl', 'line 1', 'one JSON object per line with a "type"')
 */
export function notOfShape(what: string, path: string, where: string | undefined, expected: string): MemoryError {
  const at = where === undefined ? '' : ` (${where})`;
  return new MemoryError('INVALID_ARGUMENT', `Could not read ${path} as ${what}${at}: expected ${expected}`, {
    data: { path, ...(where === undefined ? {} : { where }), expected },
  });
}

/** True for a non-null, non-array object. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
