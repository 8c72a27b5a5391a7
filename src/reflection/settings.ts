/**
 * Reflection settings: when a reflection fires and how its result is merged, resolved in the reference's order
 * (SPEC §10.2), later layers winning: global (`$GITMEM_HOME/config` → "reflection"), project
 * (`<project>/.gitmem/config.json` → "reflection"), the agent's entry of the global file, then of the project
 * file (`reflection.agents.<id>`), and last the agent's own `<agentDir>/config.json` → "reflection".
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { readGitmemConfig } from '../llm/config.js';

export type ReflectionTrigger = 'off' | 'step-count' | 'compaction-event';
export type ReflectionMergeMode = 'auto' | 'explicit';

/** Resolved settings of one agent. */
export interface ReflectionSettings {
  trigger: ReflectionTrigger;
  /** Assistant steps since the last successful reflection that fire the step-count trigger. */
  stepCount: number;
  merge: ReflectionMergeMode;
  /** Extra instructions for an explicit (reviewed) merge. */
  mergeInstructions: string;
  /** After every this many successful single-conversation runs the post-turn trigger runs a multi one (0: off). */
  multiEvery: number;
  /** How many recent conversations that multi run covers. */
  multiRecent: number;
}

/** A fresh install reflects every 25 assistant steps and merges automatically. */
export const DEFAULT_REFLECTION_SETTINGS: Readonly<ReflectionSettings> = Object.freeze({
  trigger: 'step-count',
  stepCount: 25,
  merge: 'auto',
  mergeInstructions: '',
  multiEvery: 0,
  multiRecent: 5,
});

const TRIGGERS: readonly string[] = ['off', 'step-count', 'compaction-event'];

function validCount(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/**
 * Maps the legacy `memoryReminderInterval` value: a number ⇒ step-count (invalid ⇒ 25), null ⇒ off,
 * "compaction"/"auto-compaction" ⇒ compaction-event; anything else ⇒ undefined (ignored).
 * @example legacyInterval(10) // { trigger: 'step-count', stepCount: 10 }
 */
export function legacyInterval(v: unknown): Partial<ReflectionSettings> | undefined {
  if (v === null) return { trigger: 'off' };
  if (typeof v === 'number') return { trigger: 'step-count', stepCount: validCount(v) ?? 25 };
  if (v === 'compaction' || v === 'auto-compaction') return { trigger: 'compaction-event' };
  return undefined;
}

/**
 * Applies one layer (a plain object) over `base`; invalid values are ignored, a legacy interval resets the
 * trigger first, instructions are trimmed.
 * @example applyReflectionLayer(DEFAULT_REFLECTION_SETTINGS, { trigger: 'off' }).trigger === 'off'
 */
export function applyReflectionLayer(base: ReflectionSettings, layer: unknown): ReflectionSettings {
  if (typeof layer !== 'object' || layer === null || Array.isArray(layer)) return { ...base };
  const l = layer as Record<string, unknown>;
  const out: ReflectionSettings = {
    ...base,
    ...(l['memoryReminderInterval'] !== undefined ? legacyInterval(l['memoryReminderInterval']) : {}),
  };
  if (typeof l['trigger'] === 'string' && TRIGGERS.includes(l['trigger']))
    out.trigger = l['trigger'] as ReflectionTrigger;
  const count = validCount(l['stepCount']);
  if (count !== undefined) out.stepCount = count;
  if (l['merge'] === 'auto' || l['merge'] === 'explicit') out.merge = l['merge'];
  const every = l['multiEvery'];
  if (every === 0 || validCount(every) !== undefined) out.multiEvery = every as number;
  const recent = validCount(l['multiRecent']);
  if (recent !== undefined) out.multiRecent = Math.min(recent, 50);
  if (typeof l['mergeInstructions'] === 'string') out.mergeInstructions = l['mergeInstructions'].trim();
  return out;
}

/** The project settings file, relative to the project directory. */
export const PROJECT_SETTINGS_FILE = join('.gitmem', 'config.json');

/** The agent's entry (`agents.<id>`) of a "reflection" object, or undefined. */
function agentEntry(layer: unknown, agentId: string | undefined): unknown {
  if (agentId === undefined || typeof layer !== 'object' || layer === null) return undefined;
  const agents = (layer as Record<string, unknown>)['agents'];
  if (typeof agents !== 'object' || agents === null || !Object.hasOwn(agents, agentId)) return undefined;
  return (agents as Record<string, unknown>)[agentId];
}

/** The "reflection" object of a JSON file, or undefined when the file is absent. */
function layerFromFile(path: string): unknown {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new MemoryError('INVALID_ARGUMENT', `invalid reflection settings file ${path}: ${(err as Error).message}`, {
      cause: err,
      data: { path },
    });
  }
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>)['reflection'] : undefined;
}

/** Where the settings come from. */
export interface ReflectionSettingsSources {
  /** gitmem home (its `config` file is the global layer). */
  home: string;
  /** A project directory whose `.gitmem/config.json` is the project layer. */
  projectDir?: string;
  /** The agent directory (`$GITMEM_HOME/agents/<id>`) whose `config.json` is the agent layer. */
  agentDir?: string;
  /** The agent whose `reflection.agents.<id>` entries apply (default: the agent directory's name). */
  agentId?: string;
}

/**
 * Resolves the settings: defaults → global → project → the agent's global entry → its project entry → the
 * agent's own file.
 * @example resolveReflectionSettings({ home, agentDir }).stepCount // 25 unless configured
 */
export function resolveReflectionSettings(s: ReflectionSettingsSources): ReflectionSettings {
  const agentId = s.agentId ?? (s.agentDir ? basename(s.agentDir) : undefined);
  const global = readGitmemConfig(s.home).reflection;
  const project = s.projectDir ? layerFromFile(join(s.projectDir, PROJECT_SETTINGS_FILE)) : undefined;
  let out: ReflectionSettings = { ...DEFAULT_REFLECTION_SETTINGS };
  for (const layer of [global, project, agentEntry(global, agentId), agentEntry(project, agentId)])
    out = applyReflectionLayer(out, layer);
  if (s.agentDir) out = applyReflectionLayer(out, layerFromFile(join(s.agentDir, 'config.json')));
  return out;
}

/**
 * A one-line description for status displays.
 * @example describeReflectionSettings({ trigger: 'step-count', stepCount: 25, merge: 'auto', mergeInstructions: '' })
 *   === 'Every 25 steps, apply automatically'
 */
export function describeReflectionSettings(s: ReflectionSettings): string {
  const when =
    s.trigger === 'off' ? 'Off' : s.trigger === 'compaction-event' ? 'On compaction' : `Every ${s.stepCount} steps`;
  return `${when}, ${s.merge === 'auto' ? 'apply automatically' : 'kept for review before applying'}`;
}
