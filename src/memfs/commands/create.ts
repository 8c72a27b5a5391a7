/**
 * `create`: a new file. Memory markdown and a skill's SKILL.md get one frontmatter block (see new-file.ts);
 * a plain file (any other extension) holds exactly `file_text`.
 */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { fileExists, isDirectory, resolvePath, type CommandContext } from './context.js';
import { newFileText } from './new-file.js';

/**
 * Plans `create(file_path, description?, file_text?)`. A markdown text without a final newline gets one.
 * @example planCreate(ctx, { file_path: 'notes/x.md', description: 'X', file_text: 'hi' })
 */
export function planCreate(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const description = call['description'];
  if (description !== undefined && typeof description !== 'string') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} create: 'description' must be a string`, {
      data: { field: 'description' },
    });
  }
  const text = call['file_text'] ?? '';
  if (typeof text !== 'string') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} create: 'file_text' must be a string`, {
      data: { field: 'file_text' },
    });
  }
  const after = newFileText({
    operation: `${ctx.tool} create`,
    file: path.file,
    description,
    text,
    finalNewline: true,
    layout: ctx.layout,
  });
  if (fileExists(ctx, path.file) || isDirectory(ctx, path.label)) {
    throw new MemoryError(
      'FILE_EXISTS',
      `${ctx.tool} create: a memory file already exists at ${String(call['file_path'])}`,
      {
        data: { path: path.file },
      },
    );
  }
  return [{ file: path.file, before: null, after }];
}
