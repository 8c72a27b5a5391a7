/**
 * `$GITMEM_HOME/connections.json`: what connect wrote where, so disconnect can give each file back byte
 * for byte. It keeps fingerprints, never the settings themselves (~/.claude.json holds account data): the
 * bytes before connect are in `<file>.gitmem-backup`, used only while its fingerprint still matches.
 */
import { join } from 'node:path';
import { MemoryError } from '../index.js';
import type { FileKind, HarnessId, Scope } from './catalogue.js';
import { readIfExists, writeAtomic } from './files.js';

export interface FileRecord {
  path: string;
  kind: FileKind;
  /** The file existed before gitmem first wrote to it (else disconnect may delete it). */
  existed: boolean;
  /** Fingerprint of the bytes before connect (held by the backup), when they had nothing of gitmem's. */
  before?: string;
  /** Fingerprint of what connect last wrote. */
  after: string;
  /** The outermost directory connect created for the file (removed by disconnect when left empty). */
  createdDir?: string;
}

export interface Connection {
  harness: HarnessId;
  scope: Scope;
  /** The project's git root (scope `project`). */
  projectRoot?: string;
  /** `--agent`, when given. */
  agent?: string;
  /** ISO time of the last connect that changed something. */
  time: string;
  files: FileRecord[];
}

interface ConnectionsFile {
  version: 1;
  connections: Connection[];
}

/** The record's path under a gitmem home. */
export function connectionsPath(home: string): string {
  return join(home, 'connections.json');
}

/** Every recorded connection (none when the file does not exist). */
export function readConnections(home: string): Connection[] {
  const path = connectionsPath(home);
  const text = readIfExists(path);
  if (text === undefined || text.trim() === '') return [];
  try {
    const parsed = JSON.parse(text) as Partial<ConnectionsFile>;
    if (!Array.isArray(parsed.connections)) throw new Error('no "connections" array');
    return parsed.connections;
  } catch (err) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `${path} is not a gitmem connections record (${(err as Error).message}); move it aside to start afresh`,
      { data: { path }, cause: err },
    );
  }
}

/** Whether two records are about the same harness files. */
export function sameConnection(
  a: Pick<Connection, 'harness' | 'scope' | 'projectRoot'>,
  b: Pick<Connection, 'harness' | 'scope' | 'projectRoot'>,
): boolean {
  return a.harness === b.harness && a.scope === b.scope && (a.scope === 'user' || a.projectRoot === b.projectRoot);
}

/** Replaces (or with `next` undefined, drops) the record of `key`; writes the file atomically (mode 0600). */
export function saveConnection(
  home: string,
  key: Pick<Connection, 'harness' | 'scope' | 'projectRoot'>,
  next: Connection | undefined,
): void {
  const kept = readConnections(home).filter((c) => !sameConnection(c, key));
  const file: ConnectionsFile = { version: 1, connections: next ? [...kept, next] : kept };
  writeAtomic(connectionsPath(home), `${JSON.stringify(file, null, 2)}\n`, 0o600);
}
