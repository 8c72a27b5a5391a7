/**
 * The shape of the command line's grammar: the global options and what a command's grammar may say (its
 * options, positionals and sub-commands; each command's own is its entry in registry.ts). Read by the CLI
 * (main.ts) and by the daemon's client (entry.ts, which must find the command and `--home` the same way
 * before it loads anything else): keep it free of imports but node's types.
 */
import type { ParseArgsConfig } from 'node:util';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

/** Options every command takes, before or after its name. */
export const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  agent: { type: 'string' },
  home: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
} as const satisfies CliOptions;

/** A positional is `<name>` (required) or `[name]` (optional). */
export type Positionals = readonly string[];

/**
 * A command's option; `fills` names the library argument its value becomes (`--old` fills `old_string`),
 * so an error naming that argument names the option instead (cli/speak.ts). parseArgs ignores the key.
 */
export type GrammarOption = CliOptions[string] & { fills?: string | readonly string[] };

export interface CommandGrammar {
  options?: Readonly<Record<string, GrammarOption>>;
  /** Positionals after the command name (none when absent and there are no sub-commands). */
  args?: Positionals;
  /** Sub-commands (the first positional) and their positionals. */
  subcommands?: Readonly<Record<string, Positionals>>;
  /** What a bare group runs; without one, a bare group prints its usage. */
  defaultSub?: string;
  /**
   * The library's words for what this command line spells otherwise, other than options (a positional,
   * an operation): library word → CLI words (`file_path` → `<path>`, `str_replace` → `str-replace`).
   */
  spells?: Readonly<Record<string, string>>;
  /** Sub-commands whose input is the library's call as written (`memory tool`): their errors keep its names. */
  verbatim?: readonly string[];
}

/** A string option; `flag`: a boolean one. */
export const str = { type: 'string' } as const;
export const flag = { type: 'boolean' } as const;
/** A string option that fills the library argument(s) `arg`; `fill(arg, flag)`: a boolean one. */
export const fill = (arg: string | readonly string[], type: typeof str | typeof flag = str): GrammarOption => ({
  ...type,
  fills: arg,
});
