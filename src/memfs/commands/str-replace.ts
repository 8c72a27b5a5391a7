/** `str_replace`: replace text in a file's body — exactly one match unless `replace_all`. */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

function matchOffsets(haystack: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Plans `str_replace(file_path, old_string, new_string, replace_all?)`; an empty new_string deletes.
 * @example planStrReplace(ctx, { file_path: 'system/human', old_string: 'tea', new_string: 'coffee' })
 */
export function planStrReplace(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const oldString = requireString(ctx, 'str_replace', call, 'old_string');
  const newString = call['new_string'];
  if (typeof newString !== 'string') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} str_replace: 'new_string' must be a string (empty deletes)`, {
      data: { field: 'new_string' },
    });
  }
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  const offsets = matchOffsets(f.body, oldString.replace(/\r\n?/g, '\n'));
  if (offsets.length === 0) {
    throw new MemoryError('NO_MATCH', `${ctx.tool} str_replace: old_string was not found in the body of ${path.file}`, {
      data: { path: path.file },
    });
  }
  const lines = offsets.map((o) => lineOf(f.text, f.prefix.length + o));
  if (offsets.length > 1 && call['replace_all'] !== true) {
    throw new MemoryError(
      'AMBIGUOUS_MATCH',
      `${ctx.tool} str_replace: old_string matches ${offsets.length} times in ${path.file} (lines ${lines.join(', ')}); ` +
        'add surrounding context to make it unique, or pass replace_all: true',
      { data: { path: path.file, lines } },
    );
  }
  const body = f.body.split(oldString.replace(/\r\n?/g, '\n')).join(newString);
  return [{ file: path.file, before: f.original, after: f.prefix + body }];
}
