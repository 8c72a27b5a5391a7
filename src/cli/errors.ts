/**
 * Maps anything thrown by a command to an exit code and a one-line message: MemoryError → 1 (its code
 * shown), bad options → 1, anything else → 2 (a bug; the stack goes only to GITMEM_DEBUG).
 */
import { debugSwitch } from '../config.js';
import { MemoryError } from '../errors.js';
import type { CliIo } from './types.js';

/** Prints the error through `io` and returns the exit code. */
export function errorExit(err: unknown, json: boolean, io: Pick<CliIo, 'stdout' | 'stderr' | 'env'>): number {
  let code: string;
  let message: string;
  let exit: number;
  if (err instanceof MemoryError) {
    [code, message, exit] = [err.code, err.message, err.code === 'INTERNAL' ? 2 : 1];
  } else if (err instanceof Error && /^ERR_PARSE_ARGS/.test((err as NodeJS.ErrnoException).code ?? '')) {
    [code, message, exit] = ['INVALID_ARGUMENT', err.message, 1];
  } else {
    [code, message, exit] = ['INTERNAL', err instanceof Error ? err.message : String(err), 2];
    if (debugSwitch(io.env) && err instanceof Error) io.stderr(`${err.stack ?? ''}\n`);
  }
  const oneLine = message.split('\n')[0] ?? '';
  io.stderr(`gitmem: ${code}: ${oneLine}\n`);
  if (json) {
    const data = err instanceof MemoryError ? err.data : {};
    io.stdout(`${JSON.stringify({ ok: false, error: { code, message, data } }, null, 2)}\n`);
  } else if (message.includes('\n')) {
    io.stderr(`${message.split('\n').slice(1).join('\n')}\n`);
  }
  return exit;
}
