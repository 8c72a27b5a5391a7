/**
 * The size and content limits of a memory-tool call, checked before the lease is taken, so a hostile value
 * costs one comparison and never reaches git (a 200 KB reason overflows an argv string; a NUL makes a
 * commit `fsck --strict` refuses and a file the tool can never read again). Stated in the tool schemas.
 */
import { MemoryError } from '../errors.js';

/** Limits in characters (UTF-16 code units, what a JS string's length counts). */
export const TOOL_LIMITS = Object.freeze({
  /** `reason`, which becomes the commit message. */
  reasonChars: 10_000,
  /** `description` (one line in the memory tree). */
  descriptionChars: 1_000,
  /** `file_text`, `insert_text`, `old_string`, `new_string`. */
  textChars: 1_000_000,
  /** A memory file after an edit (so replace_all cannot multiply a file without bound). */
  fileChars: 2_000_000,
  /** A memory_apply_patch `input`. */
  patchChars: 2_000_000,
  /** Line numbers listed in an AMBIGUOUS_MATCH error. */
  reportedLines: 20,
});

/** The text parameters of memory-tool calls and their limit. */
export const TEXT_FIELDS: Readonly<Record<string, number>> = Object.freeze({
  reason: TOOL_LIMITS.reasonChars,
  description: TOOL_LIMITS.descriptionChars,
  file_text: TOOL_LIMITS.textChars,
  insert_text: TOOL_LIMITS.textChars,
  old_string: TOOL_LIMITS.textChars,
  new_string: TOOL_LIMITS.textChars,
});

/**
 * Refuses a string value git or a memory file cannot hold: a NUL, a lone surrogate (it would be stored as
 * U+FFFD, not as given), or more than `max` characters. Non-strings are left to the caller's type check.
 * @example checkText('memory', 'reason', 'a\0b', 10_000) // throws INVALID_ARGUMENT
 */
export function checkText(tool: string, field: string, value: unknown, max: number): void {
  if (typeof value !== 'string') return;
  const refuse = (why: string): never => {
    throw new MemoryError('INVALID_ARGUMENT', `${tool}: '${field}' ${why}`, { data: { field } });
  };
  if (value.length > max) refuse(`is ${value.length} characters long (at most ${max})`);
  if (value.includes('\0')) refuse('contains a NUL character, which memory files and commit messages cannot hold');
  if (!value.isWellFormed()) refuse('is not valid Unicode (it contains a lone surrogate)');
}

/**
 * Refuses an edit whose result would exceed the file size limit.
 * @example checkResultSize('memory str_replace', 'notes/a.md', 3_000_000) // throws INVALID_ARGUMENT
 */
export function checkResultSize(operation: string, file: string, length: number): void {
  if (length > TOOL_LIMITS.fileChars) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${operation}: ${file} would be ${length} characters long (at most ${TOOL_LIMITS.fileChars})`,
      {
        data: { path: file, length },
      },
    );
  }
}
