/** `insert`: put lines into a file's body at a line number (0 or less: top; past the end: append). */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { checkResultSize } from '../limits.js';
import { restyle } from '../line-style.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `insert(file_path, insert_line, insert_text)`. Lines count within the body, 1-based: the text is
 * inserted before line `insert_line`. A body's final newline does not count as an extra empty line. The
 * result keeps the file's line endings and BOM.
 * @example planInsert(ctx, { file_path: 'system/human', insert_line: 1, insert_text: '- likes tea' })
 */
export function planInsert(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const raw = call['insert_line'];
  const lineNo = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof lineNo !== 'number' || Number.isNaN(lineNo)) {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} insert: 'insert_line' must be a number`, { data: { field: 'insert_line' } });
  }
  const text = requireString(ctx, 'insert', call, 'insert_text').replace(/\r\n?/g, '\n');
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  checkResultSize(`${ctx.tool} insert`, path.file, f.text.length + text.length + 1);
  const endsWithNewline = f.body.endsWith('\n');
  const lines = f.body === '' ? [] : (endsWithNewline ? f.body.slice(0, -1) : f.body).split('\n');
  const index = Math.min(Math.max(1, Math.floor(lineNo)) - 1, lines.length);
  const inserted = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
  // concat, not splice(...inserted): a million-line insert_text would overflow the call stack.
  const body = `${lines.slice(0, index).concat(inserted, lines.slice(index)).join('\n')}${endsWithNewline || f.body === '' ? '\n' : ''}`;
  return [{ file: path.file, before: f.original, after: restyle(f.original, f.prefix + body) }];
}
