/**
 * `gitmem config get|set|unset` and `memory.settings` on the settings files (SPEC §10.2): global
 * `$GITMEM_HOME/config`, project `<project>/.gitmem/config.json`, and an agent's entry inside the project file
 * (`reflection.agents.<id>`). Every value is checked against the one schema (settings-schema.ts); an edit keeps
 * the rest of the file's text, and a refusal (bad key, bad value, a file that is not JSON) writes nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { withFileLock } from './file-lock.js';
import { dirname, join } from 'node:path';
import { applyEdits, format, modify } from 'jsonc-parser';
import { DEFAULT_SYSTEM_BUDGET_TOKENS } from '../blocks/budgets.js';
import { MemoryError } from '../errors.js';
import { checkGitmemConfig, configPath } from '../llm/config.js';
import { assertAgentId, agentPaths } from '../memfs/layout.js';
import { checkScope, checkSetting, settingSpec, type SettingsScope } from './settings-schema.js';
import { PROJECT_SETTINGS_FILE, resolveReflectionSettings, type ReflectionSettings } from './settings.js';

/** Which files a call reads and writes. */
export interface SettingsPlace {
  home: string;
  /** The project whose `.gitmem/config.json` is the project scope (and holds the per-agent entries). */
  projectDir?: string;
  /** The agent of the `agent` scope and of the resolved value. */
  agentId?: string;
}

/** What a get answers: the value, and where from (`effective`: resolved over every scope). */
export interface SettingValue {
  key: string;
  value: unknown;
  scope: SettingsScope | 'effective';
  file?: string;
}

/** What a set or unset did. */
export interface SettingChange {
  key: string;
  scope: SettingsScope;
  file: string;
  changed: boolean;
  value?: unknown;
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: '\n' };

function projectFile(place: SettingsPlace, scope: SettingsScope): string {
  if (place.projectDir === undefined)
    throw new MemoryError('INVALID_ARGUMENT', `the ${scope} scope needs a project directory`);
  return join(place.projectDir, PROJECT_SETTINGS_FILE);
}

/** The file and the path in it of `key` at `scope`. */
function target(key: string, scope: SettingsScope, place: SettingsPlace): { file: string; path: string[] } {
  const path = key.split('.');
  if (scope === 'global') return { file: configPath(place.home), path };
  if (scope === 'project') return { file: projectFile(place, scope), path };
  if (place.agentId === undefined)
    throw new MemoryError('INVALID_ARGUMENT', 'the agent scope needs an agent (--agent ID, or agentId)');
  const agent = assertAgentId(place.agentId);
  return { file: projectFile(place, scope), path: ['reflection', 'agents', agent, ...path.slice(1)] };
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MemoryError('INVALID_ARGUMENT', `cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? ''}`, {
      cause: err,
    });
  }
}

/** The file's parsed object (checked like the reader checks it); `{}` when missing or empty. */
function parsed(file: string, text: string | undefined, global: boolean): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  if (global) return checkGitmemConfig(file, text);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `invalid settings file ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new MemoryError('INVALID_ARGUMENT', `invalid settings file ${file}: the top level must be a JSON object`);
  return v as Record<string, unknown>;
}

function at(obj: unknown, path: readonly string[]): unknown {
  let v = obj;
  for (const seg of path) {
    if (typeof v !== 'object' || v === null || Array.isArray(v) || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

/** Replaces the file (temp + rename: a reader sees the old text or the new, never half). */
function writeFile(file: string, text: string, global: boolean): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`; // the daemon serves calls at once
  try {
    writeFileSync(tmp, text, { mode: global ? 0o600 : 0o644 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** `text` with the value at `path` set (undefined: removed); only the edited entry is laid out anew. */
function modified(text: string, path: string[], value: unknown): string {
  const edits = modify(text, path, value, {});
  let out = applyEdits(text, edits);
  for (const e of edits) {
    if (e.content !== '') out = applyEdits(out, format(out, { offset: e.offset, length: e.content.length }, FORMAT));
  }
  return out;
}

/** Edits the value at `path` (undefined: removes it, and the objects it leaves empty); checked before written. */
function edit(file: string, path: string[], value: unknown, global: boolean): boolean {
  // Two `config set` at once (two shells, the daemon serving two calls) each read, change and replace the
  // file: under the lock neither loses the other's change.
  if (value === undefined && readText(file) === undefined) return false; // nothing to unset, nothing made
  mkdirSync(dirname(file), { recursive: true }); // the lock sits beside the file
  return withFileLock(file, 'the settings file', () => editLocked(file, path, value, global));
}

function editLocked(file: string, path: string[], value: unknown, global: boolean): boolean {
  const before = readText(file);
  // A broken file is refused before anything is written; unsetting what is not there changes nothing.
  const current = parsed(file, before, global);
  if (value === undefined && at(current, path) === undefined) return false;
  const empty = before === undefined || before.trim() === '';
  let text = empty
    ? `${JSON.stringify(
        path.reduceRight<unknown>((v, k) => ({ [k]: v }), value),
        null,
        2,
      )}\n`
    : modified(before, path, value);
  for (let depth = path.length - 1; value === undefined && depth > 0; depth -= 1) {
    const parent = at(parsed(file, text, false), path.slice(0, depth));
    if (typeof parent !== 'object' || parent === null || Object.keys(parent).length > 0) break;
    text = modified(text, path.slice(0, depth), undefined);
  }
  parsed(file, text, global);
  if (text === before) return false;
  writeFile(file, text, global);
  return true;
}

/**
 * Sets `key` at `scope` (default global) after checking it against the schema.
 * @example setSetting({ home }, 'reflection.stepCount', 10, 'global') // { changed: true, … }
 */
export function setSetting(place: SettingsPlace, key: string, value: unknown, scope: SettingsScope): SettingChange {
  const checked = checkSetting(key, value, scope);
  const { file, path } = target(key, scope, place);
  const changed = edit(file, path, checked, scope === 'global');
  return { key, scope, file, changed, value: checked };
}

/** Removes `key` at `scope` (a key that is not set: changed false). */
export function unsetSetting(place: SettingsPlace, key: string, scope: SettingsScope): SettingChange {
  checkScope(key, scope);
  const { file, path } = target(key, scope, place);
  return { key, scope, file, changed: edit(file, path, undefined, scope === 'global') };
}

/**
 * The value of `key`: as written at `scope`, or with no scope the effective one (every scope applied in
 * order over the defaults; SPEC §10.2).
 */
export function getSetting(place: SettingsPlace, key: string, scope?: SettingsScope): SettingValue {
  if (scope !== undefined) {
    checkScope(key, scope);
    const { file, path } = target(key, scope, place);
    return { key, scope, file, value: at(parsed(file, readText(file), scope === 'global'), path) };
  }
  settingSpec(key);
  if (key.startsWith('reflection.')) {
    const resolved = resolveReflectionSettings({
      home: place.home,
      ...(place.projectDir !== undefined ? { projectDir: place.projectDir } : {}),
      ...(place.agentId !== undefined ? { agentDir: agentPaths(place.home, place.agentId).agentDir } : {}),
    });
    return { key, scope: 'effective', value: resolved[key.slice('reflection.'.length) as keyof ReflectionSettings] };
  }
  const file = configPath(place.home);
  const value = at(parsed(file, readText(file), true), key.split('.'));
  return { key, scope: 'effective', value: value ?? (key === 'budgets.system' ? DEFAULT_SYSTEM_BUDGET_TOKENS : value) };
}
