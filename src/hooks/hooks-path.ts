/**
 * Keeps `core.hooksPath` pointing at gitmem's hooks. git uses the LAST value it reads, includes expanded in
 * place and `config.worktree` read after the repository's config, so a second value (`git config --add`) or an
 * included file can switch the hooks off. The common case is decided from the config text alone (no process);
 * anything unusual asks git for every value with its origin, and the repair leaves exactly one effective value.
 */
import { closeSync, existsSync, openSync, readFileSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MemoryError } from '../errors.js';
import { parseGitConfig } from '../git/config-text.js';
import type { GitRunner } from '../git/runner.js';

/** How `hooksDir` is written as a config value (quoted only when git would need it). */
export function configValue(hooksDir: string): string {
  if (/^[^\s"\\;#][^"\\;#]*$/.test(hooksDir) && !/\s$/.test(hooksDir)) return hooksDir;
  return `"${hooksDir.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * True when the config text plainly pins `core.hooksPath` to `hooksDir`: one hooksPath entry, in the bare
 * `[core]` section, with that value (as git reads it), and nothing that could add another value
 * (include/includeIf sections) or that git would read otherwise (a malformed line). False means "ask git",
 * not "wrong". Pure.
 * @example pinsHooksPath('[core]\n\thooksPath = /m/.git/hooks\n', '/m/.git/hooks') === true
 */
function pinsHooksPath(configText: string, hooksDir: string): boolean {
  const parsed = parseGitConfig(configText);
  if (parsed.includes || parsed.malformed) return false;
  const values = parsed.entries.filter((e) => e.key === 'hookspath');
  const only = values.length === 1 ? values[0] : undefined;
  return only !== undefined && only.section === 'core' && only.subsection === undefined && only.value === hooksDir;
}

/** Parses `git config --show-origin -z --get-all`: origin, value pairs. */
function parseOrigins(stdout: string): Array<{ origin: string; value: string }> {
  const parts = stdout.split('\0');
  const out: Array<{ origin: string; value: string }> = [];
  for (let i = 0; i + 1 < parts.length; i += 2) out.push({ origin: parts[i] ?? '', value: parts[i + 1] ?? '' });
  return out;
}

/** The file a `file:` origin names (real path), or null for other origins (command line, blobs, stdin). */
function originFile(repoDir: string, origin: string): string | null {
  if (!origin.startsWith('file:')) return null;
  const file = resolve(repoDir, origin.slice('file:'.length));
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** Appends `text` to the config file under git's own lock (`config.lock`), so no `git config` races it. */
function appendUnderGitLock(configFile: string, text: string): void {
  const lock = `${configFile}.lock`;
  let fd: number;
  try {
    fd = openSync(lock, 'wx', 0o644);
  } catch {
    throw new MemoryError(
      'GIT_LOCKED',
      `cannot pin core.hooksPath: ${lock} exists (another git process is writing the config)`,
      { data: { lock } },
    );
  }
  try {
    const current = readFileSync(configFile, 'utf8');
    writeSync(fd, `${current}${current === '' || current.endsWith('\n') ? '' : '\n'}${text}`);
    closeSync(fd);
    renameSync(lock, configFile);
  } catch (err) {
    rmSync(lock, { force: true });
    throw err;
  }
}

/**
 * Makes `hooksDir` the one effective `core.hooksPath` of the repository at `repoDir` (git dir `gitDir`).
 * Returns true when something was repaired. Values set outside the git dir (global config, an include
 * elsewhere) are not edited: the repository's own value is placed after them, where it wins.
 * @example if (await pinHooksPath(git, repoDir, gitDir, hooksDir)) repaired.push('core.hooksPath')
 */
export async function pinHooksPath(
  git: GitRunner,
  repoDir: string,
  gitDir: string,
  hooksDir: string,
): Promise<boolean> {
  const configFile = join(gitDir, 'config');
  const text = readFileSync(configFile, 'utf8');
  if (!existsSync(join(gitDir, 'config.worktree')) && pinsHooksPath(text, hooksDir)) return false;
  const ask = async (): Promise<Array<{ origin: string; value: string }>> =>
    parseOrigins(
      (
        await git.run(['config', '--show-origin', '-z', '--get-all', 'core.hooksPath'], {
          cwd: repoDir,
          okExitCodes: [1],
        })
      ).stdout,
    );
  const values = await ask();
  const inGitDir = [
    ...new Set(
      values
        .map((v) => originFile(repoDir, v.origin))
        .filter((f): f is string => f !== null && f.startsWith(`${gitDir}/`)),
    ),
  ];
  const last = values.at(-1);
  const ours = values.filter((v) => originFile(repoDir, v.origin)?.startsWith(`${gitDir}/`));
  if (last?.value === hooksDir && originFile(repoDir, last.origin) === configFile && ours.length === 1) return false;
  // Drop every value stored inside the git dir (config, config.worktree, included files kept there) …
  for (const file of inGitDir)
    await git.run(['config', '--file', file, '--unset-all', 'core.hooksPath'], { cwd: repoDir, okExitCodes: [5] });
  // … then set ours last, after any include, so it is the one git uses.
  if (parseGitConfig(readFileSync(configFile, 'utf8')).includes)
    appendUnderGitLock(configFile, `[core]\n\thooksPath = ${configValue(hooksDir)}\n`);
  else await git.run(['config', 'core.hooksPath', hooksDir], { cwd: repoDir });
  const after = (await ask()).at(-1);
  if (after?.value !== hooksDir) {
    throw new MemoryError(
      'HOOKS_UNPINNED',
      `core.hooksPath is overridden by ${after?.origin ?? 'an unknown source'} (${after?.value ?? ''}); gitmem's pre-commit rules would not run`,
      {
        data: { origin: after?.origin, value: after?.value },
      },
    );
  }
  return true;
}
