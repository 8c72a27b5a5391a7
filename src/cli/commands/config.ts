/**
 * `gitmem config [get|set|unset]`: the settings by dotted key. Keys of the settings schema (reflection.*, model,
 * budgets.system) are checked against it and may be set per scope (global, project, an agent's entry); other
 * keys of $GITMEM_HOME/config (providers.*, projects.*) are edited as before, keeping the rest of the file.
 */
import { applyConfigChange, configGet, planConfigSet, planConfigUnset } from '../../harness/config-edit.js';
import { readIfExists } from '../../harness/files.js';
import {
  configPath,
  getSetting,
  MemoryError,
  SETTINGS_SCHEMA,
  SETTINGS_SCOPES,
  settingSpec,
  settingsHelp,
  setSetting,
  unsetSetting,
  type SettingsPlace,
  type SettingsScope,
} from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

/** A value as typed: JSON when it parses (`25`, `true`, `{"a":1}`), else the text itself. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Sections of the config file that are not settings of the schema (edited as free JSON, checked by the reader). */
const FREE_SECTIONS = ['providers', 'projects'];

/** A schema key, or a whole section of them (`reflection`: unset or get only, on the global file). */
function isSection(key: string): boolean {
  return SETTINGS_SCHEMA.some((s) => s.key.startsWith(`${key}.`));
}

/**
 * --scope, else `agent` for a set or unset of a per-agent key given --agent (a get with --agent alone answers that
 * agent's effective value; a global-only key such as model stays global).
 */
function scopeOf(ctx: CliContext, sub: string, key: string): SettingsScope | undefined {
  const given = ctx.option('scope');
  const perAgent = SETTINGS_SCHEMA.some((s) => s.key === key && s.scopes.includes('agent'));
  if (given === undefined) return ctx.agent !== undefined && sub !== 'get' && perAgent ? 'agent' : undefined;
  if (!(SETTINGS_SCOPES as readonly string[]).includes(given))
    throw new MemoryError('INVALID_ARGUMENT', `unknown scope ${JSON.stringify(given)} (use global, project or agent)`);
  return given as SettingsScope;
}

const shown = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2));

/** get/set/unset of a key of the settings schema. */
function runSetting(ctx: CliContext, sub: string, key: string, value: string | undefined): void {
  const scope = scopeOf(ctx, sub, key);
  const place: SettingsPlace = { home: ctx.home, projectDir: ctx.cwd, ...(ctx.agent ? { agentId: ctx.agent } : {}) };
  if (sub === 'get') {
    const got = getSetting(place, key, scope);
    if (got.value === undefined)
      throw new MemoryError('INVALID_ARGUMENT', `${key} is not set${scope ? ` at the ${scope} scope` : ''}`, {
        data: { key },
      });
    return ctx.print(got, shown(got.value));
  }
  const change =
    sub === 'set'
      ? setSetting(place, key, valueOf(value ?? ''), scope ?? 'global')
      : unsetSetting(place, key, scope ?? 'global');
  const where = `${change.file}${change.scope === 'agent' ? ` (agent ${ctx.agent})` : ''}`;
  const text =
    sub === 'set'
      ? change.changed
        ? `${key} set in ${where}`
        : `${key} already has that value`
      : change.changed
        ? `${key} removed from ${where}`
        : `${key} was not set`;
  return ctx.print(change, text);
}

/** get/set/unset of any other key of $GITMEM_HOME/config (providers.*, projects.*, a whole section). */
function runFree(ctx: CliContext, sub: string, key: string, value: string | undefined): void {
  if (sub === 'get') {
    const v = configGet(ctx.home, key);
    if (v === undefined) throw new MemoryError('INVALID_ARGUMENT', `config key ${key} is not set`, { data: { key } });
    return ctx.print({ key, value: v }, shown(v));
  }
  const change = sub === 'set' ? planConfigSet(ctx.home, key, valueOf(value ?? '')) : planConfigUnset(ctx.home, key);
  applyConfigChange(change);
  const text =
    sub === 'set'
      ? change.changed
        ? `${key} set in ${change.path}`
        : `${key} already has that value`
      : change.changed
        ? `${key} removed from ${change.path}`
        : `${key} was not set`;
  return ctx.print(
    { key, ...(sub === 'set' ? { value: valueOf(value ?? '') } : {}), path: change.path, changed: change.changed },
    text,
  );
}

export const command: CliCommand = {
  name: 'config',
  usage: `Usage:
  gitmem config                      the global file's path and content
  gitmem config get <key>            the effective value (every scope applied); with --scope, that scope's
  gitmem config set <key> <value>    the value is JSON when it parses (25, true, {"a":1}), else text
  gitmem config unset <key>
  [--scope global|project|agent] [--agent ID]   default global; --agent alone means --scope agent
Scopes: global $GITMEM_HOME/config; project ./.gitmem/config.json (of the current directory); agent the
  agent's entry reflection.agents.<ID> inside the project file. Applied in that order, the agent's entry of the
  global file between project and the agent's project entry.
Keys (checked; an unknown key names the nearest, a wrong value the type expected):
${settingsHelp().join('\n')}
  providers.*, projects.*            edited in the global file, checked by the config reader
Examples: gitmem config set model anthropic:claude-sonnet-4-5
          gitmem config set reflection.stepCount 10 --scope project
          gitmem config set reflection.trigger off --agent a1
The rest of a file keeps its formatting; a refused value writes nothing.
Global: --home DIR, --json.`,
  async run(ctx) {
    const [sub, key, value] = ctx.args;
    if (sub === undefined || sub === 'show') {
      const path = configPath(ctx.home);
      const text = readIfExists(path);
      return ctx.print(
        { path, exists: text !== undefined, text: text ?? '' },
        `${path}${text === undefined ? ' (no file yet)' : `\n${text.trimEnd()}`}`,
      );
    }
    const complete = key !== undefined && (sub === 'get' || sub === 'unset' || (sub === 'set' && value !== undefined));
    if (!complete)
      throw new MemoryError(
        'UNKNOWN_COMMAND',
        `unknown or incomplete config command (use: config, config get <key>, config set <key> <value>, config unset <key>)`,
      );
    if (SETTINGS_SCHEMA.some((s) => s.key === key) || ctx.option('scope') !== undefined)
      return runSetting(ctx, sub, key, value);
    if (FREE_SECTIONS.includes(key.split('.')[0] ?? '') || (sub !== 'set' && isSection(key)))
      return runFree(ctx, sub, key, value);
    settingSpec(key); // unknown: refused naming the nearest known keys
  },
};
