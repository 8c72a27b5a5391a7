/** `rename`: move a memory file to a new path, content unchanged. */
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { fileExists, isDirectory, loadEditable, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `rename(old_path, new_path)` (files only).
 * @example planRename(ctx, { old_path: 'notes/a.md', new_path: 'archive/a.md' })
 */
export function planRename(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const from = resolvePath(ctx, call['old_path'], 'old_path');
  const to = resolvePath(ctx, call['new_path'], 'new_path');
  if (from.file === to.file) {
    throw new MemoryError('NO_CHANGES', `${ctx.tool} rename: old_path and new_path are the same file`);
  }
  if (fileExists(ctx, to.file) || isDirectory(ctx, to.label)) {
    throw new MemoryError(
      'FILE_EXISTS',
      `${ctx.tool} rename: destination already exists at ${String(call['new_path'])}`,
      {
        data: { path: to.file },
      },
    );
  }
  const f = loadEditable(ctx, from.file, String(call['old_path']));
  return [
    { file: from.file, before: f.original, after: null },
    { file: to.file, before: null, after: f.original, renamedFrom: from.file },
  ];
}
