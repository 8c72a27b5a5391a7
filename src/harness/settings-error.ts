/**
 * The one refusal of a settings file gitmem will not edit: `file:line:col: what is wrong`, so the user can
 * open the spot. Nothing is written when one is thrown (connect checks every file before writing any).
 */
import { MemoryError } from '../index.js';

/**
 * 1-based line and column of a character offset.
 * @example lineCol('a\nbc', 3) // { line: 2, col: 2 }
 */
export function lineCol(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, col: before.length - (before.lastIndexOf('\n') + 1) + 1 };
}

/** A MemoryError (INVALID_ARGUMENT) naming `path:line:col` and why. */
export function settingsError(path: string, where: { line: number; col: number }, why: string): MemoryError {
  return new MemoryError('INVALID_ARGUMENT', `${path}:${where.line}:${where.col}: ${why}; gitmem changed nothing`, {
    data: { path, line: where.line, column: where.col },
  });
}
