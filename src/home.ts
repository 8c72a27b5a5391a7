/**
 * Which directory is gitmem's home: the one rule for the library, the CLI and the daemon's client (which
 * needs it before loading anything else, so this file imports only `os`, `path` and the error type).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { MemoryError } from './errors.js';

/**
 * The home from an explicit value, else `GITMEM_HOME`, else `~/.gitmem`; relative values resolve against
 * `cwd`. An explicit empty value is refused (it would silently mean the current directory); a blank
 * `GITMEM_HOME` counts as unset.
 * @example gitmemHome(undefined, { GITMEM_HOME: '/x' }, '/') === '/x'
 */
export function gitmemHome(explicit: string | undefined, env: Record<string, string | undefined>, cwd: string): string {
  if (explicit !== undefined && explicit.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', 'the gitmem home is empty: pass a directory (--home . for the current one)');
  }
  return resolve(cwd, explicit ?? (env['GITMEM_HOME']?.trim() || join(env['HOME']?.trim() || homedir(), '.gitmem')));
}
