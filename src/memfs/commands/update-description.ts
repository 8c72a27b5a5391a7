/**
 * `update_description`: change a file's frontmatter description, keeping its body and every other key (in
 * place, with its exact text). A plain file has no description.
 */
import { setFrontmatterKeys, singleLine } from '../../blocks/frontmatter.js';
import { MemoryError } from '../../errors.js';
import type { FileEdit } from '../edits.js';
import { restyle } from '../line-style.js';
import { loadEditable, requireString, resolvePath, type CommandContext } from './context.js';

/**
 * Plans `update_description(file_path, description)`.
 * @example planUpdateDescription(ctx, { file_path: 'system/human', description: 'What I know about Ana' })
 */
export function planUpdateDescription(ctx: CommandContext, call: Record<string, unknown>): FileEdit[] {
  const path = resolvePath(ctx, call['file_path'], 'file_path');
  const description = singleLine(requireString(ctx, 'update_description', call, 'description'));
  const f = loadEditable(ctx, path.file, String(call['file_path']));
  if (f.kind === 'plain') {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${ctx.tool} update_description: ${path.file} is a plain file (not markdown memory) and has no description`,
      {
        data: { path: path.file, field: 'description' },
      },
    );
  }
  // The same description (however it is quoted or folded now) ⇒ no edit ⇒ NO_CHANGES from the commit step.
  if (typeof f.data['description'] === 'string' && singleLine(f.data['description']) === description)
    return [{ file: path.file, before: f.original, after: f.original }];
  const after = setFrontmatterKeys(f.text, [['description', description]]);
  return [{ file: path.file, before: f.original, after: restyle(f.original, after) }]; // keeps the file's line endings
}
