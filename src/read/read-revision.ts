/**
 * Reads a committed revision without a checkout: what the prompt compiler and tree see (never the
 * working tree, so uncommitted edits cannot leak into the prompt).
 */
import { catFileBatchOp, lsTreeOp, revParseOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';

export interface CommittedSnapshot {
  revision: string | null;
  /** Every file path at the revision. */
  paths: string[];
  /** Contents of the markdown files (path → text). */
  markdown: Map<string, string>;
}

/**
 * Lists a revision's files and reads its markdown files (3 git calls whatever the repo size).
 * @example const snap = await readCommittedSnapshot(git, memoryDir); snap.markdown.get('system/human.md')
 */
export async function readCommittedSnapshot(
  git: GitRunner,
  memoryDir: string,
  rev = 'HEAD',
): Promise<CommittedSnapshot> {
  const revision = await git.exec(revParseOp(rev), { cwd: memoryDir });
  if (revision === null) return { revision: null, paths: [], markdown: new Map() };
  const entries = (await git.exec(lsTreeOp(revision), { cwd: memoryDir })).filter((e) => e.type === 'blob');
  const md = entries.filter((e) => e.path.endsWith('.md'));
  const contents = md.length > 0 ? await git.exec(catFileBatchOp(md.map((e) => e.id)), { cwd: memoryDir }) : [];
  const markdown = new Map<string, string>();
  md.forEach((e, i) => {
    const text = contents[i];
    if (typeof text === 'string') markdown.set(e.path, text);
  });
  return { revision, paths: entries.map((e) => e.path).sort(), markdown };
}
