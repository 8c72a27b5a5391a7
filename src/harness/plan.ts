/**
 * Read → pure plan: for each settings file of a harness, its text now and the text connect or disconnect
 * would leave, computed for every file before any is written (so a malformed second file stops the
 * first from being touched too).
 */
import { HARNESSES, type Harness, type HarnessId, type Locations, type Scope, type SettingsFile } from './catalogue.js';
import { hookCommand, mcpServer, type Launch } from './command-line.js';
import type { FileRecord } from './connections.js';
import { backupPath, fingerprint, readIfExists } from './files.js';
import {
  addHooks,
  addMcpServer,
  addSetting,
  listHooks,
  readMcpServer,
  removeHooks,
  removeMcpServer,
  removeSetting,
  type HookEntry,
} from './json-settings.js';
import { addTomlServer, readTomlServer, removeTomlServer } from './toml-settings.js';

/** One file's planned change; `after` undefined deletes the file. */
export interface FileChange {
  file: SettingsFile;
  before: string | undefined;
  after: string | undefined;
}

export function changed(c: FileChange): boolean {
  return c.before !== c.after;
}

/** The hook entries of `harness` for this launch (its auto-memory set when `autoMemory`). */
export function hookEntries(harness: Harness, launch: Launch, autoMemory = false): HookEntry[] {
  const events = autoMemory && harness.autoMemory ? harness.autoMemory.events : harness.events;
  return events.map((e) => ({
    event: e.event,
    command: hookCommand(launch, harness.id, e.gitmem),
    timeout: e.timeout,
    ...(e.matcher === undefined ? {} : { matcher: e.matcher }),
  }));
}

/** `--auto-memory`: the checkout the harness's own memory folder becomes. */
export interface AutoMemoryPlan {
  memoryDir: string;
}

function add(
  harness: Harness,
  file: SettingsFile,
  text: string | undefined,
  launch: Launch,
  auto: AutoMemoryPlan | undefined,
): string {
  if (file.kind === 'json-hooks') {
    const hooks = addHooks(file.path, text, harness.id, hookEntries(harness, launch, auto !== undefined));
    const key = harness.autoMemory?.setting;
    if (key === undefined) return hooks;
    return auto ? addSetting(file.path, hooks, key, auto.memoryDir) : removeSetting(file.path, hooks, key);
  }
  if (file.kind === 'json-mcp') return addMcpServer(file.path, text, mcpServer(launch));
  return addTomlServer(file.path, text, harness.id, mcpServer(launch));
}

/** What connect would write to each of the harness's files (throws before anything is written). */
export function planConnect(
  id: HarnessId,
  scope: Scope,
  where: Locations,
  launch: Launch,
  auto?: AutoMemoryPlan,
): FileChange[] {
  const harness = HARNESSES[id];
  return harness.files(scope, where).map((file) => {
    const before = readIfExists(file.path);
    const after = add(harness, file, before, launch, auto);
    return { file, before, after: after === before ? before : after };
  });
}

/** `text` without anything of gitmem's for `harness` (the same text when there is none). */
export function withoutOurs(harness: HarnessId, file: SettingsFile, text: string): string {
  if (file.kind === 'json-hooks') {
    const key = HARNESSES[harness].autoMemory?.setting;
    const hooks = removeHooks(file.path, text, harness);
    return key === undefined ? hooks : removeSetting(file.path, hooks, key);
  }
  if (file.kind === 'json-mcp') return removeMcpServer(file.path, text);
  return removeTomlServer(file.path, text);
}

/** Whether `text` holds nothing at all (what a file connect created holds once ours is gone). */
function isEmptySettings(file: SettingsFile, text: string): boolean {
  return file.kind === 'toml-mcp' ? text.trim() === '' : text.replace(/\s/g, '') === '{}';
}

/**
 * What disconnect leaves: the bytes before connect when the file is exactly what connect wrote (the
 * backup, or no file if connect created it); else the file without our entries, deleted when connect
 * created it and nothing else is left.
 */
function restore(
  harness: HarnessId,
  file: SettingsFile,
  now: string,
  record: FileRecord | undefined,
): string | undefined {
  const surgical = withoutOurs(harness, file, now);
  if (surgical === now) return now;
  if (record && record.after === fingerprint(now)) {
    if (!record.existed) return undefined;
    const backup = record.before === undefined ? undefined : readIfExists(backupPath(file.path));
    if (backup !== undefined && fingerprint(backup) === record.before) return backup;
  }
  return record && !record.existed && isEmptySettings(file, surgical) ? undefined : surgical;
}

/** What disconnect would leave in each of the harness's files. */
export function planDisconnect(
  id: HarnessId,
  scope: Scope,
  where: Locations,
  records: readonly FileRecord[],
): FileChange[] {
  return HARNESSES[id].files(scope, where).map((file) => {
    const before = readIfExists(file.path);
    const record = records.find((r) => r.path === file.path);
    return { file, before, after: before === undefined ? undefined : restore(id, file, before, record) };
  });
}

/** What a file holds of gitmem's for `harness` (for status): hook events and their agent, or the MCP server. */
export function inspect(
  id: HarnessId,
  file: SettingsFile,
): { hooks?: Map<string, string>; mcp?: { ours: boolean; server: unknown } } {
  const text = readIfExists(file.path);
  if (file.kind === 'json-hooks') return { hooks: listHooks(file.path, text, id) };
  if (file.kind === 'toml-mcp') {
    const found = readTomlServer(file.path, text);
    return found ? { mcp: found } : {};
  }
  const server = readMcpServer(file.path, text);
  return server === undefined ? {} : { mcp: { ours: withoutOurs(id, file, text ?? '{}') !== (text ?? '{}'), server } };
}
