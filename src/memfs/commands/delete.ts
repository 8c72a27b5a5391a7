/** `delete`: remove a file (memory or plain), or a whole directory of them. */
import { isProtectedText, OPERATOR_HINTS } from '../../blocks/validate-protection.js';
import { isMemoryError, MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { isDirectory, listFilesUnder, loadEditable, readFile, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `delete(file_path)`. A directory is removed recursively, but never when it holds a read_only file.
 * @example planDelete(ctx, { file_path: 'notes/old.md' })
 */
export function planDelete(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  if (isDirectory(ctx, path.label)) {
    const edits: FileEdit[] = listFilesUnder(ctx, path.label).map((file) => ({
      file,
      before: readRaw(ctx, file),
      after: null,
    }));
    // The validator's rule (fail-closed, any kind of file): refused here by name, before anything is planned.
    const locked = edits.filter((e) => typeof e.before === 'string' && isProtectedText(e.before));
    if (locked.length > 0) {
      throw new MemoryError(
        'READ_ONLY',
        `${ctx.tool} delete: ${path.label}/ contains read_only file(s): ${locked.map((e) => e.file).join(', ')}; ${OPERATOR_HINTS.unlock}`,
        {
          data: { paths: locked.map((e) => e.file) },
        },
      );
    }
    if (edits.length === 0)
      throw new MemoryError('NO_CHANGES', `${ctx.tool} delete: directory ${path.label}/ has no files`);
    return edits;
  }
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  return [{ file: path.file, before: f.original, after: null }];
}

function readRaw(ctx: CommandContext, file: string): string | Buffer {
  // Non-markdown assets (images) may not be UTF-8; their content only matters for rollback, so keep bytes.
  try {
    return readFile(ctx, file) ?? '';
  } catch (err) {
    if (!isMemoryError(err, 'NOT_UTF8')) throw err;
    return ctx.fs.readFile(file) ?? Buffer.alloc(0);
  }
}
