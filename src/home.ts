/**
 * Whether gitmem's home can be used, and making it. Which directory it is is config.ts's `gitmemHome`.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { MemoryError } from './errors.js';

function homeUnusable(home: string, why: string): MemoryError {
  return new MemoryError('HOME_UNUSABLE', `the gitmem home ${home} ${why}`, { data: { home } });
}

/**
 * Throws HOME_UNUSABLE when `home` exists but is not a directory; a missing home is fine (nothing there yet).
 * @example assertHomeUsable('/etc/passwd') // throws HOME_UNUSABLE
 */
export function assertHomeUsable(home: string): void {
  let stat;
  try {
    stat = statSync(home);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw homeUnusable(home, `cannot be used (${code ?? 'error'})`);
  }
  if (!stat.isDirectory()) throw homeUnusable(home, 'is not a directory');
}

/**
 * Makes sure `home/agents` exists, creating each missing level with a plain mkdir: a recursive mkdir spins
 * forever where mkdir answers ENOENT under an existing parent (/proc/…). Throws HOME_UNUSABLE naming why.
 * @example prepareHome('/tmp/new-home') // creates /tmp/new-home and /tmp/new-home/agents
 */
export function prepareHome(home: string): void {
  assertHomeUsable(home);
  const missing: string[] = [];
  for (let dir = resolve(home); !existsSync(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of [...missing, join(home, 'agents')]) {
    try {
      mkdirSync(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && statSync(dir).isDirectory()) continue;
      throw homeUnusable(home, `cannot be created (${code ?? 'error'} on ${dir})`);
    }
  }
}
