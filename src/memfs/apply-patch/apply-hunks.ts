/**
 * Applies parsed hunks to a file's text by exact matching. Pure; the mismatch message
 * comes from diagnostics.ts.
 *
 * gitmem's matching decisions (stricter than the reference, never fuzzier):
 * - a chunk matches only where it begins at the start of a line, so `bar\n` never edits inside `foobar\n`;
 * - the retry without the chunk's final newline (for a last line that has no newline) is tried only at the
 *   very end of the file, so it cannot match the front part of a longer line;
 * - a hunk closed by `*** End of File` must match at the end of the file;
 * - a hunk with no context or removed lines is refused, except with `*** End of File`, where its added
 *   lines are appended to the file (a newline is inserted first if the file lacks a final one).
 */
import { MemoryError } from '../../errors.js';
import { findFirst } from '../find-text.js';
import { formatHunkMismatch } from './diagnostics.js';
import type { Hunk } from './parse.js';

/** The text a hunk expects (`old`) and the text it leaves (`new`), each line ending in `\n`. */
export interface HunkChunks {
  old: string;
  new: string;
}

/**
 * Builds the old chunk (context + removed lines) and new chunk (context + added lines) of a hunk.
 * @example hunkChunks({ lines: [{ kind: ' ', text: 'a' }, { kind: '+', text: 'b' }], endOfFile: false })
 *   // { old: 'a\n', new: 'a\nb\n' }
 */
export function hunkChunks(hunk: Hunk): HunkChunks {
  let oldText = '';
  let newText = '';
  for (const line of hunk.lines) {
    if (line.kind !== '+') oldText += `${line.text}\n`;
    if (line.kind !== '-') newText += `${line.text}\n`;
  }
  return { old: oldText, new: newText };
}

function atLineStart(text: string, index: number): boolean {
  return index === 0 || text[index - 1] === '\n';
}

/** First index where `needle` occurs starting at a line boundary, or -1 (one linear search). */
function findLineAnchored(text: string, needle: string): number {
  if (text.startsWith(needle)) return 0;
  const index = findFirst(text, `\n${needle}`);
  return index === -1 ? -1 : index + 1;
}

/** Index where `needle` occupies the end of `text` starting at a line boundary, or -1. */
function findAtEnd(text: string, needle: string): number {
  const index = text.length - needle.length;
  return index >= 0 && text.endsWith(needle) && atLineStart(text, index) ? index : -1;
}

function splice(text: string, index: number, removed: number, inserted: string): string {
  return text.slice(0, index) + inserted + text.slice(index + removed);
}

/** Applies one hunk's chunks; returns null when its context is not found. */
function applyChunks(text: string, chunks: HunkChunks, endOfFile: boolean): string | null {
  const index = endOfFile ? findAtEnd(text, chunks.old) : findLineAnchored(text, chunks.old);
  if (index !== -1) return splice(text, index, chunks.old.length, chunks.new);
  if (!chunks.old.endsWith('\n')) return null;
  const trimmedOld = chunks.old.slice(0, -1);
  const atEnd = findAtEnd(text, trimmedOld);
  if (atEnd === -1) return null;
  const replacement = chunks.new.endsWith('\n') ? chunks.new.slice(0, -1) : chunks.new;
  return splice(text, atEnd, trimmedOld.length, replacement);
}

function appendAtEnd(text: string, added: string): string {
  return text === '' || text.endsWith('\n') ? text + added : `${text}\n${added}`;
}

/**
 * Applies `hunks` in order to `text` (already LF-normalised). `file` names the file in errors.
 * Throws PATCH_INVALID for a hunk without context, PATCH_MISMATCH (`data.file`, `data.hunk`) when a hunk's
 * context is not found; the mismatch preview shows the text as it stood when that hunk was tried.
 * @example applyHunks('notes.md', 'a\nb\n', [{ lines: [{ kind: '-', text: 'b' }, { kind: '+', text: 'c' }], endOfFile: false }])
 *   // 'a\nc\n'
 */
export function applyHunks(file: string, text: string, hunks: readonly Hunk[]): string {
  let current = text;
  hunks.forEach((hunk, i) => {
    const chunks = hunkChunks(hunk);
    const data = { file, hunk: i + 1 };
    if (chunks.old === '') {
      if (!hunk.endOfFile || chunks.new === '') {
        throw new MemoryError(
          'PATCH_INVALID',
          `memory_apply_patch: failed to apply hunk to ${file}: hunk has no anchor/context ` +
            '(add context lines, or end a pure append with "*** End of File")',
          { data },
        );
      }
      current = appendAtEnd(current, chunks.new);
      return;
    }
    const next = applyChunks(current, chunks, hunk.endOfFile);
    if (next === null) throw new MemoryError('PATCH_MISMATCH', formatHunkMismatch(file, chunks.old, current), { data });
    current = next;
  });
  return current;
}
