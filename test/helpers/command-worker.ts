// A shell command run as a confined worker (runWorkerCommand) with its output collected: the set-up the
// sandboxed worker tests share.
import { createGitRunner } from '../../src/git/runner.js';
import { runWorkerCommand } from '../../src/worktree/command-body.js';
import { sharedShellLauncher } from '../../src/process/shell-launcher.js';

/** Runs `command` as a worker of `memoryDir` under `home`; resolves to its outcome and everything it printed. */
export async function runCommandWorker(
  at: { memoryDir: string; home: string; env: Record<string, string> },
  command: string,
  extraEnv: Record<string, string> = {},
) {
  let output = '';
  const outcome = await runWorkerCommand({
    launch: sharedShellLauncher(),
    memoryDir: at.memoryDir,
    gitmemHome: at.home,
    command,
    env: { ...at.env, ...extraEnv },
    git: createGitRunner({ env: at.env }),
    onWarning: () => undefined,
    onOutput: (r) => (output += r.stdout + r.stderr),
  });
  return { outcome, output };
}
