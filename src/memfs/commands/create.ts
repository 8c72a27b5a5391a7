/** `create`: a new memory file with a description and optional text. */
import { renderMemoryFile } from '../../blocks/frontmatter.js';
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { fileExists, isDirectory, requireString, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `create(file_path, description, file_text?)`. Text without a final newline gets one.
 * @example planCreate(ctx, { file_path: 'notes/x.md', description: 'X', file_text: 'hi' })
 */
export function planCreate(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const description = requireString(ctx, 'create', call, 'description');
  const text = call['file_text'] ?? '';
  if (typeof text !== 'string') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} create: 'file_text' must be a string`, { data: { field: 'file_text' } });
  }
  if (fileExists(ctx, path.file) || isDirectory(ctx, path.label)) {
    throw new MemoryError('FILE_EXISTS', `${ctx.tool} create: a memory file already exists at ${String(call['file_path'])}`, {
      data: { path: path.file },
    });
  }
  const body = text === '' || text.endsWith('\n') ? text : `${text}\n`;
  return [{ file: path.file, before: null, after: renderMemoryFile({ description }, body) }];
}
