/**
 * The Node half of gitmem's merge driver (the shell half, merge-driver-script.ts, already ran git's line
 * merge, which conflicted): the markdown merge of the three versions git handed over. Clean → the result
 * replaces ours and the driver exits 0; anything else → git's conflict text replaces ours and it exits 1, with
 * the reason on stderr. Never guesses: unreadable input, bytes that are not UTF-8, a path that is not markdown
 * or the protected list failing to load are conflicts too.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mergeMarkdownWith, type ParseMarkdown } from '../blocks/merge/index.js';
import { readProtectedPaths } from './protected.js';
import { readRepoLayout } from './layout-config.js';
import type { LayoutRow } from '../blocks/layouts.js';

export interface MergeDriverArgs {
  base: string;
  ours: string;
  theirs: string;
  /** The path in the repository (git's %P). */
  path: string;
  /** git's line-merge result with conflict markers. */
  lines: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function conclude(a: MergeDriverArgs, reason: string): { code: 1; message: string } {
  try {
    renameSync(a.lines, a.ours);
  } catch {
    // no line-merge text: ours stays as it is, the file is reported conflicted all the same
  }
  return { code: 1, message: `gitmem merge: ${a.path}: ${reason}\n` };
}

/**
 * Runs the markdown merge for one file; returns the exit code and what to print on stderr.
 * @example runMergeDriver({ base, ours, theirs, path: 'notes/a.md', lines }, process.cwd(), parse) // { code: 0, message: '' }
 */
export function runMergeDriver(
  a: MergeDriverArgs,
  repoDir: string,
  parse: ParseMarkdown,
): { code: 0 | 1; message: string } {
  if (!a.path.toLowerCase().endsWith('.md')) return conclude(a, 'not a markdown file');
  let texts: [string, string, string];
  let protectedPaths: ReadonlySet<string>;
  let layout: LayoutRow;
  try {
    texts = [a.base, a.ours, a.theirs].map((f) => utf8.decode(readFileSync(f))) as [string, string, string];
    protectedPaths = readProtectedPaths(repoDir);
    layout = readRepoLayout(repoDir);
  } catch (err) {
    return conclude(
      a,
      `cannot merge by structure (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`,
    );
  }
  const [base, ours, theirs] = texts;
  const r = mergeMarkdownWith(parse, { base, ours, theirs, path: a.path, protectedPaths, layout });
  if (r.status === 'conflict') return conclude(a, r.conflicts.map((c) => c.message).join('; '));
  writeFileSync(a.ours, r.text);
  rmSync(a.lines, { force: true });
  return { code: 0, message: '' };
}
