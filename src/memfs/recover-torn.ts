/**
 * What a power loss can leave of a publish that was never acknowledged: git renames the ref and the index
 * into place unflushed, and the write flushes them (with their directories) right after, before it answers.
 * A crash in between can keep a rename and lose the text under it: an empty or partial ref, or an index
 * that fails its own checksum. Recovery (under the lease, with the dead writer's journal entry) repairs
 * both before it finishes the write; an acknowledged write never leaves either.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gitDirAt, resolveGitCommonDir } from '../git/common-dir.js';
import { fsyncDir, syncRenamed } from '../git/durable.js';
import { OBJECT_ID, repoObjectFormat } from '../git/object-format.js';
import { revParseOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { headRefFile, indexFiles } from './commit.js';

/**
 * Writes `text` to `path` through a flushed temp file and a flushed rename. The temp is git's own lock file
 * for `path`, taken exclusively: never read as a ref if a crash leaves it, and a git holding it meanwhile
 * makes this fail instead of racing it.
 */
function replaceDurably(path: string, text: string): void {
  const temp = `${path}.lock`;
  const fd = openSync(temp, 'wx', 0o644);
  try {
    const data = Buffer.from(text);
    for (let off = 0; off < data.length;) off += writeSync(fd, data, off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
  fsyncDir(dirname(path));
}

/**
 * Sets HEAD's branch to `commit` when its loose ref holds no object id (torn). Only the dead writer's
 * update-ref renames that file under the lease, and only after its compare-and-swap passed: the text it
 * lost was `commit`, whose objects were on disk before the ref moved — checked here all the same, so a
 * planted entry never points the branch at a commit the store lacks. False when the ref is whole.
 */
export async function repairTornRef(git: GitRunner, memoryDir: string, commit: string): Promise<boolean> {
  const ref = headRefFile(memoryDir);
  let text: string;
  try {
    text = readFileSync(ref, 'utf8');
  } catch {
    return false; // absent (packed, or no commit yet): nothing was torn
  }
  const value = text.trim();
  if (OBJECT_ID.test(value) || value.startsWith('ref: ')) return false;
  if ((await git.exec(revParseOp(commit), { cwd: memoryDir })) !== commit) return false;
  replaceDurably(ref, `${commit}\n`);
  return true;
}

/** True when the file is an index (or a shared index part) whose trailing checksum matches its content. */
function indexIntact(path: string, hashLength: number, algorithm: string): boolean {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return false;
  }
  if (bytes.length < 12 + hashLength || bytes.subarray(0, 4).toString('latin1') !== 'DIRC') return false;
  const trailer = bytes.subarray(bytes.length - hashLength);
  if (trailer.every((b) => b === 0)) return true; // written with index.skipHash: nothing to check against
  return createHash(algorithm)
    .update(bytes.subarray(0, bytes.length - hashLength))
    .digest()
    .equals(trailer);
}

/**
 * Rebuilds the index from `head` (null: empty) when it or a shared part of it fails its checksum; the
 * recovery then stages the journal's entries on it. The rebuilt index has no stat data, so the next clean
 * check reads the files once. False when the index is whole.
 */
export async function repairTornIndex(
  git: GitRunner,
  memoryDir: string,
  head: string | null,
  paths: readonly string[],
  durable: boolean,
): Promise<boolean> {
  const gitDir = gitDirAt(memoryDir) ?? join(memoryDir, '.git');
  if (!existsSync(join(gitDir, 'index'))) return false;
  const sha256 = repoObjectFormat(resolveGitCommonDir(memoryDir)) === 'sha256';
  const whole = indexFiles(gitDir).every((f) => indexIntact(f, sha256 ? 32 : 20, sha256 ? 'sha256' : 'sha1'));
  // A whole index naming a shared part that did not survive: git itself cannot read it.
  if (
    whole &&
    (await git.run(['ls-files', '-z', '--stage', '--', ...paths], { cwd: memoryDir }).then(
      () => true,
      () => false,
    ))
  )
    return false;
  // Built aside and renamed over the torn one: a crash meanwhile still leaves a torn index (repaired again), never none.
  const aside = join(gitDir, 'index.gitmem-rebuild');
  rmSync(aside, { force: true });
  await git.run(['read-tree', ...(head === null ? ['--empty'] : [head])], {
    cwd: memoryDir,
    env: { GIT_INDEX_FILE: aside },
    config: ['core.splitIndex=false'],
  });
  renameSync(aside, join(gitDir, 'index'));
  if (durable) await syncRenamed(indexFiles(gitDir), [gitDir]);
  return true;
}
