/** `update_description`: change a file's frontmatter description, keeping its body and other keys. */
import { renderMemoryFile } from '../../blocks/frontmatter.js';
import type { FileEdit } from '../edits.js';
import { restyle } from '../line-style.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `update_description(file_path, description)`.
 * @example planUpdateDescription(ctx, { file_path: 'system/human', description: 'What I know about Ana' })
 */
export function planUpdateDescription(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const description = requireString(ctx, 'update_description', call, 'description');
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  const after = renderMemoryFile({ ...f.data, description }, f.body);
  // Same description ⇒ identical text ⇒ NO_CHANGES from the commit step. The file keeps its line endings.
  return [{ file: path.file, before: f.original, after: after === f.text ? f.original : restyle(f.original, after) }];
}
