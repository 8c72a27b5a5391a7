/**
 * The first build of an index, made aside and published whole: a private file (its rollback journal in
 * memory, no syncs while it is written: each page is written once, where a log writes it twice) receives
 * the schema, every blob and the map of one commit in one transaction; it is switched to write-ahead
 * logging, synced, and hard-linked to the index's name, which fails if the name exists meanwhile (another
 * process published or opened one first: that file is kept and this one dropped; a file is never renamed
 * over one that may have a log). A killed build leaves only its private file, removed by the next build
 * once its process is gone: the index's name never holds a half-built file.
 */
import { closeSync, existsSync, fsyncSync, linkSync, openSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isProcessAlive } from '../git/lease-file.js';
import { createAside, indexFileName, indexFilePath } from './open-store.js';
import { SearchStore } from './store.js';
import { syncMap } from './sync.js';
import type { RepoRef } from './blob-read.js';

/** Private build files of processes that are gone (killed mid-build). */
function removeStrays(path: string): void {
  const prefix = `${basename(path)}.build-`;
  for (const name of readdirSync(dirname(path))) {
    const pid = Number(name.startsWith(prefix) ? name.slice(prefix.length).split('-')[0] : NaN);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isProcessAlive(pid))
      rmSync(join(dirname(path), name), { force: true });
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Builds and publishes the index of `commonDir` mapped at `target` when it has no index file yet; a no-op
 * when it has one (or cannot have one: its index then lives in memory).
 * @example await buildIfAbsent(repo, '/mem/.git', headCommit)
 */
export async function buildIfAbsent(repo: RepoRef, commonDir: string, target: string): Promise<void> {
  if (existsSync(indexFileName(commonDir))) return; // the usual case: one stat
  const path = indexFilePath(commonDir);
  if (path === null) return;
  removeStrays(path);
  const aside = `${path}.build-${process.pid}-${randomBytes(6).toString('hex')}`;
  try {
    const db = createAside(aside);
    try {
      await syncMap(repo, new SearchStore(db), target);
      db.pragma('journal_mode = WAL');
    } finally {
      db.close();
    }
    syncFile(aside);
    try {
      linkSync(aside, path);
    } catch {
      // EEXIST: another process published (or opened) an index first, which is used; anything else (no hard
      // links on this file system, the private file removed meanwhile): the index is built in place instead
    }
  } finally {
    rmSync(aside, { force: true });
  }
}
