/**
 * The one schema of the settings `gitmem config get|set|unset` and `memory.settings` edit (SPEC §10.2): each key a
 * dotted path of the settings file, its type, and the scopes it may be set at. A refusal is one line: an unknown
 * key names the nearest known ones, a wrong value says the type expected.
 */
import { MemoryError } from '../errors.js';

/** Where a setting is written: `$GITMEM_HOME/config`, `<project>/.gitmem/config.json`, or an agent's entry in it. */
export type SettingsScope = 'global' | 'project' | 'agent';
export const SETTINGS_SCOPES: readonly SettingsScope[] = ['global', 'project', 'agent'];

type ValueType =
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'positive-integer'; max: number }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'string'; maxChars: number }
  | { kind: 'model' };

/** One key of the schema. */
export interface SettingSpec {
  key: string;
  type: ValueType;
  scopes: readonly SettingsScope[];
  summary: string;
}

const ALL: readonly SettingsScope[] = SETTINGS_SCOPES;

/** Every key that can be set, in the order `gitmem config --help` lists them. */
export const SETTINGS_SCHEMA: readonly SettingSpec[] = [
  {
    key: 'reflection.trigger',
    type: { kind: 'enum', values: ['off', 'step-count', 'compaction-event'] },
    scopes: ALL,
    summary: 'when a reflection fires after a turn (default step-count)',
  },
  {
    key: 'reflection.stepCount',
    type: { kind: 'positive-integer', max: 1_000_000 },
    scopes: ALL,
    summary: 'assistant steps since the last reflection that fire the step-count trigger (default 25)',
  },
  {
    key: 'reflection.merge',
    type: { kind: 'enum', values: ['auto', 'explicit'] },
    scopes: ALL,
    summary: "how a reflection's work lands: merged (auto) or kept for review (explicit)",
  },
  {
    key: 'reflection.mergeInstructions',
    type: { kind: 'string', maxChars: 10_000 },
    scopes: ALL,
    summary: 'extra instructions for a reviewed (explicit) merge',
  },
  {
    key: 'reflection.multiEvery',
    type: { kind: 'integer', min: 0, max: 1_000 },
    scopes: ALL,
    summary: 'after every K successful single reflections, one over several conversations (default 0: off)',
  },
  {
    key: 'reflection.multiRecent',
    type: { kind: 'positive-integer', max: 50 },
    scopes: ALL,
    summary: 'how many recent conversations that multi-conversation reflection covers (default 5)',
  },
  {
    key: 'sync.mode',
    type: { kind: 'enum', values: ['main', 'writer-refs'] },
    scopes: ['global'],
    summary: "what sync pushes: main (default), or only this writer's own ref for an integrator (writer-refs)",
  },
  {
    key: 'sync.machine',
    type: { kind: 'string', maxChars: 64 },
    scopes: ['global'],
    summary: "this machine's id in writer refs (default: the host name)",
  },
  {
    key: 'sync.pushesPerMinute',
    type: { kind: 'integer', min: 1, max: 600 },
    scopes: ['global'],
    summary: "the integrator's bound on pushes of main a minute (default 6)",
  },
  {
    key: 'sync.integrator',
    type: { kind: 'enum', values: ['external', 'lease'] },
    scopes: ['global'],
    summary: 'who moves main in writer-refs mode: gitmem integrate (external, default) or the writer holding the lease',
  },
  {
    key: 'model',
    type: { kind: 'model' },
    scopes: ['global'],
    summary: 'the model of reflection and other sub-agents, provider:model-id',
  },
  {
    key: 'budgets.system',
    type: { kind: 'positive-integer', max: 10_000_000 },
    scopes: ['global'],
    summary: 'the system/ budget in estimated tokens (default 8,000)',
  },
];

const MODEL = /^[a-z0-9][a-z0-9._-]*:\S+$/i;

function describeType(t: ValueType): string {
  if (t.kind === 'enum') return `one of ${t.values.join(', ')}`;
  if (t.kind === 'positive-integer') return `a positive integer (at most ${t.max.toLocaleString('en-US')})`;
  if (t.kind === 'integer') return `an integer from ${t.min} to ${t.max.toLocaleString('en-US')}`;
  if (t.kind === 'string') return `a string (at most ${t.maxChars.toLocaleString('en-US')} characters)`;
  return 'a model as provider:model-id (e.g. anthropic:claude-sonnet-4-5)';
}

function fits(t: ValueType, v: unknown): boolean {
  if (t.kind === 'enum') return typeof v === 'string' && t.values.includes(v);
  if (t.kind === 'positive-integer') return typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= t.max;
  if (t.kind === 'integer') return typeof v === 'number' && Number.isInteger(v) && v >= t.min && v <= t.max;
  if (t.kind === 'string') return typeof v === 'string' && v.length <= t.maxChars;
  return typeof v === 'string' && v.length <= 200 && MODEL.test(v);
}

/** Edit distance (case-insensitive), for "did you mean". */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= y.length; j += 1)
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    prev = row;
  }
  return prev[y.length] ?? 0;
}

/**
 * The known keys nearest to `key` (at most three, closest first).
 * @example nearestSettingKeys('reflection.stepcount')[0] === 'reflection.stepCount'
 */
export function nearestSettingKeys(key: string): string[] {
  const [head = '', ...rest] = key.toLowerCase().split('.');
  const tail = rest.at(-1) ?? head;
  const score = (known: string): number => {
    const [kHead = '', ...kRest] = known.toLowerCase().split('.');
    const kTail = kRest.at(-1) ?? kHead;
    // A prefix of the right name ("steps" of "stepCount") is as near as a typo; another section is farther.
    let common = 0;
    while (common < tail.length && tail[common] === kTail[common]) common += 1;
    const tailScore = common >= Math.min(4, tail.length, kTail.length) ? 1 : distance(tail, kTail);
    // Two keys without a section ("modle", "model") are compared whole: no section to differ in.
    const sameSection = head === kHead || (rest.length === 0 && kRest.length === 0);
    return Math.min(distance(key, known), tailScore) + (sameSection ? 0 : 2);
  };
  return SETTINGS_SCHEMA.map((s) => ({ key: s.key, d: score(s.key) }))
    .sort((a, b) => a.d - b.d || (a.key < b.key ? -1 : 1))
    .slice(0, 3)
    .map((s) => s.key);
}

/**
 * The spec of `key`; an unknown key is INVALID_ARGUMENT naming the nearest known ones.
 * @example settingSpec('reflection.trigger').scopes // ['global', 'project', 'agent']
 */
export function settingSpec(key: string): SettingSpec {
  const spec = SETTINGS_SCHEMA.find((s) => s.key === key);
  if (spec) return spec;
  const near = nearestSettingKeys(String(key).slice(0, 200));
  throw new MemoryError(
    'INVALID_ARGUMENT',
    `unknown setting ${JSON.stringify(String(key).slice(0, 200))}; nearest known: ${near.join(', ')}`,
    { data: { key, nearest: near } },
  );
}

/**
 * Checks `value` for `key` at `scope`: the key known, the scope allowed, the value of the key's type.
 * @example checkSetting('reflection.stepCount', 10, 'project') // 10
 */
export function checkSetting(key: string, value: unknown, scope: SettingsScope): unknown {
  const spec = checkScope(key, scope);
  if (!fits(spec.type, value)) {
    const shown = JSON.stringify(value)?.slice(0, 80) ?? String(value);
    throw new MemoryError('INVALID_ARGUMENT', `${key} must be ${describeType(spec.type)}, not ${shown}`, {
      data: { key, expected: describeType(spec.type) },
    });
  }
  return spec.type.kind === 'string' ? (value as string).trim() : value;
}

/** The spec of `key`, refused when it cannot be set at `scope`. */
export function checkScope(key: string, scope: SettingsScope): SettingSpec {
  if (!SETTINGS_SCOPES.includes(scope))
    throw new MemoryError('INVALID_ARGUMENT', `unknown scope ${JSON.stringify(scope)} (use global, project or agent)`);
  const spec = settingSpec(key);
  if (!spec.scopes.includes(scope))
    throw new MemoryError('INVALID_ARGUMENT', `${key} is set only at scope ${spec.scopes.join(' or ')}, not ${scope}`, {
      data: { key, scope },
    });
  return spec;
}

/** The schema as help lines: key, type, scopes, summary. */
export function settingsHelp(): string[] {
  return SETTINGS_SCHEMA.map(
    (s) => `  ${s.key.padEnd(28)} ${describeType(s.type)}; ${s.scopes.join('/')}: ${s.summary}`,
  );
}
