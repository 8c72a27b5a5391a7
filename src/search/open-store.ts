/**
 * Opens the search index: one SQLite file under the common git dir (`gitmem/search/index-v3.sqlite`, never in
 * the work tree; deleting it is always safe — it is rebuilt from git). SQLite's write-ahead log keeps it
 * whole across a killed process and lets any number of processes read while one writes. A file that is not
 * a database, is corrupt or has another schema is removed and rebuilt; a git dir that cannot be written
 * (a read-only mount, a sandbox) gets an index in memory for the life of the process. The engine
 * (better-sqlite3) is loaded on the first search, never when gitmem is imported.
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { MemoryError } from '../errors.js';

export type Db = BetterSqlite3.Database;
type DbConstructor = new (path: string, options?: BetterSqlite3.Options) => Db;

/** Bumped whenever the schema or what is stored changes: an older file is then rebuilt. */
export const SCHEMA_VERSION = '3';
const FILE = `index-v${SCHEMA_VERSION}.sqlite`;

// Only what ranking needs is stored: blob ids and the full-text index. A hit's text (its line, snippet and
// description) is read from git by blob id when it is returned, so a build writes no copy of the files. FTS5
// keeps its in-memory terms up to `hashsize` bytes before writing a segment: a first build of thousands of
// files then writes one segment instead of many that automerge would merge again.
const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS blobs(id INTEGER PRIMARY KEY, oid TEXT NOT NULL UNIQUE, indexed INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS paths(path TEXT PRIMARY KEY, blob INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS paths_by_blob ON paths(blob);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(description, body, content='', contentless_delete=1,
  tokenize='unicode61 remove_diacritics 2');
INSERT INTO fts(fts, rank) VALUES ('hashsize', 33554432);
CREATE TABLE IF NOT EXISTS vectors(oid TEXT NOT NULL, model TEXT NOT NULL, vec BLOB NOT NULL, PRIMARY KEY(oid, model)) WITHOUT ROWID;
INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', '${SCHEMA_VERSION}'), ('commit', ''), ('ingested', '0'), ('applies', '0');
`;

let engine: DbConstructor | undefined;

/** better-sqlite3, loaded on first use; SEARCH_UNAVAILABLE when it is not installed or does not load. */
export function loadEngine(): DbConstructor {
  if (engine) return engine;
  try {
    engine = createRequire(import.meta.url)('better-sqlite3') as DbConstructor;
    return engine;
  } catch (err) {
    throw new MemoryError(
      'SEARCH_UNAVAILABLE',
      `search needs the optional dependency better-sqlite3, which did not load: ${(err as Error).message.split('\n')[0]}`,
      { cause: err },
    );
  }
}

/** Errors that mean the file itself is bad (as opposed to busy, full or unreadable). */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    code === 'SQLITE_CORRUPT' ||
    code === 'SQLITE_NOTADB' ||
    code === 'SQLITE_CORRUPT_VTAB' ||
    (err as Error).message === 'gitmem: index schema mismatch'
  );
}

/** `aside`: a private file being built whole (its rollback journal in memory, no syncs until it is published: see fresh-build.ts). */
function configure(db: Db, aside = false): Db {
  db.pragma('busy_timeout = 15000');
  if (aside) db.pragma('journal_mode = MEMORY');
  else if (!db.memory) db.pragma('journal_mode = WAL');
  db.pragma(aside ? 'synchronous = OFF' : 'synchronous = NORMAL');
  // Up to 32 MiB of pages in memory (allocated only as used), so a large build does not spill mid-transaction.
  db.pragma('cache_size = -32768');
  // Created once, in one transaction (IF NOT EXISTS: a racing creator's second pass changes nothing).
  if (db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'meta'").get() === undefined)
    db.transaction(() => db.exec(SCHEMA)).immediate();
  const schema = db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get();
  if (schema !== SCHEMA_VERSION) throw new Error('gitmem: index schema mismatch');
  db.exec('CREATE TEMP TABLE IF NOT EXISTS at_paths(path TEXT PRIMARY KEY, blob INTEGER NOT NULL) WITHOUT ROWID');
  return db;
}

/** Removes an index file and its log (a rebuild follows); other processes keep their open copy until they notice. */
export function removeIndexFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

function canWriteDir(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.probe-${process.pid}`);
    closeSync(openSync(probe, 'w', 0o600));
    rmSync(probe, { force: true });
    return true;
  } catch {
    return false;
  }
}

/** Where a common git dir's index file is (whether or not it exists). */
export function indexFileName(commonDir: string): string {
  return join(commonDir, 'gitmem', 'search', FILE);
}

/** Where a common git dir's index file is, or null when its directory cannot be written (the index is then in memory). */
export function indexFilePath(commonDir: string): string | null {
  const path = indexFileName(commonDir);
  return canWriteDir(dirname(path)) ? path : null;
}

/** A new, private index file at `path`, with the schema, for a build that is published whole afterwards. */
export function createAside(path: string): Db {
  return configure(new (loadEngine())(path), true);
}

/** Opens (creating, or rebuilding a bad file) the index for a common git dir. */
function openFresh(commonDir: string): { db: Db; path: string | null } {
  const Database = loadEngine();
  const path = indexFilePath(commonDir);
  if (path === null) return { db: configure(new Database(':memory:')), path: null };
  for (let attempt = 0; ; attempt++) {
    let db: Db | undefined;
    try {
      db = new Database(path);
      return { db: configure(db), path };
    } catch (err) {
      db?.close();
      if (!isCorruption(err) || attempt > 0) throw err;
      removeIndexFiles(path);
    }
  }
}

interface Cached {
  db: Db;
  path: string | null;
  ino: number;
}
const open = new Map<string, Cached>();

function inode(path: string | null): number {
  if (path === null) return 0;
  try {
    return statSync(path).ino;
  } catch {
    return -1;
  }
}

/**
 * The process's connection to a repository's index, reopened when the file was removed or replaced
 * (so a deleted index is rebuilt on the next search). One connection per index and process.
 * @example const { db } = indexConnection('/mem/.git')
 */
export function indexConnection(commonDir: string): { db: Db; path: string | null } {
  const hit = open.get(commonDir);
  if (hit && inode(hit.path) === hit.ino) return hit;
  if (hit) hit.db.close();
  const fresh = openFresh(commonDir);
  const entry = { ...fresh, ino: inode(fresh.path) };
  open.set(commonDir, entry);
  return entry;
}

/** Closes and forgets a connection (after corruption was met, or in tests). */
export function dropConnection(commonDir: string, removeFiles = false): void {
  const hit = open.get(commonDir);
  open.delete(commonDir);
  hit?.db.close();
  if (removeFiles && hit?.path) removeIndexFiles(hit.path);
}
