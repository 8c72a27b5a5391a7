/** Resolves gitmem's home for the CLI: --home, GITMEM_HOME, then ~/.gitmem. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** @example homeFrom(undefined, { GITMEM_HOME: '/x' }, '/') === '/x' */
export function homeFrom(flag: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string {
  return resolve(cwd, flag ?? (env['GITMEM_HOME']?.trim() || join(env['HOME']?.trim() || homedir(), '.gitmem')));
}
