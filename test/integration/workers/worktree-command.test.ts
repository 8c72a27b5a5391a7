// `gitmem worker run --command`: a shell command as a worker body, confined by real bubblewrap in its
// private worktree. It can commit there; it cannot read another agent's memory, write the primary checkout
// or anything outside its worktree, or unmount its way out (we run as root in CI).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { runCommandWorker } from '../../helpers/command-worker.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
let root: string;
let home: string;
let memoryDir: string;
let otherSecret: string;
let env: Record<string, string>;

function initRepo(dir: string, files: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main'], env);
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '-m', 'init'], env);
}

const run = (command: string, extraEnv: Record<string, string> = {}) =>
  runCommandWorker({ memoryDir, home, env }, command, extraEnv);

beforeAll(() => {
  root = makeTmpDir();
  env = { ...hermeticGitEnv(root), GITMEM_HOME: join(root, 'home') };
  home = join(root, 'home');
  memoryDir = join(home, 'agents', 'a1', 'memory');
  initRepo(memoryDir, {
    'system/persona.md': '---\ndescription: persona\n---\npersona\n',
    'reference/r.md': '---\ndescription: r\n---\nr\n',
  });
  initRepo(join(home, 'agents', 'a2', 'memory'), { 'system/secret.md': 'the other agent’s secret\n' });
  otherSecret = join(home, 'agents', 'a2', 'memory', 'system', 'secret.md');
});

afterAll(() => cleanupTmp());

describe('confined command worker', { tags: ['sandbox'] }, () => {
  it('commits inside its worktree with MEMORY_DIR pointing there, and is merged back', async () => {
    const { outcome, output } = await run(
      'test "$MEMORY_DIR" = "$PWD" && printf -- \'---\\ndescription: hello\\n---\\nhi\\n\' > system/hello.md && git add -A && git commit -qm "feat: hello" && echo "sandbox=$GITMEM_SANDBOX"',
    );
    expect(outcome).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(output).toContain('sandbox=bwrap');
    expect(readFileSync(join(memoryDir, 'system', 'hello.md'), 'utf8')).toBe('---\ndescription: hello\n---\nhi\n');
  });

  it("cannot read another agent's memory, even as root after trying to unmount the mask", async () => {
    const { outcome, output } = await run(
      `umount ${join(home, 'agents')} 2>/dev/null; mount -o remount,rw / 2>/dev/null; cat ${otherSecret}`,
    );
    expect(outcome).toMatchObject({ status: 'discarded', reason: 'body_failed' });
    expect(output).not.toContain('other agent');
    expect(output).toMatch(/No such file/);
  });

  it('cannot write the primary checkout or outside its worktree', async () => {
    const primary = await run(`echo evil > ${join(memoryDir, 'system', 'evil.md')}`);
    expect(primary.outcome.status).toBe('discarded');
    expect(existsSync(join(memoryDir, 'system', 'evil.md'))).toBe(false);
    // /var/tmp is writable on the host and lies outside every carve-out (the test tree on /dev/shm is
    // shadowed by the sandbox's own /dev, so it would not prove anything); it is not even visible inside
    const outsidePath = join('/var/tmp', `gitmem-escape-${process.pid}.txt`);
    const outside = await run(`echo evil > ${outsidePath}`);
    expect(outside.outcome.status).toBe('discarded');
    expect(outside.output).toMatch(/Read-only file system|Directory nonexistent/);
    expect(existsSync(outsidePath)).toBe(false);
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
  });

  it('starts the sandbox while the worktree is checked out, and runs the command only once it is in place', async () => {
    // The worktree is checked out by a slow git: the command must still see every file and a valid index.
    const real = createGitRunner({ env });
    const slow = {
      ...real,
      run: async (args: string[], o: Parameters<typeof real.run>[1]) =>
        args[0] === 'read-tree' && args[1] === '-mu'
          ? new Promise<void>((r) => setTimeout(r, 400)).then(() => real.run(args, o))
          : real.run(args, o),
    };
    let output = '';
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir,
      gitmemHome: home,
      command: 'cat system/persona.md && git status --porcelain && echo CHECKED',
      env,
      git: slow,
      onWarning: () => undefined,
      onOutput: (r) => (output = r.stdout + r.stderr),
    });
    expect(outcome.status, output).toBe('no_changes');
    expect(output).toBe('---\ndescription: persona\n---\npersona\nCHECKED\n');
  });

  it('never runs the command when the checkout fails after the sandbox started; the worktree goes', async () => {
    const real = createGitRunner({ env });
    const broken = {
      ...real,
      run: (args: string[], o: Parameters<typeof real.run>[1]) =>
        args[0] === 'read-tree' && args[1] === '-mu'
          ? Promise.reject(new Error('injected checkout failure'))
          : real.run(args, o),
    };
    const worktrees = join(home, 'agents', 'a1', 'memory-worktrees');
    const state = join(root, 'gate-state');
    mkdirSync(state, { recursive: true });
    const err = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir,
      gitmemHome: home,
      command: `echo RAN > ${state}/ran`,
      stateDirs: [state],
      env,
      git: broken,
      onWarning: () => undefined,
    }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'WORKTREE_ERROR')).toBe(true);
    expect(String((err as Error).message)).toMatch(/could not prepare worktree .*injected checkout failure/);
    expect(existsSync(join(state, 'ran'))).toBe(false);
    expect(readdirSync(worktrees).filter((n) => n.startsWith('worker-'))).toEqual([]);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('stops a writer whose output passes the cap; what it printed is kept up to the cap only', async () => {
    let out = '';
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir,
      gitmemHome: home,
      command: 'yes gitmem; echo finished',
      timeoutMs: 30_000,
      env,
      git: createGitRunner({ env }),
      onWarning: () => undefined,
      onOutput: (r) => (out = r.stdout),
    });
    expect(outcome).toMatchObject({ status: 'discarded', reason: 'body_failed' });
    expect(outcome.status === 'discarded' ? outcome.error : '').toMatch(/output passed the 16 MiB cap/);
    expect(out.length).toBe(16 * 1024 * 1024);
    expect(out).not.toContain('finished');
  });

  it('refuses to nest inside another sandbox before creating anything', async () => {
    const err = await run('true', { GITMEM_SANDBOX: 'bwrap' }).catch((e: unknown) => e);
    expect(isMemoryError(err, 'SANDBOX_NESTED')).toBe(true);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('refuses without a sandbox backend, and for a missing memory directory, before creating any worktree', async () => {
    const worktrees = join(home, 'agents', 'a1', 'memory-worktrees');
    const before = existsSync(worktrees) ? readdirSync(worktrees) : [];
    const noBwrap = await run('true', { PATH: join(root, 'no-such-bin') }).catch((e: unknown) => e);
    expect(isMemoryError(noBwrap, 'SANDBOX_UNAVAILABLE')).toBe(true);
    const missing = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir: join(home, 'agents', 'a1', 'gone'),
      gitmemHome: home,
      command: 'true',
      env,
      git: createGitRunner({ env }),
      onWarning: () => undefined,
    }).catch((e: unknown) => e);
    expect(isMemoryError(missing, 'MEMORY_DIR_MISSING')).toBe(true);
    expect(existsSync(worktrees) ? readdirSync(worktrees) : []).toEqual(before);
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('prints the outcome through the CLI: --json when merged; exit 3 and the kept branch on a conflict', async () => {
    const cliEnv = { ...env, NODE_OPTIONS: '' };
    const ok = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        'worker',
        'run',
        '--agent',
        'a1',
        '--task',
        'say hi',
        '--command',
        'printf -- "---\\ndescription: cli\\n---\\ncli\\n" > system/cli.md && git add -A && git commit -qm cli',
        '--json',
      ],
      { env: cliEnv, encoding: 'utf8' },
    );
    expect(ok.status, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'merged', commitCount: 1, type: 'update' });
    expect(git(memoryDir, ['log', '-1', '--format=%B'], env)).toContain('Task: say hi');
    // the worker edits persona.md, then waits until the primary has committed its own edit of the same line
    // (the flags live in its own worktree: the only directory it may write besides its private git dir)
    const worktrees = join(home, 'agents', 'a1', 'memory-worktrees');
    // (opening the memory installed gitmem's hooks: every commit here keeps the memory rules)
    const body =
      'printf -- "---\\ndescription: persona\\n---\\nworker\\n" > system/persona.md && git commit -qam worker && touch ready.flag && while [ ! -f go.flag ]; do sleep 0.05; done';
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLI, 'worker', 'run', '--agent', 'a1', '--command', body],
      { env: cliEnv },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const flagged = (): string | undefined =>
      readdirSync(worktrees).find((n) => existsSync(join(worktrees, n, 'ready.flag')));
    while (flagged() === undefined) {
      expect(child.exitCode, stdout).toBeNull(); // a worker that died early would otherwise hang the test
      await new Promise((r) => setTimeout(r, 50));
    }
    writeFileSync(join(memoryDir, 'system', 'persona.md'), '---\ndescription: persona\n---\nprimary\n');
    git(memoryDir, ['commit', '-qam', 'primary'], env);
    writeFileSync(join(worktrees, flagged() ?? '', 'go.flag'), '');
    expect(await exited).toBe(3);
    const branch = /merge_conflict: (gitmem\/worker\/\S+)/.exec(stdout)?.[1] ?? '';
    expect(stdout).toContain('system/persona.md');
    expect(git(memoryDir, ['branch', '--list', branch], env)).toContain(branch);
    expect(readFileSync(join(memoryDir, 'system', 'persona.md'), 'utf8')).toBe(
      '---\ndescription: persona\n---\nprimary\n',
    );
  });
});
