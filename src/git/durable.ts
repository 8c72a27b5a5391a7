/**
 * Durable writes: what a write does so that, once acknowledged, it survives a power loss. Files are fsynced
 * before the rename that publishes them and the directory after it; git's own steps (the index, the ref) get
 * `core.fsync` for the call. Whether writes are durable is decided once, here: `GITMEM_FSYNC` (env), else
 * the repository's `gitmem.fsync` (git config), else on.
 */
import { closeSync, constants, fsync, fsyncSync, openSync, readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { gitmemConfigValue } from './config-text.js';

/** `-c` entries for git calls that write the index or a ref: fsync each file before its rename. */
export const DURABLE_GIT_CONFIG: readonly string[] = Object.freeze(['core.fsync=index,reference', 'core.fsyncMethod=fsync']);

const { O_RDONLY, O_DIRECTORY } = constants;
const OFF = new Set(['0', 'false', 'no', 'off']);
const ON = new Set(['1', 'true', 'yes', 'on']);

/**
 * Flushes a directory's entries (a rename or unlink in it) to disk.
 * @example fsyncDir('/mem/.git/objects/4b')
 */
export function fsyncDir(path: string): void {
  const fd = openSync(path, O_RDONLY | O_DIRECTORY);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** fsync on the thread pool, so several run at once (the disk overlaps them). */
export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
}

/** fsyncDir on the thread pool: flush several directories at once. */
export async function fsyncDirAsync(path: string): Promise<void> {
  const handle = await open(path, O_RDONLY | O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Whether writes to the repository at `commonDir` are durable: `GITMEM_FSYNC=0|false|no|off` turns it off
 * (`1|true|yes|on` on), else `git config gitmem.fsync false` does; default on.
 * @example durableWrites('/mem/.git', { GITMEM_FSYNC: '0' }) === false
 */
export function durableWrites(commonDir: string, env: Record<string, string | undefined>): boolean {
  const fromEnv = env['GITMEM_FSYNC']?.trim().toLowerCase();
  if (fromEnv !== undefined && (OFF.has(fromEnv) || ON.has(fromEnv))) return !OFF.has(fromEnv);
  let config: string;
  try {
    config = readFileSync(join(commonDir, 'config'), 'utf8');
  } catch {
    return true;
  }
  const value = gitmemConfigValue(config, 'fsync')?.toLowerCase();
  return value === undefined || !OFF.has(value);
}
