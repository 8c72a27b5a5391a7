/**
 * Bounds of the structural merge: beyond them the file is a conflict (handled as any conflict: nothing is
 * lost), so hostile or pathological input costs a bounded amount of work. Parsing is linear; four parses of
 * the largest pathological 64 KiB input measured (nested list markers on every line) stay under a second.
 */

/** Characters per version (after decoding). */
export const MAX_MERGE_CHARS = 64 * 1024;

/** Top-level blocks, sections and list items per version, counted together. */
export const MAX_MERGE_NODES = 4_000;

/** Cells of one LCS table (the part of two sequences left after their common prefix and suffix). */
export const MAX_LCS_CELLS = 250_000;
