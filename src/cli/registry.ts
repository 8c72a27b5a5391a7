/**
 * Every CLI command, once: its help line, its grammar, and how it is run (by the daemon, bundled apart).
 * The CLI (main.ts, usage.ts), the daemon's client (daemon/eligible.ts) and the build (scripts/bundle.mjs)
 * all read this table, and the module loaders (load-command.ts) are typed by its names, so adding a command
 * is one entry here plus its module, and the type checker names anything else that must follow. Data only:
 * the daemon's client loads it on every call, so it imports nothing that runs.
 */
import { SERVED_HOOK_EVENTS } from '../harness/hook-events.js';
import { MEMORY_VERBS } from '../tools/memory-verbs.js';
import { fill, flag, str, type CommandGrammar } from './grammar.js';
import { memoryGrammar } from './memory-grammar.js';

export interface CommandEntry {
  /** Its line in `gitmem help`. */
  summary: string;
  /**
   * Its options, positionals and sub-commands. Positionals that do not fit are a usage error, unless
   * `ownArgs`: then the command takes any and checks them itself.
   */
  grammar: CommandGrammar;
  ownArgs?: true;
  /**
   * A resident daemon may run it (daemon/eligible.ts): a quick, stateless call of the core; a predicate
   * on its positionals when only some calls are. Long-running or process-bound commands always run here.
   */
  served?: true | ((positionals: readonly string[]) => boolean);
  /** Bundled as an ES module, code-split and imported on demand (scripts/bundle.mjs): big, and rarely called. */
  heavy?: true;
}

/** In `gitmem help` order. */
export const COMMANDS = {
  remote: {
    summary: 'set, show or remove the git remote the memory syncs with',
    grammar: { subcommands: { set: ['<url>'], show: [], remove: [], rm: [] } },
    heavy: true,
  },
  clone: {
    summary: "clone an agent's memory from a git remote into $GITMEM_HOME/agents/<id>/memory",
    grammar: { args: ['<url>'], options: { partial: flag, scope: str } },
    heavy: true,
  },
  shared: {
    summary: 'shared memory repositories: create, attach (read-only or read-write), detach, list, sync, history',
    grammar: {
      subcommands: {
        create: ['<name>'],
        attach: ['<name>'],
        detach: ['<name>'],
        list: [],
        sync: [],
        history: ['<name>'],
      },
      options: { remote: str, 'read-only': flag, limit: str },
    },
    heavy: true,
  },
  sync: {
    summary: 'sync the memory with its remote: pull (fast-forward or rebase), then push',
    grammar: { options: { 'on-conflict': str } },
    heavy: true,
  },
  integrate: {
    summary: "sync.mode writer-refs: merge the writers' refs into main (validated) and push it, rate-limited",
    grammar: { options: { watch: flag, interval: str } },
    heavy: true,
  },
  mirror: {
    summary: 'manage a push-only mirror of main (pushed in the background after each commit)',
    grammar: { subcommands: { set: ['<url>'], push: [], status: [], unset: [], remove: [], rm: [] } },
    heavy: true,
  },
  conflicts: {
    summary: 'list, show, resolve or drop branches that keep local commits after a conflict',
    grammar: {
      options: {
        ours: flag,
        theirs: flag,
        file: str,
        path: str,
        reason: str,
        propose: flag,
        model: { type: 'string', short: 'm' },
      },
      subcommands: { list: [], show: ['<branch>'], resolve: ['<branch>'], accept: ['<proposal>'], drop: ['<branch>'] },
      defaultSub: 'list',
    },
    heavy: true,
  },
  doctor: {
    summary:
      'check a memory repository (hooks, config, files, budgets, links, locks, remote, secrets…); --fix repairs what is safe',
    grammar: { options: { fix: flag } },
  },
  init: {
    summary: 'create an agent memory repository (or repair its hooks)',
    grammar: { options: { name: str, personality: str, layout: str } },
  },
  agents: { summary: 'list agents that have a memory repository under this home', grammar: {}, served: true },
  prompt: {
    summary: 'print the system prompt compiled from the committed memory',
    grammar: { options: { mode: str, preset: str, surface: str, template: str } },
    served: true,
  },
  tree: { summary: 'show the committed memory tree with descriptions', grammar: {}, served: true },
  status: {
    summary: 'show the memory repository state (head, uncommitted changes, ahead/behind)',
    grammar: {},
    served: true,
  },
  log: {
    summary: 'show memory commits (of one path, renames followed) with writer, reason and files',
    grammar: { options: { n: { type: 'string', short: 'n', fills: 'limit' }, since: fill('since') }, args: ['[path]'] },
    served: true,
  },
  show: {
    summary: 'print a committed memory file (or list a directory), at HEAD or --at REV',
    grammar: { options: { at: fill('at') }, args: ['<path>'] },
    served: true,
  },
  diff: {
    summary: 'show what changed between two commits (default: the last commit)',
    grammar: { options: { path: str }, args: ['[from]', '[to]'] },
    served: true,
  },
  revert: {
    summary: "undo one commit's change as a new commit (refused when it no longer applies cleanly)",
    grammar: { options: { reason: fill('reason') }, args: ['<sha>'] },
    served: true,
  },
  tokens: {
    summary: 'estimate the tokens system/ adds to the system prompt',
    grammar: { options: { top: str } },
    served: true,
  },
  search: {
    summary: 'search the committed memory (full text; semantic with embeddings configured)',
    grammar: {
      options: {
        at: fill('at'),
        limit: fill('limit'),
        path: { type: 'string', multiple: true, fills: 'paths' },
        mode: fill('mode'),
      },
      args: ['<query>'],
    },
    served: true,
  },
  memory: {
    summary: `write memory through the memory tool (${MEMORY_VERBS.join(', ')})`,
    // Generated from the catalogue's write tools: each verb a command, each option the arguments it fills.
    grammar: memoryGrammar(),
    served: true,
  },
  hook: {
    summary: 'run a gitmem hook: pre-commit, or a harness hook (claude-code, codex)',
    grammar: { subcommands: { 'pre-commit': [], 'claude-code': ['<event>'], codex: ['<event>'] } },
    served: (args: readonly string[]): boolean =>
      (args[0] === 'claude-code' || args[0] === 'codex') && SERVED_HOOK_EVENTS.has(args[1] ?? ''),
  },
  protect: {
    summary: 'list, add or remove protected (read_only) paths; write a protected file as the operator',
    grammar: { options: { reason: str, 'text-file': str } },
    ownArgs: true,
  },
  secrets: {
    summary: 'list, allow or remove fingerprints the secret scan lets through',
    grammar: { options: { note: str } },
    ownArgs: true,
  },
  personality: {
    summary: 'list personality presets or apply one (one commit)',
    grammar: { options: { reason: fill('reason'), force: flag }, subcommands: { list: [], apply: ['<id>'] } },
    served: true,
  },
  mcp: {
    summary: 'serve the memory tools over MCP (stdio, or --http)',
    grammar: { options: { http: flag, host: str, port: str, 'token-file': str } },
    heavy: true,
  },
  worker: {
    summary: 'run a command as a confined background memory worker; prune the worktrees of dead workers',
    grammar: {
      options: { command: str, task: str, paths: str, timeout: str, repair: flag },
      subcommands: { run: [], prune: [] },
    },
    heavy: true,
  },
  dream: {
    summary: 'reflect on a conversation and consolidate memory (LLM sub-agent)',
    grammar: {
      options: {
        memory: str,
        from: str,
        recent: str,
        conversation: { type: 'string', multiple: true },
        auto: flag,
        to: str,
        instruction: { type: 'string', short: 'i' },
        model: { type: 'string', short: 'm' },
        timeout: str,
        'dry-run': { type: 'boolean', default: false },
        merge: str,
        prompt: str,
        system: str,
      },
    },
    ownArgs: true,
    heavy: true,
  },
  migrate: {
    summary: 'move memory to the other layout (system or index) in one commit; --dry-run prints the diff',
    grammar: { options: { layout: str, 'dry-run': flag } },
  },
  defrag: {
    summary: 'restructure memory into a focused hierarchy (LLM sub-agent); never drops content silently',
    grammar: {
      options: {
        instruction: { type: 'string', short: 'i' },
        model: { type: 'string', short: 'm' },
        timeout: str,
        'dry-run': flag,
        'allow-drops': flag,
      },
    },
    heavy: true,
  },
  daemon: {
    summary: 'the background process that makes CLI calls fast (status, start, stop, run)',
    grammar: { options: { idle: str }, subcommands: { status: [], start: [], stop: [], run: [] } },
  },
  palace: {
    summary: 'serve the Memory Palace, a live local web view of memory and its history (or --export it)',
    grammar: { options: { port: str, host: str, open: flag, 'token-file': str, export: str } },
    heavy: true,
  },
  connect: {
    summary: "register gitmem's hooks and MCP server with a harness (Claude Code, Codex)",
    grammar: { options: { scope: str, 'dry-run': flag, status: flag, 'auto-memory': flag }, args: ['[harness]'] },
  },
  disconnect: {
    summary: 'remove what gitmem connect added to a harness’s settings',
    grammar: { options: { scope: str, 'dry-run': flag }, args: ['[harness]'] },
  },
  config: {
    summary: 'show or edit the settings by dotted key, checked, per scope (global, project, agent)',
    grammar: {
      options: { scope: str },
      subcommands: { show: [], get: ['<key>'], set: ['<key>', '<value>'], unset: ['<key>'] },
      defaultSub: 'show',
    },
  },
  sandbox: {
    summary: "run the agent's own command with every other agent's memory hidden (opt-in: GITMEM_SHELL_SANDBOX=1)",
    grammar: { options: { timeout: str }, subcommands: { exec: [] } },
    ownArgs: true,
    heavy: true,
  },
} as const satisfies Readonly<Record<string, CommandEntry>>;

export type CommandName = keyof typeof COMMANDS;

/**
 * The entry of the command a command line names, or undefined for a name that is none (`constructor`
 * included).
 * @example commandEntry('log')?.grammar.args // ['[path]']
 */
export function commandEntry(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? (COMMANDS as Readonly<Record<string, CommandEntry>>)[name] : undefined;
}

/** Whether `name` is a command. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}
