/**
 * `str_replace`: replace text in a file's body (a plain file's whole text) — exactly one match unless
 * `replace_all`. An ambiguous match names the lines of the whole file, as `insert_line` counts them.
 */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { findAll, replaceAt } from '../find-text.js';
import { checkResultSize, TOOL_LIMITS } from '../limits.js';
import { matchedLines } from '../line-numbers.js';
import { restyle } from '../line-style.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `str_replace(file_path, old_string, new_string, replace_all?)`; an empty new_string deletes.
 * Text is matched in the normalised body (LF); the result keeps the file's line endings and BOM.
 * @example planStrReplace(ctx, { file_path: 'system/human', old_string: 'tea', new_string: 'coffee' })
 */
export function planStrReplace(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const oldString = requireString(ctx, 'str_replace', call, 'old_string').replace(/\r\n?/g, '\n');
  const rawNew = call['new_string'];
  if (typeof rawNew !== 'string') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${ctx.tool} str_replace: 'new_string' must be a string (empty deletes)`,
      {
        data: { field: 'new_string' },
      },
    );
  }
  const newString = rawNew.replace(/\r\n?/g, '\n');
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  const offsets = findAll(f.body, oldString);
  if (offsets.length === 0) {
    throw new MemoryError('NO_MATCH', `${ctx.tool} str_replace: old_string was not found in the body of ${path.file}`, {
      data: { path: path.file },
    });
  }
  if (offsets.length > 1 && call['replace_all'] !== true) {
    // Each line once: "lines 4, 4, 5" for three matches on two lines reads like a miscount.
    const { lines, count } = matchedLines(
      f.text,
      offsets.map((o) => f.prefix.length + o),
      TOOL_LIMITS.reportedLines,
    );
    const more = count > lines.length ? `, and ${count - lines.length} more` : '';
    throw new MemoryError(
      'AMBIGUOUS_MATCH',
      `${ctx.tool} str_replace: old_string matches ${offsets.length} times in ${path.file} (lines ${lines.join(', ')}${more}); ` +
        'add surrounding context to make it unique, or pass replace_all: true',
      { data: { path: path.file, lines, matches: offsets.length } },
    );
  }
  checkResultSize(
    `${ctx.tool} str_replace`,
    path.file,
    f.text.length + offsets.length * (newString.length - oldString.length),
  );
  const body = replaceAt(f.body, oldString, offsets, newString);
  return [{ file: path.file, before: f.original, after: restyle(f.original, f.prefix + body) }];
}
