/**
 * Installs gitmem's hooks into a memory repository and repairs them when missing or stale. Hooks live in
 * the common git dir, so worktrees of background writers run the same checks.
 */
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chmodSync,
  constants,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../assets.js';
import { MemoryError } from '../errors.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { gitmemConfigValue, readGitConfigText } from '../git/config-text.js';
import type { GitRunner } from '../git/runner.js';
import { pinHooksPath } from './hooks-path.js';
import { ensureMergeDriver } from './merge-driver-install.js';
import { MERGE_DRIVER_FILE, mergeDriverScript } from './merge-driver-script.js';
import { postCommitScript } from './post-commit.js';
import {
  isGitmemHookText,
  parseHookInstalls,
  planHookInstalls,
  preCommitScript,
  type HookInstall,
} from './pre-commit-script.js';

/** Absolute path of the hook entry in the built package. */
export function preCommitEntry(): string {
  // Prefer the bundled entry (one file to load: the hook runs on every raw commit).
  const bundled = join(packageRoot(), 'dist', 'bin', 'pre-commit.cjs');
  return existsSync(bundled) ? bundled : join(packageRoot(), 'dist', 'hooks', 'pre-commit-main.js');
}

/** This process's install: the Node running it and its hook entry. */
export function currentInstall(): HookInstall {
  return { node: process.execPath, entry: preCommitEntry() };
}

/** A hook entry of some gitmem install that is still there (the shape of the path, and the file). */
function isHookEntry(entry: string): boolean {
  return /\/dist\/(?:bin\/pre-commit\.cjs|hooks\/pre-commit-main\.js)$/.test(entry) && existsSync(entry);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Larger hook files are not gitmem's: rewritten without being read. */
const MAX_HOOK_BYTES = 64 * 1024;

export interface HookState {
  /**
   * What was repaired: `pre-commit` / `post-commit` / `gitmem-merge-driver` (missing, not a regular file, or
   * stale text), `pre-commit (mode)` / … (not 0755), `core.hooksPath` (not the one effective value),
   * `merge driver (config)` / `merge driver (attributes)` (see merge-driver-install.ts).
   */
  repaired: string[];
}

function statHook(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null; // missing: written below
  }
}

function readHook(st: Stats | null, file: string): string | null {
  return st?.isFile() && st.size <= MAX_HOOK_BYTES ? readFileSync(file, 'utf8') : null;
}

/**
 * Writes `text` when the hook differs (temp file + rename, so a commit running meanwhile reads the old hook or
 * the new one, never half of one), else fixes the mode. Inside a sandbox the hooks are read-only: what the
 * harness wrote before the writer started stands, so EROFS is not an error there.
 */
function writeIfStale(
  dir: string,
  name: string,
  text: string,
  repaired: string[],
  known?: { st: Stats | null; current: string | null },
): void {
  const file = join(dir, name);
  const st = known ? known.st : statHook(file);
  try {
    if (st !== null && !st.isFile()) rmSync(file, { recursive: true, force: true }); // a link or directory in its place
    if ((known ? known.current : readHook(st, file)) !== text) {
      const tmp = `${file}.gitmem-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
      try {
        writeFileSync(tmp, text, { mode: 0o755 });
        chmodSync(tmp, 0o755);
        renameSync(tmp, file);
      } finally {
        rmSync(tmp, { force: true });
      }
      repaired.push(name);
    } else if (((st?.mode ?? 0) & 0o7777) !== 0o755) {
      chmodSync(file, 0o755); // `chmod 644` makes git skip a hook silently
      repaired.push(`${name} (mode)`);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EROFS') throw err;
  }
}

export interface EnsureHooksOptions {
  /**
   * A confined writer (worker, reflection) is about to run from this install: name it first in the hook
   * (the sandbox hides every other install), and refuse (HOOKS_UNRUNNABLE) when its hook entry is missing.
   */
  forConfinedWriter?: boolean;
}

/**
 * Writes the pre-commit and post-commit hooks when missing, different or not executable, and makes
 * `core.hooksPath` name them as the one effective value (a global hooks path, a second value or an included
 * file cannot switch them off). The pre-commit hook names every gitmem install that opened the repository
 * (pre-commit-script.ts): a plain open adds its own install once and otherwise leaves the hook alone, so
 * installs taking turns do not rewrite it. Cheap when everything is current: file reads and a few stats, no
 * process.
 * @example const { repaired } = await ensureHooks(git, '/home/me/.gitmem/agents/a/memory')
 */
export async function ensureHooks(git: GitRunner, repoDir: string, o: EnsureHooksOptions = {}): Promise<HookState> {
  const gitDir = resolveGitCommonDir(repoDir);
  const hooksDir = join(gitDir, 'hooks');
  mkdirSync(hooksDir, { recursive: true });
  const repaired: string[] = [];
  const self = currentInstall();
  if (o.forConfinedWriter === true && !isHookEntry(self.entry)) {
    throw new MemoryError(
      'HOOKS_UNRUNNABLE',
      `this gitmem install has no pre-commit hook entry at ${self.entry}, so a writer's commits could not be checked: reinstall gitmem (or run \`npm run build\` in a checkout)`,
      {
        data: { entry: self.entry },
      },
    );
  }
  const file = join(hooksDir, 'pre-commit');
  const st = statHook(file);
  const current = readHook(st, file);
  const installs = planHookInstalls(parseHookInstalls(current), self, {
    preferSelf: o.forConfinedWriter === true,
    usable: isHookEntry,
    nodeExists: isExecutable,
  });
  writeIfStale(hooksDir, 'pre-commit', preCommitScript(installs), repaired, { st, current });
  writeIfStale(hooksDir, 'post-commit', postCommitScript(), repaired);
  writeIfStale(hooksDir, MERGE_DRIVER_FILE, mergeDriverScript(installs), repaired);
  if (await pinHooksPath(git, repoDir, gitDir, hooksDir)) repaired.push('core.hooksPath');
  repaired.push(...(await ensureMergeDriver(git, repoDir, gitDir, hooksDir)));
  return { repaired };
}

/** True for a repository gitmem manages: its pre-commit hook is gitmem's, or init/clone recorded an agent id. */
function isGitmemRepository(gitDir: string): boolean {
  const file = join(gitDir, 'hooks', 'pre-commit');
  const hook = readHook(statHook(file), file);
  if (hook !== null && isGitmemHookText(hook)) return true;
  const config = readGitConfigText(gitDir);
  return config !== undefined && gitmemConfigValue(config, 'agentId') !== undefined;
}

/**
 * What a confined writer (worker, reflection) runs before it starts: in a repository gitmem manages,
 * {@link ensureHooks} with this install named first, so the writer's `git commit` inside the sandbox runs a
 * hook it can see. A plain repository a library caller uses as memory is left as it is (its writers' work is
 * validated at merge all the same). Returns what was repaired, or null when the repository was left alone.
 * @example await ensureHooksForWriter(git, memoryDir)
 */
export async function ensureHooksForWriter(git: GitRunner, repoDir: string): Promise<HookState | null> {
  if (!isGitmemRepository(resolveGitCommonDir(repoDir))) return null;
  return ensureHooks(git, repoDir, { forConfinedWriter: true });
}
