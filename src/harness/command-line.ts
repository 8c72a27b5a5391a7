/**
 * What connect writes into a harness's settings: the hook command line and the MCP server entry, and how
 * an entry written by some gitmem (another install path, another agent) is recognised again by its text.
 */
import type { GitmemEvent, HarnessId } from './catalogue.js';

/** How the running gitmem is started again: `process.execPath` and the CLI's resolved path. */
export interface Launch {
  node: string;
  bin: string;
  /** `--agent`, only when the user passed it. */
  agent?: string | undefined;
  /** `--home`, when connect ran with a home other than the default (the harness's environment may not name it). */
  home?: string | undefined;
}

/**
 * Single-quotes `s` for a POSIX shell (an embedded quote becomes `'\''`).
 * @example shellQuote("it's") === `'it'\\''s'`
 */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/**
 * The hook's command line.
 * @example hookCommand({ node: '/n', bin: '/g' }, 'codex', 'turn-end') === "'/n' '/g' hook codex turn-end"
 */
export function hookCommand(launch: Launch, harness: HarnessId, event: GitmemEvent): string {
  const agent = launch.agent === undefined ? '' : ` --agent ${shellQuote(launch.agent)}`;
  const home = launch.home === undefined ? '' : ` --home ${shellQuote(launch.home)}`;
  return `${shellQuote(launch.node)} ${shellQuote(launch.bin)} hook ${harness} ${event}${agent}${home}`;
}

/** The MCP server entry (`env` omitted: the server inherits the harness's environment). */
export interface McpServer {
  command: string;
  args: string[];
}

/** @example mcpServer({ node: '/n', bin: '/g', agent: 'a' }) // { command: '/n', args: ['/g', 'mcp', '--agent', 'a'] } */
export function mcpServer(launch: Launch): McpServer {
  const agent = launch.agent === undefined ? [] : ['--agent', launch.agent];
  return {
    command: launch.node,
    args: [launch.bin, 'mcp', ...agent, ...(launch.home === undefined ? [] : ['--home', launch.home])],
  };
}

// A value as shellQuote writes it (or a bare word, as an older connect wrote it).
const VALUE = String.raw`(?:'(?:[^']|'\\'')*'|\S+)`;
// The whole line: `<node> <bin> hook <harness> <event> [--agent A] [--home H]`, nothing before or after.
const OUR_HOOK = new RegExp(
  String.raw`^${VALUE} (${VALUE}) hook (claude-code|codex) (session-start|turn-end|session-end|auto-memory-start|pre-write|post-write)( --agent ${VALUE})?( --home ${VALUE})?$`,
);

/**
 * Whether a hook command was written by gitmem connect for `harness` (any install path, any agent).
 * @example isOurHookCommand("'/n' '/x/gitmem.cjs' hook codex turn-end", 'codex') === true
 */
export function isOurHookCommand(command: unknown, harness: HarnessId): boolean {
  if (typeof command !== 'string') return false;
  const m = OUR_HOOK.exec(command);
  return m !== null && m[2] === harness && (m[1] ?? '').includes('gitmem');
}

/** The `--agent` of a hook command or MCP args written by connect, if any. */
export function agentOf(commandOrArgs: string | readonly unknown[]): string | undefined {
  if (typeof commandOrArgs === 'string') {
    const m = OUR_HOOK.exec(commandOrArgs)?.[4]?.slice(' --agent '.length);
    return m?.replace(/^'(.*)'$/, '$1').replaceAll(`'\\''`, "'");
  }
  const i = commandOrArgs.indexOf('--agent');
  const v = i >= 0 ? commandOrArgs[i + 1] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/**
 * Whether an MCP server entry runs some gitmem's `mcp` command (`<node> <…gitmem…> mcp [--agent id]`).
 * @example isOurMcpServer({ command: '/n', args: ['/x/gitmem.cjs', 'mcp'] }) === true
 */
export function isOurMcpServer(entry: unknown): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const args = (entry as { args?: unknown }).args;
  if (!Array.isArray(args) || typeof args[0] !== 'string' || args[1] !== 'mcp') return false;
  const rest = args.slice(2);
  const options = rest.filter((_, i) => i % 2 === 0);
  return (
    args[0].includes('gitmem') &&
    rest.length % 2 === 0 &&
    options.every((o) => o === '--agent' || o === '--home') &&
    new Set(options).size === options.length
  );
}
