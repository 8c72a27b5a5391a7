/**
 * The checkout's HEAD commit read from its files, without a process, for the common shape only: a `.git`
 * directory whose HEAD names a loose branch ref (or is a detached id). Anything else — packed refs, a linked
 * worktree, a link or an odd file — is null and the caller asks git. Refs are replaced by rename, so a read
 * sees the old or the new id, never half; writers that move HEAD later still check the id they start from.
 */
import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import { readSmallFile } from './git-env.js';

const ID_LINE = /^([0-9a-f]{40})\n$/;
const BRANCH_REF = /^ref: (refs\/heads\/[A-Za-z0-9._/-]{1,200})\n$/;

/**
 * The commit id `<memoryDir>/.git/HEAD` resolves to through loose files, or null (ask git).
 * @example readHeadFile('/home/me/.gitmem/agents/a1/memory') // 'e6a8099…' or null
 */
export function readHeadFile(memoryDir: string): string | null {
  const gitDir = join(memoryDir, '.git');
  if (lstatSync(gitDir, { throwIfNoEntry: false })?.isDirectory() !== true) return null;
  const head = readSmallFile(join(gitDir, 'HEAD'), 512);
  if (head === null) return null;
  const detached = ID_LINE.exec(head)?.[1];
  if (detached !== undefined) return detached;
  const ref = BRANCH_REF.exec(head)?.[1];
  if (ref === undefined || ref.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock')))
    return null;
  const id = readSmallFile(join(gitDir, ref), 128);
  return id === null ? null : (ID_LINE.exec(id)?.[1] ?? null);
}
