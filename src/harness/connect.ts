/**
 * `gitmem connect <harness>`: registers gitmem's hooks and MCP server in a harness's settings. Every
 * file is read and its new text computed first (a refusal writes nothing anywhere); then each changed
 * file gets a backup of its previous bytes and an atomic write, and the home records what was done.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { MemoryError } from '../index.js';
import { HARNESSES, type HarnessId, type Locations, type Scope } from './catalogue.js';
import type { Launch } from './command-line.js';
import { applyConfigChange, planProjectAgent, type ConfigChange } from './config-edit.js';
import { readConnections, saveConnection, sameConnection, type Connection, type FileRecord } from './connections.js';
import { lineDiff } from './diff.js';
import { backupPath, fingerprint, writeAtomic } from './files.js';
import { listHooks } from './json-settings.js';
import { checkAgent, harnessNamed, scopeNamed } from './names.js';
import { changed, planConnect, withoutOurs, type AutoMemoryPlan, type FileChange } from './plan.js';
import { agentForProject, projectRootOf } from './projects.js';

export interface ConnectOptions {
  home: string;
  /** The harness's catalogue name (checked). */
  harness: string | undefined;
  /** `user` (default) or `project` (checked). */
  scope?: string | undefined;
  /** `--agent`: written into the hooks and the MCP args, and mapped to the project. */
  agent?: string | undefined;
  dryRun?: boolean;
  /** `--auto-memory`: the harness's own memory folder setting points at this checkout, with the write hooks. */
  autoMemory?: AutoMemoryPlan | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  /** How the hooks start this gitmem: `process.execPath` and the CLI's resolved path. */
  launch: Omit<Launch, 'agent'>;
  now?: () => Date;
}

export interface FileOutcome {
  path: string;
  kind: string;
  action: 'created' | 'updated' | 'deleted' | 'unchanged';
}

export interface ConnectResult {
  harness: HarnessId;
  scope: Scope;
  projectRoot: string;
  /** The agent the sessions will use: --agent, else the project's mapping (undefined: the default-agent rule). */
  agent: string | undefined;
  changed: boolean;
  dryRun: boolean;
  files: FileOutcome[];
  /** The project mapping written to the config, when --agent was given and it changed. */
  mapped: boolean;
  /** The dry run's picture of every change. */
  diff: string;
  notices: string[];
}

/** Where the harness's files are for this caller. */
export function locations(env: Record<string, string | undefined>, cwd: string): Locations {
  return { env, userHome: env['HOME']?.trim() || homedir(), projectRoot: projectRootOf(cwd) };
}

export function outcome(c: FileChange): FileOutcome {
  const action = !changed(c)
    ? 'unchanged'
    : c.before === undefined
      ? 'created'
      : c.after === undefined
        ? 'deleted'
        : 'updated';
  return { path: c.file.path, kind: c.file.kind, action };
}

/**
 * The record of one file: the pre-connect fingerprint stays while the file is what we wrote last; bytes
 * that already held gitmem's entries are no state to restore, so they get no `before`.
 */
function recordOf(
  harness: HarnessId,
  c: FileChange,
  prior: FileRecord | undefined,
  createdDir: string | undefined,
): FileRecord {
  const after = fingerprint(c.after ?? '');
  if (prior && c.before !== undefined && prior.after === fingerprint(c.before)) return { ...prior, after };
  if (prior && !changed(c)) return prior;
  const clean = c.before !== undefined && withoutOurs(harness, c.file, c.before) === c.before;
  return {
    path: c.file.path,
    kind: c.file.kind,
    existed: c.before !== undefined,
    ...(clean ? { before: fingerprint(c.before ?? '') } : {}),
    after,
    ...(createdDir === undefined ? {} : { createdDir }),
  };
}

/** The outermost missing directory above a file about to be created (disconnect removes it again if empty). */
function missingDir(c: FileChange): string | undefined {
  if (!changed(c) || c.before !== undefined) return undefined;
  let top: string | undefined;
  for (let dir = dirname(c.file.path); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) top = dir;
  return top;
}

/** Writes the changed files: a backup of the old bytes first, unless they are only what we wrote last. */
export function writeChanges(changes: readonly FileChange[], priors: readonly FileRecord[]): void {
  for (const c of changes.filter(changed)) {
    const prior = priors.find((r) => r.path === c.file.path);
    const ours = prior !== undefined && c.before !== undefined && prior.after === fingerprint(c.before);
    if (c.before !== undefined && !ours) writeAtomic(backupPath(c.file.path), c.before, 0o600);
    if (c.after !== undefined) writeAtomic(c.file.path, c.after, c.file.mode);
  }
}

function diffOf(changes: readonly FileChange[], config: ConfigChange | undefined): string {
  const parts = changes.filter(changed).map((c) => lineDiff(c.file.path, c.before, c.after));
  if (config?.changed) parts.push(lineDiff(config.path, config.before, config.after));
  return parts.join('');
}

/**
 * Connects `harness`: hooks and MCP server in its settings (scope user or project).
 * @example await connect({ home, harness: 'codex', env: process.env, cwd: process.cwd(), launch: { node, bin } })
 */
export function connect(o: ConnectOptions): ConnectResult {
  const harness = harnessNamed(o.harness);
  const scope = scopeNamed(o.scope);
  checkAgent(o.home, o.agent);
  const where = locations(o.env, o.cwd);
  if (o.autoMemory && !HARNESSES[harness].autoMemory)
    throw new MemoryError('INVALID_ARGUMENT', `--auto-memory: ${harness} has no memory folder gitmem can keep`);
  const changes = planConnect(harness, scope, where, { ...o.launch, agent: o.agent }, o.autoMemory);
  const config = o.agent === undefined ? undefined : planProjectAgent(o.home, where.projectRoot, o.agent);
  const key = { harness, scope, ...(scope === 'project' ? { projectRoot: where.projectRoot } : {}) };
  const any = changes.some(changed) || config?.changed === true;
  const hooks = changes.find((c) => c.file.kind === 'json-hooks');
  const newHooks =
    hooks !== undefined && changed(hooks) && listHooks(hooks.file.path, hooks.before, harness).size === 0;
  const notice = HARNESSES[harness].hooksNotice;
  const result: ConnectResult = {
    harness,
    scope,
    projectRoot: where.projectRoot,
    agent: o.agent ?? agentForProject(o.home, o.cwd),
    changed: any,
    dryRun: o.dryRun === true,
    files: changes.map(outcome),
    mapped: config?.changed === true,
    diff: diffOf(changes, config),
    notices: newHooks && notice ? [notice] : [],
  };
  if (!any || o.dryRun) return result;
  const prior = readConnections(o.home).find((c) => sameConnection(c, key));
  const created = changes.map(missingDir);
  writeChanges(changes, prior?.files ?? []);
  if (config) applyConfigChange(config);
  const record: Connection = {
    ...key,
    ...(o.agent === undefined ? {} : { agent: o.agent }),
    time: (o.now?.() ?? new Date()).toISOString(),
    files: changes.map((c, i) =>
      recordOf(
        harness,
        c,
        prior?.files.find((r) => r.path === c.file.path),
        created[i],
      ),
    ),
  };
  saveConnection(o.home, key, record);
  return result;
}
