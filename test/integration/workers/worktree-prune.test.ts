// Orphans: a `gitmem worker run` process killed with SIGKILL leaves its worktree directory and its private git
// dir (detached HEAD, private objects; no branch yet). pruneOrphanWorktrees (also `gitmem worker prune`, and
// the start of every worker) removes them, first importing commits main lacks to a kept branch (it shows in
// `gitmem conflicts`), and never touches the worktree of a worker that is still running.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { listKeptBranches } from '../../../src/sync/conflicts.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { OWNER_MARKER } from '../../../src/worktree/owner.js';
import { pruneOrphanWorktrees } from '../../../src/worktree/prune.js';
import { cleanupTmp, git, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
let home: string;
let memoryDir: string;
let worktrees: string;
let env: Record<string, string>;
const children: ChildProcess[] = [];

beforeAll(() => {
  const root = makeTmpDir();
  home = join(root, 'home');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home, NODE_OPTIONS: '' };
  memoryDir = join(home, 'agents', 'a1', 'memory');
  worktrees = join(home, 'agents', 'a1', 'memory-worktrees');
  initRepoWithFile(memoryDir, 'system/persona.md', 'persona\n', env);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  cleanupTmp();
});

/** The worktree (by name) where a worker's command touched `<flag>.ready`. */
const flaggedBy = (flag: string): string | undefined =>
  (existsSync(worktrees) ? readdirSync(worktrees) : []).find((n) => existsSync(join(worktrees, n, `${flag}.ready`)));

/**
 * Starts `gitmem worker run` whose command runs `before`, touches `<flag>.ready`, then waits for `<flag>.go`
 * (both in its own worktree: the only directory it may write besides its private git dir).
 */
async function startWorker(
  flag: string,
  before = 'true',
): Promise<{ child: ChildProcess; exited: Promise<number | null> }> {
  const body = `${before} && touch ${flag}.ready && while [ ! -f ${flag}.go ]; do sleep 0.05; done`;
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker', 'run', '--agent', 'a1', '--command', body], {
    env,
    stdio: 'ignore',
  });
  children.push(child);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const deadline = Date.now() + 30_000;
  while (flaggedBy(flag) === undefined) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`worker ${flag} did not start`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, exited };
}

/** Pids of processes whose command line names `<flag>.go` (the worker's body, inside its sandbox). */
function bodiesOf(flag: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${flag}.go`)) out.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Kills a worker's harness; its sandboxed body must die with it (nothing of it may run on unsupervised). */
async function kill9(w: { child: ChildProcess; exited: Promise<number | null> }, flag: string): Promise<void> {
  expect(bodiesOf(flag).length).toBeGreaterThan(0);
  w.child.kill('SIGKILL');
  await w.exited;
  for (let i = 0; i < 100 && bodiesOf(flag).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(bodiesOf(flag)).toEqual([]);
}

const worktreeDirs = (): string[] =>
  readdirSync(worktrees)
    .filter((n) => /^worker-/.test(n))
    .sort();
const records = (): number =>
  (git(memoryDir, ['worktree', 'list', '--porcelain'], env).match(/^worktree /gm) ?? []).length - 1;
const privateGitDirs = (): string[] =>
  existsSync(join(memoryDir, '.git', 'gitmem-worktrees'))
    ? readdirSync(join(memoryDir, '.git', 'gitmem-worktrees'))
    : [];
const branches = (): string[] =>
  git(memoryDir, ['for-each-ref', '--format=%(refname:short)', 'refs/heads/gitmem/'], env).split('\n').filter(Boolean);

describe('pruning the worktrees of killed workers', { tags: ['sandbox'] }, () => {
  it('removes the orphans of SIGKILLed workers, imports and keeps a branch with commits, spares a live worker', async () => {
    const [empty, committed, live] = await Promise.all([
      startWorker('empty'),
      startWorker(
        'committed',
        'printf -- "---\\ndescription: kept\\n---\\nkept\\n" > system/kept.md && git add -A && git commit -qm "feat: kept"',
      ),
      startWorker('live'),
    ]);
    await kill9(empty, 'empty');
    await kill9(committed, 'committed');
    expect(worktreeDirs()).toHaveLength(3);
    expect(privateGitDirs()).toHaveLength(3);
    expect(records()).toBe(0); // unknown to `git worktree`: main's fetch and gc never walk unimported commits
    expect(branches()).toEqual([]); // workers commit on a detached HEAD; branches appear at import

    const r = await pruneOrphanWorktrees({ memoryDir, git: createGitRunner({ env }) });
    const byPid = new Map(r.pruned.map((p) => [p.ownerPid, p]));
    expect(byPid.get(empty.child.pid ?? -1)).toMatchObject({ branch: 'absent', unmergedCommits: 0 });
    const kept = byPid.get(committed.child.pid ?? -1);
    expect(kept).toMatchObject({ branch: 'kept', unmergedCommits: 1 });
    expect(r.skipped).toEqual([expect.objectContaining({ reason: 'alive', ownerPid: live.child.pid })]);
    expect(worktreeDirs()).toEqual([r.skipped[0]?.name]);
    expect(privateGitDirs()).toEqual([r.skipped[0]?.name]);
    expect(branches()).toEqual([kept?.branchName]);
    expect(git(memoryDir, ['show', `${kept?.branchName ?? ''}:system/kept.md`], env)).toBe(
      '---\ndescription: kept\n---\nkept',
    );
    expect((await listKeptBranches({ git: createGitRunner({ env }), memoryDir })).map((b) => b.branch)).toEqual([
      kept?.branchName,
    ]);
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');

    writeFileSync(join(worktrees, flaggedBy('live') ?? '', 'live.go'), '');
    expect(await live.exited).toBe(0); // the live worker was left alone and finishes normally
    expect(worktreeDirs()).toEqual([]);
    expect(await pruneOrphanWorktrees({ memoryDir, git: createGitRunner({ env }) })).toEqual({
      pruned: [],
      skipped: [],
    });
    git(memoryDir, ['branch', '-D', kept?.branchName ?? ''], env);
  });

  it('the next worker prunes orphans before it starts; `gitmem worker prune --json` handles a stray directory and a record with no owner', async () => {
    await kill9(await startWorker('orphan'), 'orphan');
    const [orphan] = worktreeDirs();
    const next = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir,
      gitmemHome: home,
      command: 'true',
      env,
      git: createGitRunner({ env }),
      onWarning: () => undefined,
    });
    expect(next.status).toBe('no_changes');
    expect(orphan && existsSync(join(worktrees, orphan))).toBe(false);
    expect(privateGitDirs()).toEqual([]);
    expect(branches()).toEqual([]);

    // a directory git has no record of (a creation cut short) and a record whose owner is unknown
    mkdirSync(join(worktrees, 'worker-20250102030405-abcdef12', 'system'), { recursive: true });
    git(
      memoryDir,
      [
        'worktree',
        'add',
        '-q',
        '--no-checkout',
        '-b',
        'gitmem/worker/20250102030405-0000beef',
        join(worktrees, 'worker-20250102030405-0000beef'),
        'HEAD',
      ],
      env,
    );
    rmSync(join(memoryDir, '.git', 'worktrees', 'worker-20250102030405-0000beef', OWNER_MARKER), { force: true });
    const cli = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'worker', 'prune', '--agent', 'a1', '--json'], {
      env,
      encoding: 'utf8',
    });
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual({
      pruned: [expect.objectContaining({ name: 'worker-20250102030405-abcdef12', ownerPid: null, branch: 'absent' })],
      skipped: [expect.objectContaining({ name: 'worker-20250102030405-0000beef', reason: 'unknown_owner' })],
    });
    expect(worktreeDirs()).toEqual(['worker-20250102030405-0000beef']);
    const text = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'worker', 'prune', '--agent', 'a1'], {
      env,
      encoding: 'utf8',
    });
    expect(text.stdout).toContain('left worker-20250102030405-0000beef: unknown owner');
  });
});
