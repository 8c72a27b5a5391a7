/**
 * Which CLI calls a daemon may run: the quick, stateless commands of the core (writes, reads of the
 * committed memory). Long-running or process-bound commands (mcp, dream, worker, sync…) always run here.
 */
const SERVED = new Set(['memory', 'prompt', 'tree', 'status', 'log', 'agents', 'personality']);
const OFF = new Set(['0', 'off', 'false', 'no']);

/** `GITMEM_DAEMON=0|off|false|no` turns the daemon off for this call (and keeps it from being started). */
export function daemonDisabled(env: NodeJS.ProcessEnv): boolean {
  return OFF.has((env['GITMEM_DAEMON'] ?? '').trim().toLowerCase());
}

/** @example daemonServes(['memory', 'create', 'a.md', '--reason', 'r'], {}) === true */
export function daemonServes(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  // Never from inside gitmem's sandbox (its runtime dir is hidden there anyway): a daemon runs unconfined.
  if (daemonDisabled(env) || env['GITMEM_SANDBOX']) return false;
  const name = argv.find((a) => !a.startsWith('-'));
  if (name === undefined || !SERVED.has(name)) return false;
  return !argv.includes('--help') && !argv.includes('-h');
}

/** The value of `--name V` / `--name=V` in argv, if present. */
export function optionValue(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === `--${name}`) return argv[i + 1];
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}
