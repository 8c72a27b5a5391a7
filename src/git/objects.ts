/**
 * Writes git objects (blobs, trees, commits) straight into the object store, in git's own loose-object
 * format (zlib-deflated `<type> <size>\0<content>`, named by its SHA-1 or SHA-256: the repository's object
 * format, see object-format.ts). The write path uses it so a commit costs no git process for hashing and tree
 * building; git remains the reader of everything written here.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  rmSync,
  openSync,
  renameSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type * as Crypto from 'node:crypto';
import type * as Zlib from 'node:zlib';
import type { ObjectFormat } from './object-format.js';

// Loaded on first write: zlib and crypto cost start-up time that read-only CLI calls should not pay.
const builtin = <T>(id: string): T => process.getBuiltinModule(id) as T;

export type ObjectType = 'blob' | 'tree' | 'commit';

/** One tree entry: `mode` as git writes it (`100644`, `100755`, `120000`, `40000`, `160000`). */
export interface TreeItem {
  mode: string;
  /** The name decoded as UTF-8 (lossy for a name that is not UTF-8: use `raw` for identity). */
  name: string;
  /** Object id in hex: 40 digits (SHA-1) or 64 (SHA-256), the repository's format. */
  id: string;
  /**
   * The name's exact bytes, as read from a tree. Serialising uses them, so a sibling whose name is not
   * UTF-8 (committed by raw git) is written back unchanged.
   */
  raw?: Buffer;
}

/** A tree entry's name as bytes: `raw` when it was read from a tree, else the UTF-8 of `name`. Pure. */
export function nameBytes(item: TreeItem): Buffer {
  return item.raw ?? Buffer.from(item.name, 'utf8');
}

/** The id git gives `content` as an object of `type` in a repository of `format` (default SHA-1). Pure. */
export function objectId(type: ObjectType, content: Buffer, format: ObjectFormat = 'sha1'): string {
  const { createHash } = builtin<typeof Crypto>('node:crypto');
  return createHash(format).update(`${type} ${content.length}\0`).update(content).digest('hex');
}

/** An object hashed and compressed but not yet in the store (see ObjectBatch). */
export interface PendingObject {
  dir: string;
  file: string;
  data: Buffer;
}

/** Objects in temp files, flushed by the caller before `place` makes them objects (see stageDurably). */
export interface StagedObjects {
  fds: readonly number[];
  place(): string[];
  discard(): void;
}

/**
 * Objects prepared in memory and written later in one go: the write path hashes and compresses while it
 * waits for git, and stores nothing if the write is then refused.
 */
export class ObjectBatch {
  readonly pending: PendingObject[] = [];
  /** Loose objects the commit reuses: freshened on store, as git does, so a concurrent prune spares them. */
  private readonly reused: Array<{ dir: string; file: string; type: ObjectType; content: Buffer }> = [];
  private readonly ids = new Set<string>();
  constructor(
    readonly objectsDir: string,
    readonly format: ObjectFormat = 'sha1',
  ) {}

  /** The object's id; queues it unless the store (or this batch) already has it. */
  add(type: ObjectType, content: Buffer): string {
    const id = objectId(type, content, this.format);
    if (this.ids.has(id)) return id;
    const dir = join(this.objectsDir, id.slice(0, 2));
    const file = join(dir, id.slice(2));
    this.ids.add(id);
    if (existsSync(file)) return (this.reused.push({ dir, file, type, content }), id);
    this.pending.push({ dir, file, data: deflateObject(type, content) });
    return id;
  }

  /** Writes every queued object (each atomically) and freshens the reused ones (rewriting any pruned meanwhile). */
  store(): void {
    for (const o of this.pending) storeWithRetry(o);
    this.freshen();
  }

  /**
   * The durable store's first half: every queued object goes to a temp file in its fan-out directory,
   * invisible to git. The caller flushes `fds` (with anything else that may go in the same flush), then
   * calls `place`, which renames each into the store, freshens the reused ones and returns the directories
   * whose entries changed (to flush next); `discard` removes the temps instead. Either closes the files.
   */
  stageDurably(): StagedObjects {
    const staged: Array<{ o: PendingObject; tmp: string; fd: number }> = [];
    const dirs = new Set<string>();
    const close = (): void => staged.forEach((s) => closeSync(s.fd));
    const discard = (): void => {
      close();
      for (const s of staged) rmSync(s.tmp, { force: true });
    };
    try {
      for (const o of this.pending) {
        if (existsSync(o.file)) continue;
        const made = mkdirSync(o.dir, { recursive: true });
        if (made !== undefined) dirs.add(dirname(made)); // a new fan-out directory: its parent's entry
        const tmp = join(o.dir, `tmp_obj_${process.pid}_${Math.random().toString(16).slice(2)}`);
        const fd = openSync(tmp, 'wx', 0o444);
        staged.push({ o, tmp, fd });
        writeSync(fd, o.data);
      }
    } catch (err) {
      discard();
      throw err;
    }
    const place = (): string[] => {
      close();
      for (const { o, tmp } of staged) {
        renameSync(tmp, o.file);
        dirs.add(o.dir);
      }
      this.freshen();
      return [...dirs];
    };
    return { fds: staged.map((s) => s.fd), place, discard };
  }

  private freshen(): void {
    const now = new Date();
    for (const r of this.reused) {
      try {
        utimesSync(r.file, now, now);
      } catch {
        storeWithRetry({ dir: r.dir, file: r.file, data: deflateObject(r.type, r.content) });
      }
    }
  }
}

function deflateObject(type: ObjectType, content: Buffer): Buffer {
  const { deflateSync } = builtin<typeof Zlib>('node:zlib');
  return deflateSync(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]));
}

/**
 * Stores an object as a loose object under `objectsDir` (no-op when it already exists); returns its id.
 * @example writeObject('/m/.git/objects', 'blob', Buffer.from('hi\n')) // '45b983be36b73c0788dc9cbcb76cbb80fc7bb057'
 */
export function writeObject(
  objectsDir: string,
  type: ObjectType,
  content: Buffer,
  format: ObjectFormat = 'sha1',
): string {
  const batch = new ObjectBatch(objectsDir, format);
  const id = batch.add(type, content);
  batch.store();
  return id;
}

function storeWithRetry(o: PendingObject): void {
  // A concurrent `git gc` may remove an emptied fan-out directory between our mkdir and open: retry.
  for (let attempt = 1; ; attempt++) {
    try {
      if (!existsSync(o.file)) storeAtomically(o.dir, o.file, o.data);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 5) throw err;
    }
  }
}

function storeAtomically(dir: string, file: string, data: Buffer): void {
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `tmp_obj_${process.pid}_${Math.random().toString(16).slice(2)}`);
  const fd = openSync(tmp, 'wx', 0o444);
  try {
    writeSync(fd, data);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, file); // atomic: readers see the whole object or none
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone with its directory
    }
    if (!existsSync(file)) throw err;
  }
}

/** Parses a raw tree object whose entries name objects by `hashBytes`-byte ids (20: SHA-1, 32: SHA-256). Pure. */
export function parseTree(raw: Buffer, hashBytes = 20): TreeItem[] {
  const items: TreeItem[] = [];
  let pos = 0;
  while (pos < raw.length) {
    const space = raw.indexOf(0x20, pos);
    const nul = raw.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + hashBytes > raw.length) throw new Error('corrupt tree object');
    const nameRaw = raw.subarray(space + 1, nul);
    items.push({
      mode: raw.subarray(pos, space).toString('latin1'),
      name: nameRaw.toString('utf8'),
      id: raw.subarray(nul + 1, nul + 1 + hashBytes).toString('hex'),
      raw: nameRaw,
    });
    pos = nul + 1 + hashBytes;
  }
  return items;
}

const SLASH = Buffer.from('/');

/**
 * Serialises tree entries in git's order (names compared as bytes, directories as if ending in '/'); each id
 * is written as the bytes its hex spells, so SHA-1 and SHA-256 trees come out alike. Pure.
 */
export function serializeTree(items: readonly TreeItem[]): Buffer {
  // One key per entry and one output buffer: trees of large directories are rebuilt on every write there.
  const keyed = items.map((e) => {
    const name = nameBytes(e);
    return { e, name, key: e.mode === '40000' ? Buffer.concat([name, SLASH]) : name };
  });
  keyed.sort((a, b) => Buffer.compare(a.key, b.key));
  let size = 0;
  for (const { e, name } of keyed) size += e.mode.length + name.length + 2 + e.id.length / 2;
  const out = Buffer.allocUnsafe(size);
  let pos = 0;
  for (const { e, name } of keyed) {
    pos += out.write(e.mode, pos, 'latin1');
    out[pos++] = 0x20;
    pos += name.copy(out, pos);
    out[pos++] = 0;
    pos += out.write(e.id, pos, 'hex');
  }
  return out;
}

export interface CommitFields {
  tree: string;
  parents: readonly string[];
  author: { name: string; email: string };
  /** Seconds since the epoch. */
  time: number;
  message: string;
}

// git refuses identities containing these; strip them as `git commit` would.
const identityPart = (s: string): string => s.replace(/[<>\n\r\0]/g, '').trim();

/** The raw text of a commit object (UTC timestamps, message ending in one newline). Pure. */
export function commitText(c: CommitFields): Buffer {
  const name = identityPart(c.author.name) || 'gitmem';
  const email = identityPart(c.author.email);
  const who = `${name} <${email}> ${Math.floor(c.time)} +0000`;
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${who}`, `committer ${who}`];
  const message = c.message.endsWith('\n') ? c.message : `${c.message}\n`;
  return Buffer.from(`${lines.join('\n')}\n\n${message}`, 'utf8');
}
