/**
 * Finishes a background writer's merge that git's line merge left with content conflicts, when every one of
 * them is in a markdown file: each file is merged in-process by the markdown merge (blocks/merge) from its
 * three blobs; only when all merge cleanly is a tree written (through a temporary index, so the checkout's own
 * index is never touched). Anything else — a rename or delete conflict, a file that is not markdown, a mode
 * change, bytes that are not UTF-8, one file the markdown merge refuses — leaves the conflict as git reported
 * it. The caller validates the tree like any merge result.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { mergeMarkdown } from '../blocks/merge/index.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { catFileBatchRawOp, updateIndexInfoOp } from '../git/commands/plumbing.js';
import type { MergeTreeResult, MergeTreeStage } from '../git/commands/merge-tree.js';
import type { GitRunner } from '../git/runner.js';
import { readRepoLayout } from '../hooks/layout-config.js';

/** A conflicted file the markdown merge may take: its mode and the blob of each side (base null: both added it). */
export interface MarkdownConflict {
  path: string;
  mode: string;
  base: string | null;
  ours: string;
  theirs: string;
}

const REGULAR = new Set(['100644', '100755']);
/** Message types that may accompany a path the markdown merge takes; any other kind of conflict is left alone. */
const TAKEN_TYPES = new Set(['Auto-merging', 'CONFLICT (contents)']);

/**
 * The conflicts of a merge-tree result as markdown files to merge, or null when any conflict is of another
 * kind. Pure.
 * @example markdownConflicts(result) // [{ path: 'notes/a.md', mode: '100644', base, ours, theirs }] or null
 */
export function markdownConflicts(r: MergeTreeResult): MarkdownConflict[] | null {
  if (r.clean || r.stages.length === 0 || r.messages.some((m) => !TAKEN_TYPES.has(m.type))) return null;
  const byPath = new Map<string, Map<number, MergeTreeStage>>();
  for (const s of r.stages) byPath.set(s.path, (byPath.get(s.path) ?? new Map()).set(s.stage, s));
  const contents = new Set(r.messages.filter((m) => m.type === 'CONFLICT (contents)').flatMap((m) => m.paths));
  if (contents.size !== byPath.size) return null;
  const out: MarkdownConflict[] = [];
  for (const [path, stages] of byPath) {
    const [b, o, t] = [stages.get(1), stages.get(2), stages.get(3)];
    if (
      !contents.has(path) ||
      !path.toLowerCase().endsWith('.md') ||
      !o ||
      !t ||
      o.mode !== t.mode ||
      !REGULAR.has(o.mode)
    )
      return null;
    if (b && !REGULAR.has(b.mode)) return null;
    out.push({ path, mode: o.mode, base: b?.id ?? null, ours: o.id, theirs: t.id });
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(data: Buffer | undefined): string | null {
  if (data === undefined) return null;
  try {
    return utf8.decode(data);
  } catch {
    return null;
  }
}

/** Reads every blob in one spawn; null when any is missing or not UTF-8. */
async function readBlobs(git: GitRunner, cwd: string, ids: readonly string[]): Promise<Map<string, string> | null> {
  const objects = await git.exec(catFileBatchRawOp(ids), { cwd });
  const out = new Map<string, string>();
  for (let i = 0; i < ids.length; i++) {
    const text = decode(objects[i]?.type === 'blob' ? objects[i]?.data : undefined);
    if (text === null) return null;
    out.set(ids[i] as string, text);
  }
  return out;
}

/** `tree` with the given files replaced, written through a temporary index. */
async function replaceInTree(
  git: GitRunner,
  cwd: string,
  tree: string,
  files: ReadonlyArray<{ path: string; mode: string; id: string }>,
): Promise<string> {
  const index = join(resolveGitCommonDir(cwd), `gitmem-merge-${process.pid}-${randomBytes(4).toString('hex')}.index`);
  const env = { GIT_INDEX_FILE: index };
  try {
    await git.run(['read-tree', tree], { cwd, env });
    await git.exec(updateIndexInfoOp(files), { cwd, env });
    return (await git.run(['write-tree'], { cwd, env })).stdout.trim();
  } finally {
    rmSync(index, { force: true });
    rmSync(`${index}.lock`, { force: true });
  }
}

/**
 * The merged tree when the markdown merge resolves every conflict of `r`, else null (the conflict stands).
 * @example const tree = await resolveMarkdownConflicts(git, memoryDir, result, protectedPaths)
 */
export async function resolveMarkdownConflicts(
  git: GitRunner,
  cwd: string,
  r: MergeTreeResult,
  protectedPaths: ReadonlySet<string>,
): Promise<string | null> {
  const conflicts = markdownConflicts(r);
  if (conflicts === null) return null;
  const blobs = await readBlobs(git, cwd, [
    ...new Set(conflicts.flatMap((c) => [c.base, c.ours, c.theirs]).filter((id): id is string => id !== null)),
  ]);
  if (blobs === null) return null;
  const merged: Array<{ path: string; mode: string; id: string }> = [];
  const layout = readRepoLayout(cwd);
  for (const c of conflicts) {
    const text = (id: string | null): string | null => (id === null ? null : (blobs.get(id) ?? null));
    const result = mergeMarkdown({
      base: text(c.base),
      ours: text(c.ours) ?? '',
      theirs: text(c.theirs) ?? '',
      path: c.path,
      protectedPaths,
      layout,
    });
    if (result.status !== 'clean') return null;
    const id = (
      await git.run(['hash-object', '-w', '--stdin'], { cwd, input: Buffer.from(result.text, 'utf8') })
    ).stdout.trim();
    merged.push({ path: c.path, mode: c.mode, id });
  }
  return replaceInTree(git, cwd, r.tree, merged);
}
