/**
 * gitmem's markdown- and frontmatter-aware three-way merge of one memory file: what git's line merge could
 * not finish, merged by frontmatter field, section and list item, never by guessing. Used by background
 * writers' merges and git's merge driver (sync's rebase, merges run by hand); any other caller that holds
 * three versions of a file (a revert) can call it directly.
 */
import { mergeMarkdownWith } from './merge-text.js';
import { loadMarkdownParser } from './parser.js';
import { conflictOf, type MarkdownMergeInput, type MarkdownMergeResult } from './types.js';

export { mergeMarkdownWith } from './merge-text.js';
export { blockParser, loadMarkdownParser, type CreateMarkdownIt } from './parser.js';
export type { ParseMarkdown } from './structure.js';
export { MAX_MERGE_CHARS } from './limits.js';
export {
  CONFLICT_KINDS,
  type MarkdownMergeInput,
  type MarkdownMergeResult,
  type MergeConflict,
  type MergeConflictKind,
} from './types.js';

/**
 * Merges `theirs` into `ours` given their common `base` (null: both sides created the file). Loads the markdown
 * parser on first use.
 * @example
 *   const r = mergeMarkdown({ base, ours, theirs, path: 'system/human.md' });
 *   if (r.status === 'clean') write(r.text); else console.log(r.conflicts.map((c) => c.message));
 */
export function mergeMarkdown(input: MarkdownMergeInput): MarkdownMergeResult {
  let parse;
  try {
    parse = loadMarkdownParser();
  } catch (err) {
    return {
      status: 'conflict',
      conflicts: [
        conflictOf(
          'unsupported',
          '',
          `the markdown parser could not be loaded: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
        ),
      ],
    };
  }
  return mergeMarkdownWith(parse, input);
}
