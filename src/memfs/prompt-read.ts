/**
 * The prompt and the tree of HEAD, read through the read cache (memfs/read-snapshot.ts): at a new commit
 * only changed blobs are read, and the text rendered for a commit is kept in the process (a commit id names
 * its content, so the same commit and options always give the same text).
 */
import { compilePrompt, type CommittedFile, type CompileOptions } from '../blocks/compile-prompt.js';
import { renderTree, type TreeEntry } from '../blocks/tree.js';
import type { TreeLimits } from '../blocks/tree-limits.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { headCommit, readSnapshotAt, type ReadSnapshot } from './read-snapshot.js';

const rendered = new Map<string, string>();
const RENDERED_KEPT = 16;

function remember(key: string, make: () => string): string {
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const text = make();
  rendered.set(key, text);
  if (rendered.size > RENDERED_KEPT) rendered.delete(rendered.keys().next().value ?? '');
  return text;
}

function committedFiles(snap: ReadSnapshot): CommittedFile[] {
  const files: CommittedFile[] = [];
  for (const [path, id] of snap.files) {
    const text = snap.texts.get(id);
    const summary = snap.summaries.get(id);
    if (text !== undefined && path.startsWith('system/')) files.push({ path, content: text });
    else if (summary !== undefined && path.endsWith('.md')) files.push({ path, summary });
    else files.push({ path, content: '' });
  }
  return files;
}

/**
 * HEAD's system prompt (see blocks/compile-prompt.ts); the revision shown is HEAD's commit.
 * @example await readPrompt(git, memoryDir, { mode: 'local-memfs' })
 */
export async function readPrompt(git: GitRunner, memoryDir: string, options: Omit<CompileOptions, 'revision'>): Promise<string> {
  const commit = await headCommit(git, memoryDir);
  if (commit === null) return compilePrompt([], options);
  const key = `prompt\0${resolveGitCommonDir(memoryDir)}\0${commit}\0${JSON.stringify(options)}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const snap = await readSnapshotAt(git, memoryDir, commit);
  return remember(key, () => compilePrompt(committedFiles(snap), { ...options, revision: commit }));
}

/**
 * HEAD's files as a tree, each markdown file with its description (see blocks/tree.ts).
 * @example await readTree(git, memoryDir, DEFAULT_TREE_LIMITS) // '/memory/\n├── system/…'
 */
export async function readTree(git: GitRunner, memoryDir: string, limits: TreeLimits): Promise<string> {
  const commit = await headCommit(git, memoryDir);
  const options = { alwaysShow: ['system'] };
  if (commit === null) return renderTree([], limits, options);
  const key = `tree\0${resolveGitCommonDir(memoryDir)}\0${commit}\0${JSON.stringify(limits)}`;
  const hit = rendered.get(key);
  if (hit !== undefined) return hit;
  const snap = await readSnapshotAt(git, memoryDir, commit);
  return remember(key, () => {
    const entries: TreeEntry[] = [];
    for (const [path, id] of snap.files) {
      const description = path.endsWith('.md') ? snap.summaries.get(id)?.description : undefined;
      entries.push(description ? { path, description } : { path });
    }
    return renderTree(entries, limits, options);
  });
}
