/**
 * The parent-memory snapshot a reflection sub-agent sees up front: the memory tree (with the
 * descriptions of files outside `system/`) and the full text of each `system/` file, within a character
 * budget. Over budget it degrades file by file — truncate with a notice naming the full path, then a
 * notice only, then a count of omitted files — and never drops the tree. Paths are always `$MEMORY_DIR/…`.
 */
import { descriptionOf, tryParseMemoryFile } from '../blocks/frontmatter.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from '../blocks/tree-limits.js';
import { renderTree } from '../blocks/tree.js';

/** Default budget of the whole `<parent_memory>` section, closing tag included. */
export const SNAPSHOT_BUDGET = 40_000;
const CLOSE = '</parent_memory>';
/** Below this many characters of content a truncated preview is not worth showing. */
const MIN_PREVIEW = 200;

/** A committed file: repo-relative path and text. */
export interface SnapshotFile {
  path: string;
  content: string;
}

/** The snapshot and how it was fitted. */
export interface ParentSnapshot {
  text: string;
  /** The `<memory_filesystem>` block alone (what a later shrink keeps). */
  tree: string;
  stats: { chars: number; budget: number; full: string[]; truncated: string[]; noticeOnly: string[]; omitted: number };
}

/**
 * The notice replacing the cut part of a file preview.
 * @example previewNotice('system/human.md', 'truncated').includes('$MEMORY_DIR/system/human.md')
 */
export function previewNotice(path: string, kind: 'truncated' | 'omitted'): string {
  const what = kind === 'truncated' ? 'was cut short' : 'was left out';
  return `[This preview ${what} to keep the startup context small. The full file is at $MEMORY_DIR/${path}; read it directly when you need it. Relative path: ${path}]`;
}

function entry(path: string, body: string): string {
  return `<memory>\n<path>$MEMORY_DIR/${path}</path>\n${body}\n</memory>\n`;
}

function treeBlock(files: SnapshotFile[], limits: TreeLimits): string {
  if (files.length === 0) return '<memory_filesystem>\n(no memory markdown files found)\n</memory_filesystem>\n';
  const entries = files.map((f) => {
    const d = f.path.startsWith('system/') ? '' : descriptionOf(tryParseMemoryFile(f.content)?.data ?? {});
    return d ? { path: f.path, description: d } : { path: f.path };
  });
  return `<memory_filesystem>\n${renderTree(entries, limits, { root: '$MEMORY_DIR/', alwaysShow: ['system'] })}\n</memory_filesystem>\n`;
}

/** Fits one system file into `room` characters: whole, truncated, notice only, or null (omitted). */
function fitEntry(f: SnapshotFile, room: number): { text: string; how: 'full' | 'truncated' | 'noticeOnly' } | null {
  const whole = entry(f.path, f.content);
  if (whole.length <= room) return { text: whole, how: 'full' };
  const notice = previewNotice(f.path, 'truncated');
  const keep = room - entry(f.path, `\n${notice}`).length;
  if (keep >= MIN_PREVIEW) return { text: entry(f.path, `${f.content.slice(0, keep)}\n${notice}`), how: 'truncated' };
  const only = entry(f.path, previewNotice(f.path, 'omitted'));
  return only.length <= room ? { text: only, how: 'noticeOnly' } : null;
}

/**
 * Builds `<parent_memory>` from the committed markdown files (any order; sorted here).
 * @example buildParentSnapshot([{ path: 'system/human.md', content: '---\ndescription: u\n---\nHi\n' }]).text
 */
export function buildParentSnapshot(
  input: SnapshotFile[],
  o: { budget?: number; treeLimits?: TreeLimits } = {},
): ParentSnapshot {
  const budget = o.budget ?? SNAPSHOT_BUDGET;
  const files = input
    .filter((f) => f.path.endsWith('.md') && !f.path.split('/').some((s) => s.startsWith('.')))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const tree = treeBlock(files, o.treeLimits ?? DEFAULT_TREE_LIMITS);
  const stats: ParentSnapshot['stats'] = { chars: 0, budget, full: [], truncated: [], noticeOnly: [], omitted: 0 };
  let text = `<parent_memory>\n${tree}`;
  for (const f of files.filter((x) => x.path.startsWith('system/'))) {
    const fitted = fitEntry(f, budget - text.length - CLOSE.length);
    if (fitted === null) {
      stats.omitted += 1;
      continue;
    }
    text += fitted.text;
    stats[fitted.how].push(f.path);
  }
  if (stats.omitted > 0) {
    const note = `[${stats.omitted} more system file(s) were left out because the startup budget ran out. Read them from $MEMORY_DIR when needed.]\n`;
    if (text.length + note.length + CLOSE.length <= budget) text += note;
  }
  text += CLOSE;
  stats.chars = text.length;
  return { text, tree, stats };
}

/** Notice used when the whole prompt is still too long and the snapshot is shrunk to its tree. */
export const SHRUNK_NOTICE =
  '[The parent memory preview was reduced to keep the system prompt and this message within the startup budget. Read files directly from $MEMORY_DIR when needed.]';

/**
 * Second guard: if `fixedChars + snapshot` exceeds `maxChars`, keep only the tree plus a
 * notice; if even that is too long, the notice alone.
 * @example shrinkSnapshot(snap, 10_000, 64_000) // snap.text when it fits
 */
export function shrinkSnapshot(snap: ParentSnapshot, fixedChars: number, maxChars: number): string {
  if (fixedChars + snap.text.length <= maxChars) return snap.text;
  const treeOnly = `<parent_memory>\n${snap.tree}${SHRUNK_NOTICE}\n${CLOSE}`;
  if (fixedChars + treeOnly.length <= maxChars) return treeOnly;
  return `<parent_memory>\n${SHRUNK_NOTICE}\n${CLOSE}`;
}
