/**
 * The command line's grammar as data: the global options and, per command, its options, positionals and
 * sub-commands. One table, read by the CLI (main.ts) and by the daemon's client (entry.ts, which must find
 * the command and `--home` the same way before it loads anything else): keep it free of imports.
 */
import type { CliOptions } from './types.js';

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

const str = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;
/** A string option that fills the library argument(s) `arg`; `fill(arg, flag)`: a boolean one. */
const fill = (arg: string | readonly string[], type: typeof str | typeof flag = str): GrammarOption => ({ ...type, fills: arg });

/**
 * Every command whose module does not declare its own grammar (a module's `options` are merged in; a
 * command missing here takes any positionals and checks them itself).
 */
export const GRAMMAR: Readonly<Record<string, CommandGrammar>> = {
  agents: {},
  clone: { args: ['<url>'] },
  config: { subcommands: { show: [], get: ['<key>'], set: ['<key>', '<value>'], unset: ['<key>'] }, defaultSub: 'show' },
  connect: { options: { scope: str, 'dry-run': flag, status: flag }, args: ['[harness]'] },
  disconnect: { options: { scope: str, 'dry-run': flag }, args: ['[harness]'] },
  doctor: { options: { fix: flag } },
  conflicts: { subcommands: { list: [], show: ['<branch>'], resolve: ['<branch>'], accept: ['<proposal>'], drop: ['<branch>'] }, defaultSub: 'list' },
  daemon: { options: { idle: str }, subcommands: { status: [], start: [], stop: [], run: [] } },
  hook: { subcommands: { 'pre-commit': [], 'claude-code': ['<event>'], codex: ['<event>'] } },
  init: { options: { name: str, personality: str } },
  log: { options: { n: { type: 'string', short: 'n', fills: 'limit' }, since: fill('since') }, args: ['[path]'] },
  show: { options: { at: fill('at') }, args: ['<path>'] },
  diff: { options: { path: str }, args: ['[from]', '[to]'] },
  revert: { options: { reason: fill('reason') }, args: ['<sha>'] },
  tokens: { options: { top: str } },
  mcp: {},
  memory: {
    options: {
      reason: fill('reason'), description: fill('description'), text: fill(['file_text', 'insert_text']), 'text-file': str, old: fill('old_string'),
      new: fill('new_string'), all: fill('replace_all', flag), line: fill('insert_line'), 'patch-file': fill('input'), call: str,
    },
    subcommands: {
      create: ['<path>'],
      'str-replace': ['<path>'],
      insert: ['<path>'],
      delete: ['<path>'],
      rename: ['<old-path>', '<new-path>'],
      describe: ['<path>'],
      'apply-patch': [],
      tool: [],
    },
    spells: {
      file_path: '<path>', old_path: '<old-path>', new_path: '<new-path>',
      str_replace: 'str-replace', update_description: 'describe', memory_apply_patch: 'memory apply-patch',
    },
    verbatim: ['tool'],
  },
  palace: { options: { port: str, host: str, open: flag, 'token-file': str, export: str } },
  mirror: { subcommands: { set: ['<url>'], push: [], status: [], unset: [], remove: [], rm: [] } },
  personality: { options: { reason: fill('reason'), force: flag }, subcommands: { list: [], apply: ['<id>'] } },
  prompt: { options: { mode: str, preset: str, surface: str } },
  remote: { subcommands: { set: ['<url>'], show: [], remove: [], rm: [] } },
  search: { options: { at: fill('at'), limit: fill('limit'), path: { type: 'string', multiple: true, fills: 'paths' }, mode: fill('mode') }, args: ['<query>'] },
  status: {},
  sync: { options: { 'on-conflict': str } },
  tree: {},
  worker: { options: { command: str, task: str, paths: str, timeout: str, repair: flag }, subcommands: { run: [], prune: [] } },
};
