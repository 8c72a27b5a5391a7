/** The markdown merge's inputs and outcomes. */
import type { LayoutRow } from '../layouts.js';

/** One memory file in three versions. Texts are decoded strings (the caller refuses bytes that are not UTF-8). */
export interface MarkdownMergeInput {
  /** The common ancestor; null when the file did not exist there (both sides created it). */
  base: string | null;
  /** The side merged into (a checkout's HEAD, the branch being rebased onto): its line endings and BOM are kept. */
  ours: string;
  theirs: string;
  /** Repository-relative path: decides which format rules the result must pass. */
  path: string;
  /** Paths gitmem recorded as read_only: never merged automatically. */
  protectedPaths?: ReadonlySet<string>;
  /** The repository's layout: the rules the result must pass (the `system` row when absent). */
  layout?: LayoutRow;
}

/** Why a file could not be merged: a closed set, each with one line of explanation in {@link CONFLICT_KINDS}. */
export type MergeConflictKind =
  | 'too_large'
  | 'unsupported'
  | 'read_only'
  | 'frontmatter_invalid'
  | 'frontmatter_removed'
  | 'frontmatter_complex'
  | 'field'
  | 'edit'
  | 'delete_edit'
  | 'insert'
  | 'duplicate'
  | 'whitespace'
  | 'structure'
  | 'invalid_result';

/** What each conflict kind means (the first part of every conflict message). */
export const CONFLICT_KINDS: Readonly<Record<MergeConflictKind, string>> = {
  too_large: 'too large or too many blocks to merge by structure',
  unsupported: 'holds text the structural merge does not take apart (NUL, or markdown it cannot parse)',
  read_only: 'the file is read_only or protected, so it is never merged automatically',
  frontmatter_invalid: 'a side has frontmatter that does not parse',
  frontmatter_removed: 'one side removed the frontmatter, the other changed it',
  frontmatter_complex: 'frontmatter written in a way that cannot be merged field by field',
  field: 'the same frontmatter field was changed two ways',
  edit: 'the same block was changed two ways',
  delete_edit: 'one side deleted a block the other side changed',
  insert: 'both sides added different text at the same place (only list items and sections are combined)',
  duplicate: 'the merge would hold the same block more often than either side',
  whitespace: 'blank lines at the start or end of the file were changed two ways',
  structure: 'the combined text would not keep the structure of both sides',
  invalid_result: 'the merged file breaks the memory rules',
};

/** One reason the merge refused, with where it happened (`frontmatter: limit`, `## Work > - prefers pnpm`). */
export interface MergeConflict {
  kind: MergeConflictKind;
  where: string;
  message: string;
}

export type MarkdownMergeResult =
  { status: 'clean'; text: string } | { status: 'conflict'; conflicts: MergeConflict[] };

/** Thrown inside the merge to stop at the first conflict; turned into a result at the top. */
export class MergeConflictSignal extends Error {
  constructor(readonly conflict: MergeConflict) {
    super(conflict.message);
  }
}

/**
 * A conflict of `kind` at `where`, its message built from the kind's explanation.
 * @example conflictOf('field', 'frontmatter: limit').message // 'frontmatter: limit: the same frontmatter field was changed two ways'
 */
export function conflictOf(kind: MergeConflictKind, where: string, detail?: string): MergeConflict {
  return {
    kind,
    where,
    message: `${where === '' ? '' : `${where}: `}${CONFLICT_KINDS[kind]}${detail ? ` (${detail})` : ''}`,
  };
}

/** Stops the merge with a conflict of `kind` at `where`. */
export function refuse(kind: MergeConflictKind, where: string, detail?: string): never {
  throw new MergeConflictSignal(conflictOf(kind, where, detail));
}
