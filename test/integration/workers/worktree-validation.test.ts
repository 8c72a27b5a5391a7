// Merges obey the memory rules. A confined worker (real bubblewrap) that plants links, rewrites a read_only
// file or writes files the hook would refuse gets a `rejected` outcome: main unchanged, the branch kept and
// listed by `gitmem conflicts`. Links planted this way can never lead the memory tool into .git.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { listKeptBranches } from '../../../src/sync/conflicts.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { createMemoryWorktree } from '../../../src/worktree/create.js';
import { finalizeReflectionWorktree } from '../../../src/worktree/finalize.js';
import { consumesTranscript } from '../../../src/worktree/finalize-result.js';
import { mergeIntoCheckout } from '../../../src/worktree/merge.js';
import type { MemoryWorkerOutcome } from '../../../src/worktree/worker-types.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
let home: string;
let memoryDir: string;
let env: Record<string, string>;
let memory: Memory;
const runner = () => createGitRunner({ env });
const head = (): string => git(memoryDir, ['rev-parse', 'HEAD'], env);
const md = (description: string, extra = '', body = 'text\n'): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;
const keptBranches = async (): Promise<string[]> =>
  (await listKeptBranches({ git: runner(), memoryDir })).map((b) => b.branch);

async function worker(command: string): Promise<{ outcome: MemoryWorkerOutcome; output: string }> {
  let output = '';
  const outcome = await runWorkerCommand({
    launch: sharedShellLauncher(),
    memoryDir,
    gitmemHome: home,
    command,
    env,
    git: runner(),
    onWarning: () => undefined,
    onOutput: (r) => (output += r.stdout + r.stderr),
  });
  return { outcome, output };
}

/** Expects a rejected merge naming `path`, with main unchanged and the branch kept. */
async function expectRejected(command: string, path: string, problem: RegExp): Promise<MemoryWorkerOutcome> {
  const before = head();
  const { outcome, output } = await worker(command);
  expect(outcome.status, output).toBe('rejected');
  if (outcome.status !== 'rejected') throw new Error('unreachable');
  expect(outcome.rejectedPaths).toContain(path);
  expect(
    outcome.problems.some((p) => p.startsWith(`${path}: `) && problem.test(p)),
    outcome.problems.join('\n'),
  ).toBe(true);
  expect(head()).toBe(before);
  expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
  expect(await keptBranches()).toContain(outcome.branchName);
  expect(git(memoryDir, ['rev-parse', `refs/heads/${outcome.branchName}`], env)).toBe(outcome.branchTip);
  return outcome;
}

beforeAll(async () => {
  const root = makeTmpDir();
  home = join(root, 'home');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'a1', env });
  memoryDir = join(home, 'agents', 'a1', 'memory');
  writeFileSync(
    join(memoryDir, 'system', 'locked.md'),
    md('operator rules', 'read_only: true\n', 'never change this\n'),
  );
  git(memoryDir, ['add', '-A'], env);
  git(memoryDir, ['commit', '-qm', 'operator: locked rules', '--no-verify'], env);
  memory = await createMemory({ home, agentId: 'a1', env });
});

afterAll(() => cleanupTmp());

describe.runIf(sandboxed)('the worker-planted link chain', () => {
  it('a plain git commit of a link in the worktree is refused by the hook', async () => {
    const before = head();
    for (const link of ['ln -s . lnk_self', 'ln -s .git lnk_git']) {
      const { outcome, output } = await worker(`${link} && git add -A && git commit -qm link`);
      expect(outcome.status, output).toBe('discarded');
      expect(output).toMatch(/symbolic links are not allowed in memory/);
    }
    expect(head()).toBe(before);
  });

  it('committed with --no-verify, the merge is rejected, the branch kept, and nothing reaches .git later', async () => {
    const hook = join(memoryDir, '.git', 'hooks', 'pre-commit');
    const out = await expectRejected(
      'ln -s . lnk_self && ln -s .git lnk_git && git add -A && git commit -q --no-verify -m links',
      'lnk_self',
      /symbolic links/,
    );
    expect(out.status === 'rejected' && out.rejectedPaths).toEqual(['lnk_git', 'lnk_self']);
    expect(existsSync(join(memoryDir, 'lnk_self'))).toBe(false);
    for (const file_path of ['lnk_self/.git/objects', 'lnk_git/hooks', 'lnk_git/objects']) {
      const err = await memory.tool({ command: 'delete', reason: 'tidy', file_path }).catch((e: unknown) => e);
      expect(isMemoryError(err), file_path).toBe(true);
    }
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    expect(gitTry(memoryDir, ['fsck', '--strict', '--no-dangling'], env).status).toBe(0);
    expect(git(memoryDir, ['log', '--oneline'], env).split('\n').length).toBeGreaterThan(1);
  });

  it('cannot write the protected list in the common git dir', async () => {
    const { outcome, output } = await worker(
      `echo '{"version":1,"scanned":null,"paths":[]}' > ${join(memoryDir, '.git', 'gitmem-protected')}`,
    );
    expect(outcome.status).toBe('discarded');
    expect(output).toMatch(/Read-only file system/);
  });
});

describe.runIf(sandboxed)('merge validation', () => {
  it('rejects a worker that rewrites a read_only file with --no-verify', async () => {
    await expectRejected(
      "sed -i 's/never change this/changed/' system/locked.md && git commit -qam rewrite --no-verify",
      'system/locked.md',
      /read_only and cannot be modified/,
    );
    expect(readFileSync(join(memoryDir, 'system', 'locked.md'), 'utf8')).toContain('never change this');
  });

  it('rejects a worker that adds system/broken.md without frontmatter', async () => {
    await expectRejected(
      'echo broken > system/broken.md && git add -A && git commit -qm broken --no-verify',
      'system/broken.md',
      /missing frontmatter/,
    );
    expect(existsSync(join(memoryDir, 'system', 'broken.md'))).toBe(false);
  });

  it('rejects a name git lets into a tree but memory may not hold (a backslash)', async () => {
    const body = [
      `b=$(printf -- '---\\ndescription: d\\n---\\nx\\n' | git hash-object -w --stdin)`,
      `t=$( (git ls-tree HEAD; printf '100644 blob %s\\tnotes\\\\evil.md\\n' "$b") | git mktree)`,
      'c=$(git commit-tree "$t" -p HEAD -m planted)',
      'git reset -q --soft "$c"',
    ].join(' && ');
    await expectRejected(body, 'notes\\evil.md', /backslash/);
  });

  it('a worker adding x/.GIT/config never reaches a merge: the import refuses its tree', async () => {
    const before = head();
    const body = [
      'b=$(echo evil | git hash-object -w --stdin)',
      `i=$(printf '100644 blob %s\\tconfig\\n' "$b" | git mktree)`,
      `g=$(printf '040000 tree %s\\t.GIT\\n' "$i" | git mktree)`,
      `t=$( (git ls-tree HEAD; printf '040000 tree %s\\tx\\n' "$g") | git mktree)`,
      'c=$(git commit-tree "$t" -p HEAD -m planted)',
      'git reset -q --soft "$c"',
    ].join(' && ');
    const { outcome, output } = await worker(body);
    expect(outcome, output).toMatchObject({ status: 'discarded', reason: 'import_failed' });
    expect(head()).toBe(before);
  });

  it('a clean worker still merges', async () => {
    const { outcome, output } = await worker(
      `printf -- '---\\ndescription: office days\\n---\\nWednesdays\\n' > system/office.md && git add -A && git commit -qm office`,
    );
    expect(outcome.status, output).toBe('merged');
    expect(readFileSync(join(memoryDir, 'system', 'office.md'), 'utf8')).toContain('Wednesdays');
  });

  it('the CLI prints the rejection and exits 5', () => {
    const r = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        CLI,
        'worker',
        'run',
        '--agent',
        'a1',
        '--command',
        'echo x > system/bad.md && git add -A && git commit -qm bad --no-verify',
      ],
      { env: { ...env, NODE_OPTIONS: '' }, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(5);
    expect(r.stdout).toMatch(/^rejected: gitmem\/worker\/\S+ \(1 commit\(s\)\) was kept/m);
    expect(r.stdout).toContain('system/bad.md: missing frontmatter');
    expect(r.stdout).toMatch(/gitmem conflicts show gitmem\/worker\//);
  });
});

describe('merge validation below the import', () => {
  it('mergeIntoCheckout refuses a tree with a .git look-alike, naming it', async () => {
    const w = (args: string[], input?: string) => execGit(args, input);
    const blob = w(['hash-object', '-w', '--stdin'], 'evil\n');
    const inner = w(['mktree'], `100644 blob ${blob}\tconfig\n`);
    const dotgit = w(['mktree'], `040000 tree ${inner}\t.GIT\n`);
    const tree = w(['mktree'], `${git(memoryDir, ['ls-tree', 'HEAD'], env)}\n040000 tree ${dotgit}\tx\n`);
    const commit = w(['commit-tree', tree, '-p', 'HEAD', '-m', 'planted']);
    git(memoryDir, ['update-ref', 'refs/heads/gitmem/worker/planted', commit], env);
    const before = head();
    const r = await mergeIntoCheckout({ memoryDir, branch: 'gitmem/worker/planted', message: 'merge', git: runner() });
    expect(r).toMatchObject({ status: 'rejected', rejectedPaths: ['x/.GIT/config'] });
    expect(head()).toBe(before);
  });

  it('reflection finalize ends rejected, keeps the branch and does not consume the transcript', async () => {
    const wt = await createMemoryWorktree({ memoryDir, kind: 'reflection', git: runner() });
    mkdirSync(join(wt.worktreeDir, 'system'), { recursive: true });
    writeFileSync(join(wt.worktreeDir, 'system', 'broken.md'), 'no frontmatter\n');
    git(wt.worktreeDir, ['add', '-A'], env);
    git(wt.worktreeDir, ['commit', '-qm', 'feat: broken', '--no-verify'], env);
    const before = head();
    const r = await finalizeReflectionWorktree(wt, { shouldMerge: true }, { git: runner() });
    expect(r).toMatchObject({ status: 'rejected', branchKept: true, rejectedPaths: ['system/broken.md'] });
    expect(r.summary).toContain('system/broken.md: missing frontmatter');
    expect(consumesTranscript(r)).toBe(false);
    expect(head()).toBe(before);
    expect(await keptBranches()).toContain(wt.branchName);
  });
});

function execGit(args: string[], input?: string): string {
  const r = spawnSync('git', args, { cwd: memoryDir, env, input, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}
