/**
 * `gitmem disconnect <harness>`: takes out exactly what connect added. A file that is still what connect
 * wrote gets its earlier bytes back (or goes, if connect created it); one changed since loses only our
 * entries (found by their command text and markers), and goes only if connect created it and nothing
 * else is left. Everything is planned before anything is written.
 */
import { dirname } from 'node:path';
import type { HarnessId, Scope } from './catalogue.js';
import { readConnections, saveConnection, sameConnection } from './connections.js';
import { locations, outcome, writeChanges, type FileOutcome } from './connect.js';
import { lineDiff } from './diff.js';
import { removeEmptyDirs, removeFile } from './files.js';
import { harnessNamed, scopeNamed } from './names.js';
import { changed, planDisconnect } from './plan.js';

export interface DisconnectOptions {
  home: string;
  harness: string | undefined;
  scope?: string | undefined;
  dryRun?: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
}

export interface DisconnectResult {
  harness: HarnessId;
  scope: Scope;
  projectRoot: string;
  /** Something of gitmem's was there (and, unless a dry run, is gone now). */
  changed: boolean;
  dryRun: boolean;
  files: FileOutcome[];
  diff: string;
}

/**
 * Disconnects `harness` in `scope`; "not connected" (changed false) when nothing of gitmem's is there.
 * @example disconnect({ home, harness: 'codex', env: process.env, cwd: process.cwd() }).changed
 */
export function disconnect(o: DisconnectOptions): DisconnectResult {
  const harness = harnessNamed(o.harness);
  const scope = scopeNamed(o.scope);
  const where = locations(o.env, o.cwd);
  const key = { harness, scope, ...(scope === 'project' ? { projectRoot: where.projectRoot } : {}) };
  const record = readConnections(o.home).find((c) => sameConnection(c, key));
  const changes = planDisconnect(harness, scope, where, record?.files ?? []);
  const result: DisconnectResult = {
    harness,
    scope,
    projectRoot: where.projectRoot,
    changed: changes.some(changed),
    dryRun: o.dryRun === true,
    files: changes.map(outcome),
    diff: changes
      .filter(changed)
      .map((c) => lineDiff(c.file.path, c.before, c.after))
      .join(''),
  };
  if (o.dryRun) return result;
  writeChanges(changes, record?.files ?? []);
  for (const c of changes) if (c.before !== undefined && c.after === undefined) removeFile(c.file.path);
  for (const r of record?.files ?? []) if (r.createdDir !== undefined) removeEmptyDirs(dirname(r.path), r.createdDir);
  if (record) saveConnection(o.home, key, undefined);
  return result;
}
