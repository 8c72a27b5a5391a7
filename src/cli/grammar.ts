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

export interface CommandGrammar {
  options?: CliOptions;
  /** Positionals after the command name (none when absent and there are no sub-commands). */
  args?: Positionals;
  /** Sub-commands (the first positional) and their positionals. */
  subcommands?: Readonly<Record<string, Positionals>>;
  /** What a bare group runs; without one, a bare group prints its usage. */
  defaultSub?: string;
}

const str = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;

/**
 * Every command whose module does not declare its own grammar (a module's `options` are merged in; a
 * command missing here takes any positionals and checks them itself).
 */
export const GRAMMAR: Readonly<Record<string, CommandGrammar>> = {
  agents: {},
  clone: { args: ['<url>'] },
  doctor: { options: { fix: flag } },
  conflicts: { subcommands: { list: [], show: ['<branch>'], resolve: ['<branch>'], accept: ['<proposal>'], drop: ['<branch>'] }, defaultSub: 'list' },
  daemon: { options: { idle: str }, subcommands: { status: [], start: [], stop: [], run: [] } },
  hook: { subcommands: { 'pre-commit': [] } },
  init: { options: { name: str, personality: str } },
  log: { options: { n: { type: 'string', short: 'n' }, since: str }, args: ['[path]'] },
  show: { options: { at: str }, args: ['<path>'] },
  diff: { options: { path: str }, args: ['[from]', '[to]'] },
  revert: { options: { reason: str }, args: ['<sha>'] },
  tokens: { options: { top: str } },
  mcp: {},
  memory: {
    options: {
      reason: str, description: str, text: str, 'text-file': str, old: str, new: str, all: flag, line: str, 'patch-file': str, call: str,
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
  },
  palace: { options: { port: str, host: str, open: flag, 'token-file': str, export: str } },
  mirror: { subcommands: { set: ['<url>'], push: [], status: [], unset: [], remove: [], rm: [] } },
  personality: { options: { reason: str, force: flag }, subcommands: { list: [], apply: ['<id>'] } },
  prompt: { options: { mode: str, preset: str, surface: str } },
  remote: { subcommands: { set: ['<url>'], show: [], remove: [], rm: [] } },
  search: { options: { at: str, limit: str, path: { type: 'string', multiple: true }, mode: str }, args: ['<query>'] },
  status: {},
  sync: { options: { 'on-conflict': str } },
  tree: {},
  worker: { options: { command: str, task: str, paths: str, timeout: str, repair: flag }, subcommands: { run: [], prune: [] } },
};
