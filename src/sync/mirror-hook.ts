/**
 * The post-commit hook's push, in its own detached process (started by the hook script, outside the
 * caller's process): find the gitmem home this repository belongs to, take the sync credentials from there
 * (or from `GITMEM_GIT_TOKEN`), and push main to the mirror exactly as `gitmem mirror push` does — the same
 * runner, origin scoping and redaction. Nothing is written but the log entry; never throws.
 */
import { basename, dirname, resolve } from 'node:path';
import { isMemoryError } from '../errors.js';
import type { GitRetryPolicy, GitRunner } from '../git/runner.js';
import { MIRROR_HOME_KEY } from '../hooks/post-commit.js';
import type { GitCredentials } from './credentials.js';
import { pushMirror } from './mirror.js';
import { appendMirrorLog } from './mirror-log.js';
import { gitDirOf } from './repo-state.js';

/** One retry: the next commit pushes again anyway, and a hook's push should not linger. */
const HOOK_RETRY: GitRetryPolicy = { attempts: 2, baseDelayMs: 500 };

/** The configured home (config.ts), and whether the environment named it (GITMEM_HOME) or it is the default. */
export interface ConfiguredHome {
  home: string;
  fromEnv: boolean;
}

/**
 * The gitmem home whose credentials the mirror uses: the one recorded by `gitmem mirror set`, else
 * `GITMEM_HOME`, else the home the repository sits in (`<home>/agents/<id>/memory`), else `~/.gitmem`.
 * @example await mirrorHome(git, '/h/agents/a1/memory', { home: '/me/.gitmem', fromEnv: false }) === '/h'
 */
async function mirrorHome(git: GitRunner, memoryDir: string, configured: ConfiguredHome): Promise<string> {
  const recorded = await git.run(['config', '--get', MIRROR_HOME_KEY], { cwd: memoryDir, okExitCodes: [1] });
  if (recorded.exitCode === 0 && recorded.stdout.trim() !== '') return resolve(recorded.stdout.trim());
  if (configured.fromEnv) return configured.home;
  const dir = resolve(memoryDir);
  if (basename(dir) === 'memory' && basename(dirname(dirname(dir))) === 'agents') return dirname(dirname(dirname(dir)));
  return configured.home;
}

/** What the hook process hands {@link runMirrorHook} (mirror-hook-main.ts wires it from config.ts). */
export interface MirrorHookInput {
  git: GitRunner;
  cwd: string;
  home: ConfiguredHome;
  /** The sync credentials of a home. */
  credentials: (home: string) => GitCredentials | undefined;
}

/**
 * Pushes main to the configured mirror with the sync credentials; every outcome lands in the mirror log.
 * @example await runMirrorHook({ git, cwd, home: { home, fromEnv }, credentials: (h) => resolveCredentials({ env, home: h }) })
 */
export async function runMirrorHook(input: MirrorHookInput): Promise<void> {
  const gitDir = gitDirOf(input.cwd);
  if (!gitDir) return;
  const { git } = input;
  let credentials: GitCredentials | undefined;
  try {
    credentials = input.credentials(await mirrorHome(git, input.cwd, input.home));
  } catch (err) {
    // e.g. a credentials file others can read: say so where `gitmem mirror status` looks.
    const commit = (
      await git.run(['rev-parse', '--short', 'HEAD'], { cwd: input.cwd, okExitCodes: [128] })
    ).stdout.trim();
    const output = err instanceof Error ? err.message : String(err);
    appendMirrorLog(gitDir, { commit, branch: 'main', trigger: 'post-commit', ok: false, output }, []);
    return;
  }
  try {
    await pushMirror({
      git,
      memoryDir: input.cwd,
      trigger: 'post-commit',
      retry: HOOK_RETRY,
      credentials,
    });
  } catch (err) {
    if (isMemoryError(err, 'MIRROR_ERROR')) return; // no URL, no commit or not on a branch any more: nothing to push
    appendMirrorLog(
      gitDir,
      {
        commit: '',
        branch: 'main',
        trigger: 'post-commit',
        ok: false,
        output: err instanceof Error ? err.message : String(err),
      },
      credentials ? [credentials.token] : [],
    );
  }
}
