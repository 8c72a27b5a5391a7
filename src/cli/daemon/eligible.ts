/**
 * Which CLI calls a daemon may run: the quick, stateless commands of the core (writes, reads of the
 * committed memory). Long-running or process-bound commands (mcp, dream, worker, sync…) always run here.
 * The command line is read by the CLI's own parser (argv.ts), so the client picks the command and the
 * home exactly as the CLI does.
 */
import { parseCommandLine, splitCommand } from '../argv.js';
import { GRAMMAR } from '../grammar.js';
import { daemonSwitchOff, insideSandbox } from '../../config.js';

const SERVED = new Set(['memory', 'prompt', 'tree', 'status', 'log', 'agents', 'personality', 'show', 'diff', 'revert', 'tokens', 'search']);
/** A harness's hook runs on every session start and turn: served, but not the long `reflect` job it starts. */
const SERVED_HOOKS = new Set(['session-start', 'turn-end', 'session-end']);

function served(name: string, args: readonly string[]): boolean {
  if (SERVED.has(name)) return true;
  return name === 'hook' && (args[0] === 'claude-code' || args[0] === 'codex') && SERVED_HOOKS.has(args[1] ?? '');
}

/**
 * A call the daemon may serve, with its `--home` value; undefined for every other call (including any the
 * parser refuses: those run here, which reports the error).
 * @example servedCall(['--agent', 'a1', 'memory', 'delete', 'a.md', '--reason', 'r'], {}) // { home: undefined }
 */
export function servedCall(argv: readonly string[], env: NodeJS.ProcessEnv): { home: string | undefined } | undefined {
  // Never from inside gitmem's sandbox (its runtime dir is hidden there anyway): a daemon runs unconfined.
  if (daemonSwitchOff(env) || insideSandbox(env)) return undefined;
  let line;
  try {
    const name = splitCommand(argv).command;
    if (name === undefined) return undefined;
    line = parseCommandLine(argv, GRAMMAR[name]?.options);
    if (!served(name, line.positionals)) return undefined;
  } catch {
    return undefined;
  }
  if (line.values['help'] === true || line.values['version'] === true) return undefined;
  const home = line.values['home'];
  return { home: typeof home === 'string' ? home : undefined };
}
