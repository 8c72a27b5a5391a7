/**
 * A three-way merge of one file's versions through `git merge-file` (git 2.39 has no blob form, so the
 * three versions go to a private temp directory for the call and are removed after it); what the line merge
 * cannot finish in a markdown file goes to gitmem's structural merge, as in every other merge gitmem runs.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeFileOp } from '../git/commands/merge-file.js';
import type { GitRunner } from '../git/runner.js';
import { mergeMarkdown } from '../blocks/merge/index.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `current` with the change from `base` to `other` applied, or null when they conflict (or are binary).
 * `path` (repository-relative) makes a markdown file eligible for the structural merge.
 * @example await mergeThreeWay(git, cwd, headBytes, commitBytes, parentBytes, 'notes/a.md') // the revert of one file
 */
export async function mergeThreeWay(
  git: GitRunner,
  cwd: string,
  current: Buffer,
  base: Buffer,
  other: Buffer,
  path?: string,
): Promise<Buffer | null> {
  const line = await lineMerge(git, cwd, current, base, other);
  if (line !== null || path === undefined || !path.endsWith('.md')) return line;
  return structuralMerge(current, base, other, path);
}

function structuralMerge(current: Buffer, base: Buffer, other: Buffer, path: string): Buffer | null {
  let texts: string[];
  try {
    texts = [current, base, other].map((b) => utf8.decode(b));
  } catch {
    return null;
  }
  const r = mergeMarkdown({ ours: texts[0] as string, base: texts[1] as string, theirs: texts[2] as string, path });
  return r.status === 'clean' ? Buffer.from(r.text) : null;
}

async function lineMerge(
  git: GitRunner,
  cwd: string,
  current: Buffer,
  base: Buffer,
  other: Buffer,
): Promise<Buffer | null> {
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-merge-'));
  try {
    const paths = ['current', 'base', 'other'].map((n) => join(dir, n));
    [current, base, other].forEach((data, i) => writeFileSync(paths[i] as string, data, { mode: 0o600, flag: 'wx' }));
    const r = await git.exec(mergeFileOp(paths[0] as string, paths[1] as string, paths[2] as string), { cwd });
    return r.clean ? Buffer.from(r.merged) : null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
