/**
 * Which CLI calls a daemon may run: those the registry marks `served` (the quick, stateless commands of
 * the core: writes, reads of the committed memory). Everything else always runs here. The command line is
 * read by the CLI's own parser (argv.ts) and grammar, so the client picks the command and the home exactly
 * as the CLI does.
 */
import { parseCommandLine, splitCommand } from '../argv.js';
import { commandEntry } from '../registry.js';
import { daemonSwitchOff, insideSandbox } from '../../config.js';

/**
 * Whether the daemon may run command `name` with these positionals.
 * @example isServed('hook', ['claude-code', 'reflect']) // false
 */
export function isServed(name: string, positionals: readonly string[]): boolean {
  const served = commandEntry(name)?.served;
  return served === true || (served !== undefined && served(positionals));
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
    line = parseCommandLine(argv, commandEntry(name)?.grammar.options);
    if (!isServed(name, line.positionals)) return undefined;
  } catch {
    return undefined;
  }
  if (line.values['help'] === true || line.values['version'] === true) return undefined;
  const home = line.values['home'];
  return { home: typeof home === 'string' ? home : undefined };
}
