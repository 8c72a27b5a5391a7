/**
 * `insert`: put lines into a file after line `insert_line` of the whole file, counted as line-numbers.ts
 * says (the numbers `view` shows; 0 = the top). A memory file's frontmatter stays first: 0 and the line of
 * its closing `---` both mean the top of the body, a line inside it is refused.
 */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { checkResultSize } from '../limits.js';
import { lineCount } from '../line-numbers.js';
import { restyle } from '../line-style.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

/** `insert_line` as a whole number ≥ 0: an integer, or a string of decimal digits (the CLI's `--line`). */
function lineArgument(ctx: CommandContext, raw: unknown): number {
  const n = typeof raw === 'string' && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${ctx.tool} insert: 'insert_line' must be a whole number ≥ 0 (the line to insert after; 0 = the top), got ${JSON.stringify(raw) ?? String(raw)}`,
      {
        data: { field: 'insert_line' },
      },
    );
  }
  return n === 0 ? 0 : n; // -0 reads as 0
}

function outOfRange(ctx: CommandContext, file: string, message: string): never {
  throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} insert: ${file}: ${message}`, {
    data: { field: 'insert_line', path: file },
  });
}

/**
 * Plans `insert(file_path, insert_line, insert_text)`: the text goes after line `insert_line` (0 ≤ N ≤ the
 * file's line count). The result keeps the file's line endings and BOM.
 * @example planInsert(ctx, { file_path: 'system/human', insert_line: 3, insert_text: '- likes tea' }) // top of the body
 */
export function planInsert(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const lineNo = lineArgument(ctx, call['insert_line']);
  const text = requireString(ctx, 'insert', call, 'insert_text').replace(/\r\n?/g, '\n');
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  checkResultSize(`${ctx.tool} insert`, path.file, f.text.length + text.length + 1);
  const total = lineCount(f.text);
  const frontmatter = lineCount(f.prefix); // lines 1..frontmatter hold it (0 for a plain file)
  if (lineNo > total)
    outOfRange(ctx, path.file, `insert_line ${lineNo} is past the end (the file has ${total} lines; ${total} appends)`);
  if (lineNo > 0 && lineNo < frontmatter) {
    outOfRange(
      ctx,
      path.file,
      `insert_line ${lineNo} is inside the frontmatter (lines 1-${frontmatter}); ${frontmatter} (or 0) inserts at the top of the body`,
    );
  }
  const index = Math.max(lineNo, frontmatter);
  const endsWithNewline = f.text.endsWith('\n');
  const lines = f.text === '' ? [] : (endsWithNewline ? f.text.slice(0, -1) : f.text).split('\n');
  const inserted = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  // concat, not splice(...inserted): a million-line insert_text would overflow the call stack.
  const joined = lines.slice(0, index).concat(inserted, lines.slice(index)).join('\n');
  // A file that ended in a newline still does; so does one that was empty, or had an empty body.
  const after = `${joined}${endsWithNewline || f.body === '' ? '\n' : ''}`;
  return [{ file: path.file, before: f.original, after: restyle(f.original, after) }];
}
