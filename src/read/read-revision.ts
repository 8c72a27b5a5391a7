/**
 * Reads a committed revision without a checkout: what the prompt compiler and tree see (never the
 * working tree, so uncommitted edits cannot leak into the prompt). Through the one committed reader
 * (git/committed-read.ts): HEAD and the markdown blobs from loose objects when they answer, else git.
 */
import { commitOf, listCommitEntries, readCommittedBlobs } from '../git/committed-read.js';
import type { GitRunner } from '../git/runner.js';

export interface CommittedSnapshot {
  revision: string | null;
  /** Every file path at the revision. */
  paths: string[];
  /** Contents of the markdown files (path → text). */
  markdown: Map<string, string>;
}

/**
 * Lists a revision's files and reads its markdown files (at most 3 git calls whatever the repo size).
 * @example const snap = await readCommittedSnapshot(git, memoryDir); snap.markdown.get('system/human.md')
 */
export async function readCommittedSnapshot(
  git: GitRunner,
  memoryDir: string,
  rev = 'HEAD',
): Promise<CommittedSnapshot> {
  const revision = await commitOf(git, memoryDir, rev);
  if (revision === null) return { revision: null, paths: [], markdown: new Map() };
  const entries = await listCommitEntries(git, memoryDir, revision, false);
  const md = entries.filter((e) => e.path.endsWith('.md'));
  const blobs = md.length > 0 ? await readCommittedBlobs(git, memoryDir, [...new Set(md.map((e) => e.id))]) : new Map();
  const markdown = new Map<string, string>();
  for (const e of md) {
    const data = blobs.get(e.id);
    if (data !== undefined) markdown.set(e.path, data.toString('utf8'));
  }
  return { revision, paths: entries.map((e) => e.path).sort(), markdown };
}
