/**
 * Registers gitmem's merge driver in a memory repository and repairs it: `merge.gitmem.*` in the repository's
 * config and gitmem's lines at the end of `.git/info/attributes` (inside the git dir, so not memory content,
 * and read after any `.gitattributes` a memory could hold). The script itself is written with the hooks
 * (install.ts). Cheap when current: two file reads, no process.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configValue, parseGitConfig, readGitConfigText } from '../git/config-text.js';
import type { GitRunner } from '../git/runner.js';
import { driverCommand, MERGE_DRIVER_NAME, withMergeAttributes } from './merge-driver-script.js';

function readOrNull(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * The `[merge "gitmem"]` values the config text holds (the last of each key wins, as in git). Pure.
 * @example mergeDriverConfig('[merge "gitmem"]\n\tdriver = x %A\n').driver === 'x %A'
 */
export function mergeDriverConfig(text: string): { name?: string; driver?: string } {
  const parsed = parseGitConfig(text);
  const name = configValue(parsed, 'merge', 'name', 'gitmem');
  const driver = configValue(parsed, 'merge', 'driver', 'gitmem');
  return { ...(name !== undefined ? { name } : {}), ...(driver !== undefined ? { driver } : {}) };
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.gitmem-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o644 });
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * Makes the config name gitmem's driver script and the attributes end with gitmem's lines. Returns what it
 * repaired (`merge driver (config)`, `merge driver (attributes)`). Read-only git dirs (inside a sandbox) are
 * left as they are.
 * @example repaired.push(...(await ensureMergeDriver(git, repoDir, gitDir, hooksDir)))
 */
export async function ensureMergeDriver(
  git: GitRunner,
  repoDir: string,
  gitDir: string,
  hooksDir: string,
): Promise<string[]> {
  const repaired: string[] = [];
  try {
    const want = { name: MERGE_DRIVER_NAME, driver: driverCommand(hooksDir) };
    const has = mergeDriverConfig(readGitConfigText(gitDir) ?? '');
    if (has.name !== want.name || has.driver !== want.driver) {
      accessSync(join(gitDir, 'config'), constants.W_OK); // EROFS inside a sandbox: leave what the harness wrote
      for (const key of ['name', 'driver'] as const)
        await git.run(['config', `merge.gitmem.${key}`, want[key]], { cwd: repoDir });
      repaired.push('merge driver (config)');
    }
    const file = join(gitDir, 'info', 'attributes');
    const current = readOrNull(file);
    const next = withMergeAttributes(current);
    if (next !== current) {
      mkdirSync(join(gitDir, 'info'), { recursive: true });
      writeAtomically(file, next);
      repaired.push('merge driver (attributes)');
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EROFS') throw err;
  }
  return repaired;
}
