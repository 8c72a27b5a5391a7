// A confined writer's raw commits are answered by its harness (the per-run hook channel), inside real
// bubblewrap where the CLI daemon is out of reach: the channel's socket is visible there, the hook's client
// gets the verdict from it, and a bad commit is refused with the validator's messages.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { runCommandWorker } from '../../helpers/command-worker.js';
import { hookedRepo } from '../../helpers/hooked-repo.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let home: string;
let memoryDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  const root = makeTmpDir('gitmem-hookwriter-');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: join(root, 'home') };
  home = join(root, 'home');
  memoryDir = join(home, 'agents', 'a1', 'memory');
  await hookedRepo(memoryDir, env, 'persona');
});

afterAll(() => cleanupTmp());

const run = (command: string) => runCommandWorker({ memoryDir, home, env }, command);
const run2 = (command: string, extra: Record<string, string>) =>
  runCommandWorker({ memoryDir, home, env }, command, extra);

// The hook's own client, taken from the installed hook text, asked directly (exit 10 pass, 11 refused).
const ASK = [
  'hook="$(git rev-parse --git-common-dir)/hooks/pre-commit"',
  `eval "$(sed -n '/^gitmem_ask=/,/^gitmem_try()/p' "$hook" | sed '$d')"`,
  'GIT_INDEX_FILE="$(git rev-parse --absolute-git-dir)/index" perl -e "$gitmem_ask" -- /nowhere; echo "client=$?"',
].join('; ');

describe("a confined writer's hook", { tags: ['sandbox'] }, () => {
  it("is answered by its harness inside the sandbox, and refuses a bad commit with the validator's message", async () => {
    const body = [
      'test "$GITMEM_SANDBOX" = bwrap && test -S "$GITMEM_HOOK_SOCKET" && echo channel=visible',
      // its hooks: the repository's pre-commit, no post-commit (the mirror follows main, not a private worktree)
      'h="$(git config core.hooksPath)"; test -x "$h/pre-commit" && test ! -e "$h/post-commit" && test -e "$(git rev-parse --git-common-dir)/hooks/post-commit" && echo hooks=writer',
      "printf 'no frontmatter\\n' > system/bad.md && git add -A",
      ASK,
      'git commit -qm bad; echo "commit=$?"',
      'git reset -q --hard',
      "printf -- '---\\ndescription: good\\n---\\ngood\\n' > system/good.md && git add -A",
      ASK,
      'git commit -qm good && echo committed=good',
    ].join('\n');
    const { outcome, output } = await run(body);
    expect(output).toContain('channel=visible');
    expect(output).toContain('hooks=writer');
    expect(output).toMatch(/client=11[\s\S]*commit=1[\s\S]*client=10[\s\S]*committed=good/);
    expect(output).toContain('system/bad.md: missing frontmatter (must start with ---)');
    expect(outcome).toMatchObject({ status: 'merged', commitCount: 1 });
  });

  it('a sandbox that cannot even be started fails the worker, with no stray rejection (its gate is never left unhandled)', async () => {
    const stray: unknown[] = [];
    const onStray = (e: unknown): number => stray.push(e);
    process.on('unhandledRejection', onStray);
    try {
      // A NUL byte in a passed variable: no launcher shell can express it, and the spawn throws at once.
      const failed = await run2('true', { 'LC_GITMEM-X': 'a\0b' }).then(
        (r) => r.outcome,
        (err: unknown) => String(err),
      );
      expect(failed).toMatchObject({ status: 'discarded', reason: 'body_failed' });
      await new Promise((r) => setTimeout(r, 300));
      expect(stray.map(String)).toEqual([]);
    } finally {
      process.off('unhandledRejection', onStray);
    }
  });

  it('releases the writer only once its hooks are linked, however late the channel starts', async () => {
    let output = '';
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir,
      gitmemHome: home,
      env,
      git: createGitRunner({ env }),
      onWarning: () => undefined,
      onOutput: (r) => (output += r.stdout + r.stderr),
      command: 'test -e "$(git config core.hooksPath)/pre-commit" && echo LINKED || echo MISSING',
      // a channel whose start comes well after the sandbox is up and the worktree checked out
      wrapHookChannel: (ch) => ({ ...ch, start: () => new Promise((r) => setTimeout(r, 700)).then(() => ch.start()) }),
    });
    expect(outcome.status).toBe('no_changes');
    expect(output.trim()).toBe('LINKED');
  });
});

describe("a confined writer's commits", { tags: ['sandbox'] }, () => {
  it('is diffed by git in its harness, as each later one is, and a bad one refused', async () => {
    // A logging `git` first on the harness's PATH (not visible inside the sandbox: the writer runs the real one).
    const shim = makeTmpDir('gitmem-gitshim-');
    const log = join(shim, 'calls.log');
    writeFileSync(join(shim, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec /usr/bin/git "$@"\n`, {
      mode: 0o755,
    });
    const body = [
      "printf -- '---\\ndescription: one\\n---\\none\\n' > system/one.md && git add -A && git commit -qm one && echo first=ok",
      'printf \'no frontmatter\\n\' > system/two.md && git add -A; git commit -qm two; echo "second=$?"',
    ].join('\n');
    const { outcome, output } = await run2(body, { PATH: `${shim}:${env['PATH'] ?? '/usr/bin:/bin'}` });
    expect(output).toMatch(/first=ok[\s\S]*second=1/);
    expect(output).toContain('system/two.md: missing frontmatter (must start with ---)');
    expect(outcome).toMatchObject({ status: 'merged', commitCount: 1 });
    const diffs = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => /(^| )diff --raw/.test(l));
    expect(diffs).toHaveLength(2); // one `git diff --cached` per commit
  });
});
