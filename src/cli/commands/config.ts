/** `gitmem config [get|set|unset]`: read and edit $GITMEM_HOME/config by dotted key, keeping the rest of the file. */
import { applyConfigChange, configGet, planConfigSet, planConfigUnset } from '../../harness/config-edit.js';
import { readIfExists } from '../../harness/files.js';
import { configPath, MemoryError } from '../../internals.js';
import type { CliCommand } from '../types.js';

/** A value as typed: JSON when it parses (`25`, `true`, `{"a":1}`), else the text itself. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const command: CliCommand = {
  name: 'config',
  usage: `Usage:
  gitmem config                      the file's path and content
  gitmem config get <key>            one value (dotted keys: providers.local.baseURL)
  gitmem config set <key> <value>    the value is JSON when it parses (25, true, {"a":1}), else text
  gitmem config unset <key>
Examples: gitmem config set model anthropic:claude-sonnet-4-5
          gitmem config set reflection.trigger step-count
The rest of the file keeps its formatting; a value the config's checks refuse is not written.
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
    if (sub === 'get' && key !== undefined) {
      const v = configGet(ctx.home, key);
      if (v === undefined) throw new MemoryError('INVALID_ARGUMENT', `config key ${key} is not set`, { data: { key } });
      return ctx.print({ key, value: v }, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
    }
    if (sub === 'set' && key !== undefined && value !== undefined) {
      const change = planConfigSet(ctx.home, key, valueOf(value));
      applyConfigChange(change);
      return ctx.print(
        { key, value: valueOf(value), path: change.path, changed: change.changed },
        change.changed ? `${key} set in ${change.path}` : `${key} already has that value`,
      );
    }
    if (sub === 'unset' && key !== undefined) {
      const change = planConfigUnset(ctx.home, key);
      applyConfigChange(change);
      return ctx.print(
        { key, path: change.path, changed: change.changed },
        change.changed ? `${key} removed from ${change.path}` : `${key} was not set`,
      );
    }
    throw new MemoryError(
      'UNKNOWN_COMMAND',
      `unknown or incomplete config command (use: config, config get <key>, config set <key> <value>, config unset <key>)`,
    );
  },
};
