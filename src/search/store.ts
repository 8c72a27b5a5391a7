/**
 * The index's contents, as operations on one SQLite connection. Blobs are keyed by their git object id (a
 * blob is indexed once, whatever its paths and however many revisions hold it); `paths` is the tree of the
 * one commit named in `meta.commit` (path → blob), moved forward in the same transaction as the blobs it
 * needs, so a reader never sees a map naming a blob that is not indexed. A revision other than that commit is
 * searched through a temporary map of its own tree.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Db } from './open-store.js';
import type { QueryItem } from './query.js';
import { indexValues } from './text.js';

/**
 * A blob to add: its bytes when search indexes them (UTF-8, no NUL, not too large), else null (kept, so it is
 * never read again). Defined here beside MapChange: the readers that produce them (blob-read.ts,
 * sync.ts) import the store's shapes, never the reverse.
 */
export interface BlobInput {
  oid: string;
  bytes: Buffer | null;
}

/** How the map moves: every path of the new tree, or the paths that changed since `from`. */
export type MapChange =
  | { kind: 'full'; entries: ReadonlyMap<string, string> }
  | { kind: 'delta'; set: ReadonlyMap<string, string>; removed: readonly string[] };

export interface RankedRow {
  path: string;
  id: number;
  rank: number;
}

/** Thrown inside a transaction when another process moved the map first; the caller starts again. */
export class MovedMeanwhile extends Error {}

// Stale blobs (held by no path of the mapped commit) are dropped once they outnumber the live ones by this.
const PRUNE_SLACK = 1_000;

export class SearchStore {
  /** The commit (and database version) whose tree the temporary map holds. */
  private atKey: string | null = null;
  private readonly statements = new Map<string, BetterSqlite3.Statement<unknown[]>>();
  constructor(readonly db: Db) {}

  /** A prepared statement, compiled once per store (a build runs some of them for every file). */
  private sql(text: string): BetterSqlite3.Statement<unknown[]> {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  meta(key: string): string {
    return (this.sql('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined) ?? '';
  }

  /** How many blobs this index file ever added (`meta.ingested`: shows that an update read only new blobs). */
  ingested(): number {
    return Number(this.meta('ingested'));
  }

  /** The commit `paths` maps, or null before the first build. */
  mappedCommit(): string | null {
    return this.meta('commit') || null;
  }

  /** Which of these blob ids are not in the index yet (all of them while it holds none: a first build). */
  missing(oids: Iterable<string>): string[] {
    const unique = new Set(oids);
    if (this.sql('SELECT id FROM blobs LIMIT 1').get() === undefined) return [...unique];
    const get = this.sql('SELECT id FROM blobs WHERE oid = ?').pluck();
    const out: string[] = [];
    for (const oid of unique) if (get.get(oid) === undefined) out.push(oid);
    return out;
  }

  /** Adds blobs (the full-text fields of those search reads); returns the row id of each one added here. */
  private insertBlobs(blobs: readonly BlobInput[]): Map<string, number> {
    const addBlob = this.sql('INSERT OR IGNORE INTO blobs(oid, indexed) VALUES (?, ?)');
    const addText = this.sql('INSERT INTO fts(rowid, description, body) VALUES (?, ?, ?)');
    const ids = new Map<string, number>();
    for (const b of blobs) {
      const r = addBlob.run(b.oid, b.bytes === null ? 0 : 1);
      if (r.changes === 0) continue; // another process indexed it first
      const id = Number(r.lastInsertRowid);
      if (b.bytes !== null) {
        const v = indexValues(b.bytes);
        addText.run(id, v.description, v.body);
      }
      ids.set(b.oid, id);
    }
    if (ids.size > 0)
      this.sql("UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'ingested'").run(ids.size);
    return ids;
  }

  /** A blob's row id, inside a transaction; MovedMeanwhile when another process pruned it since `missing`. */
  private idOf(oid: string, added?: ReadonlyMap<string, number>): number {
    const id =
      added?.get(oid) ?? (this.sql('SELECT id FROM blobs WHERE oid = ?').pluck().get(oid) as number | undefined);
    if (id === undefined) throw new MovedMeanwhile();
    return id;
  }

  /** Adds blobs without moving the map (for searching another revision). */
  addBlobs(blobs: readonly BlobInput[]): void {
    if (blobs.length > 0) this.db.transaction(() => this.insertBlobs(blobs)).immediate();
  }

  /**
   * Adds `blobs` and moves the map from `from` to `to` in one transaction; MovedMeanwhile when the map no
   * longer names `from` (the caller recomputes from the new position).
   */
  advance(from: string | null, to: string, blobs: readonly BlobInput[], change: MapChange): void {
    const run = this.db.transaction(() => {
      const now = this.mappedCommit();
      if (now === to) return;
      if (now !== from && change.kind === 'delta') throw new MovedMeanwhile();
      const added = this.insertBlobs(blobs);
      const setPath = this.sql('INSERT OR REPLACE INTO paths(path, blob) VALUES (?, ?)');
      if (change.kind === 'full') this.db.exec('DELETE FROM paths');
      else for (const p of change.removed) this.sql('DELETE FROM paths WHERE path = ?').run(p);
      for (const [path, oid] of change.kind === 'full' ? change.entries : change.set)
        setPath.run(path, this.idOf(oid, added));
      this.db.prepare("UPDATE meta SET value = ? WHERE key = 'commit'").run(to);
      const applies = Number(this.meta('applies')) + 1;
      this.db.prepare("UPDATE meta SET value = ? WHERE key = 'applies'").run(String(applies));
      if (change.kind === 'full' || applies % 64 === 0) this.pruneStale();
    });
    run.immediate();
  }

  private pruneStale(): void {
    const total = this.db.prepare('SELECT count(*) FROM blobs').pluck().get() as number;
    const live = this.db.prepare('SELECT count(DISTINCT blob) FROM paths').pluck().get() as number;
    if (total - live <= live + PRUNE_SLACK) return;
    this.db.exec(`CREATE TEMP TABLE IF NOT EXISTS stale(id INTEGER PRIMARY KEY); DELETE FROM temp.stale;
      INSERT INTO temp.stale SELECT id FROM blobs WHERE id NOT IN (SELECT blob FROM paths);
      DELETE FROM fts WHERE rowid IN (SELECT id FROM temp.stale);
      DELETE FROM vectors WHERE oid IN (SELECT oid FROM blobs WHERE id IN (SELECT id FROM temp.stale));
      DELETE FROM blobs WHERE id IN (SELECT id FROM temp.stale); DELETE FROM temp.stale;`);
    this.atKey = null;
  }

  /** Loads another revision's map into the connection's temporary table (kept while the same commit is asked). */
  mapRevision(commit: string, entries: ReadonlyMap<string, string>): void {
    // data_version moves when another connection commits (it may have pruned blobs this map names).
    const key = `${commit}:${String(this.db.pragma('data_version', { simple: true }))}`;
    if (this.atKey === key) return;
    this.atKey = null;
    this.db.transaction(() => {
      this.db.exec('DELETE FROM temp.at_paths');
      const add = this.sql('INSERT INTO temp.at_paths(path, blob) VALUES (?, ?)');
      for (const [path, oid] of entries) add.run(path, this.idOf(oid));
    })();
    this.atKey = key;
  }

  /** Full-text hits in the mapped commit (`head`) or the temporary map (`at`), best first. */
  rank(match: string, scope: 'head' | 'at', limit: number, pathOk?: (path: string) => boolean): RankedRow[] {
    const table = scope === 'head' ? 'main.paths' : 'temp.at_paths';
    const filter = pathOk ? 'AND gitmem_path_ok(p.path)' : '';
    if (pathOk)
      this.db.function('gitmem_path_ok', { deterministic: true }, (p: unknown) => (pathOk(String(p)) ? 1 : 0));
    const sql = `SELECT p.path AS path, fts.rowid AS id, bm25(fts, 4.0, 1.0) AS rank FROM fts JOIN ${table} p ON p.blob = fts.rowid
      WHERE fts MATCH ? ${filter} ORDER BY rank, p.path LIMIT ?`;
    return this.db.prepare(sql).all(match, limit) as RankedRow[];
  }

  /** Every (path, blob id) of a scope that passes the filter (candidates for semantic ranking). */
  scopeRows(scope: 'head' | 'at'): Array<{ path: string; id: number; oid: string }> {
    const table = scope === 'head' ? 'main.paths' : 'temp.at_paths';
    return this.db
      .prepare(
        `SELECT p.path AS path, b.id AS id, b.oid AS oid FROM ${table} p JOIN blobs b ON b.id = p.blob WHERE b.indexed = 1`,
      )
      .all() as Array<{ path: string; id: number; oid: string }>;
  }

  /** The blob ids of rows (a hit's text is read from git by its id). */
  oids(ids: readonly number[]): Map<number, string> {
    const get = this.sql('SELECT oid FROM blobs WHERE id = ?').pluck();
    const out = new Map<number, string>();
    for (const id of new Set(ids)) {
      const oid = get.get(id) as string | undefined;
      if (oid !== undefined) out.set(id, oid);
    }
    return out;
  }

  vectors(model: string, oids: readonly string[]): Map<string, Float32Array> {
    const get = this.db.prepare('SELECT vec FROM vectors WHERE oid = ? AND model = ?').pluck();
    const out = new Map<string, Float32Array>();
    for (const oid of oids) {
      const buf = get.get(oid, model) as Buffer | undefined;
      if (buf) out.set(oid, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
    }
    return out;
  }

  putVectors(model: string, rows: ReadonlyArray<{ oid: string; vec: Float32Array }>): void {
    const put = this.db.prepare('INSERT OR REPLACE INTO vectors(oid, model, vec) VALUES (?, ?, ?)');
    this.db
      .transaction(() => {
        for (const r of rows) put.run(r.oid, model, Buffer.from(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength));
      })
      .immediate();
  }
}

export type { QueryItem };
