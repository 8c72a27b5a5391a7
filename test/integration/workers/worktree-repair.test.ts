// A repair worker commits straight onto main in the primary checkout, so its commits are validated when its
// body ends (HEAD before against HEAD after, the same validator and protected list as merges). Commits that
// break the rules (here made with --no-verify, under real bubblewrap) move to a kept branch; main, the index
// and the files go back to the old head, local edits elsewhere survive, and the outcome is `rejected`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { listKeptBranches } from '../../../src/sync/conflicts.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import type { MemoryWorkerOutcome } from '../../../src/worktree/worker-types.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
let home: string;
let memoryDir: string;
let env: Record<string, string>;
const runner = () => createGitRunner({ env });
const head = (): string => git(memoryDir, ['rev-parse', 'HEAD'], env);
const md = (description: string, extra = '', body = 'text\n'): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;

async function repair(command: string): Promise<{ outcome: MemoryWorkerOutcome; output: string }> {
  let output = '';
  const outcome = await runWorkerCommand({
    launch: sharedShellLauncher(),
    memoryDir,
    gitmemHome: home,
    command,
    env,
    git: runner(),
    type: 'repair',
    onWarning: () => undefined,
    onOutput: (r) => (output += r.stdout + r.stderr),
  });
  return { outcome, output };
}

/** A rejected repair: main back at `before`, the checkout clean and consistent, the commits on a kept branch. */
async function expectRejected(
  command: string,
  path: string,
  problem: RegExp,
): Promise<MemoryWorkerOutcome & { status: 'rejected' }> {
  const before = head();
  const { outcome, output } = await repair(command);
  expect(outcome.status, output).toBe('rejected');
  if (outcome.status !== 'rejected') throw new Error('unreachable');
  expect(outcome.type).toBe('repair');
  expect(outcome.rejectedPaths).toContain(path);
  expect(
    outcome.problems.some((p) => p.startsWith(`${path}: `) && problem.test(p)),
    outcome.problems.join('\n'),
  ).toBe(true);
  expect(head()).toBe(before);
  expect(git(memoryDir, ['symbolic-ref', 'HEAD'], env)).toBe('refs/heads/main');
  expect(git(memoryDir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
  expect(outcome.branchName).toMatch(/^gitmem\/worker\/\d{14}-[0-9a-f]{8}$/);
  expect(git(memoryDir, ['rev-parse', `refs/heads/${outcome.branchName}`], env)).toBe(outcome.branchTip);
  expect(git(memoryDir, ['merge-base', '--is-ancestor', before, outcome.branchTip], env)).toBe('');
  expect((await listKeptBranches({ git: runner(), memoryDir })).map((b) => b.branch)).toContain(outcome.branchName);
  expect(gitTry(memoryDir, ['fsck', '--strict', '--no-dangling'], env).status).toBe(0);
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
  await createMemory({ home, agentId: 'a1', env }); // records the protected list
});

afterAll(() => cleanupTmp());

describe.runIf(sandboxed)('repair workers are validated', () => {
  it('a --no-verify rewrite of a read_only file is rejected and moved to a kept branch', async () => {
    const out = await expectRejected(
      "sed -i 's/never change this/changed/' system/locked.md && git commit -qam rewrite --no-verify",
      'system/locked.md',
      /read_only/,
    );
    expect(out.commitCount).toBe(1);
    expect(readFileSync(join(memoryDir, 'system', 'locked.md'), 'utf8')).toContain('never change this');
    expect(git(memoryDir, ['show', `${out.branchTip}:system/locked.md`], env)).toContain('changed');
  });

  it('committed links and a file without frontmatter are rejected with every file named; all its commits move', async () => {
    const cmd = [
      `printf -- '---\\ndescription: fine\\n---\\nok\\n' > system/fine.md && git add -A && git commit -qm fine`,
      'ln -s .git lnk_git && echo broken > system/broken.md && git add -A && git commit -q --no-verify -m bad',
    ].join(' && ');
    const out = await expectRejected(cmd, 'lnk_git', /symbolic links/);
    expect(out.rejectedPaths).toEqual(['lnk_git', 'system/broken.md']);
    expect(out.commitCount).toBe(2);
    for (const p of ['lnk_git', 'system/broken.md', 'system/fine.md'])
      expect(existsSync(join(memoryDir, p)), p).toBe(false);
  });

  it('leftovers on the rejected files go with them; local edits elsewhere stay', async () => {
    const before = head();
    const { outcome } = await repair(
      'echo x > system/bad.md && git add -A && git commit -qm bad --no-verify && echo y >> system/bad.md && echo z >> system/human.md',
    );
    expect(outcome.status).toBe('rejected');
    expect(head()).toBe(before);
    expect(existsSync(join(memoryDir, 'system', 'bad.md'))).toBe(false);
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('M system/human.md');
    expect(outcome.uncommittedPaths).toEqual(['system/human.md']);
    git(memoryDir, ['checkout', '--', 'system/human.md'], env);
  });

  it('clearing the protected list from inside does not unprotect a listed file, and the list is put back', async () => {
    const list = join(memoryDir, '.git', 'gitmem-protected');
    writeFileSync(join(memoryDir, 'system', 'listed.md'), md('listed', 'read_only: true\n'));
    git(memoryDir, ['add', '-A'], env);
    git(memoryDir, ['commit', '-qm', 'operator: listed', '--no-verify'], env);
    await createMemory({ home, agentId: 'a1', env });
    writeFileSync(join(memoryDir, 'system', 'listed.md'), md('listed')); // the key removed by the operator
    git(memoryDir, ['commit', '-qam', 'operator: key removed', '--no-verify'], env);
    const saved = readFileSync(list, 'utf8');
    expect(saved).toContain('system/listed.md');
    const cmd = `echo '{"version":1,"scanned":null,"paths":[]}' > .git/gitmem-protected && echo more >> system/listed.md && git commit -qam edit --no-verify`;
    await expectRejected(cmd, 'system/listed.md', /protected/);
    expect(readFileSync(list, 'utf8')).toBe(saved);
  });

  it('a write journal planted from inside is removed', async () => {
    const { outcome } = await repair(
      `echo '{"pid":1,"parent":null,"commit":"${'0'.repeat(40)}","paths":[],"subject":"x"}' > .git/gitmem-write.json`,
    );
    expect(outcome.status).toBe('no_changes');
    expect(existsSync(join(memoryDir, '.git', 'gitmem-write.json'))).toBe(false);
  });

  it('a repair that keeps the rules still lands on main directly', async () => {
    const before = head();
    const { outcome, output } = await repair(
      `printf -- '---\\ndescription: office days\\n---\\nWednesdays\\n' > system/office.md && git add -A && git commit -qm office`,
    );
    expect(outcome, output).toMatchObject({ type: 'repair', status: 'merged', commitCount: 1, branchName: 'main' });
    expect(git(memoryDir, ['rev-parse', 'HEAD^'], env)).toBe(before);
  });

  it('an in-process repair body is validated too', async () => {
    const before = head();
    const out = await runMemoryWorker(
      { memoryDir, type: 'repair' },
      async (ctx) => {
        writeFileSync(join(ctx.worktreeDir, 'notes.md'), 'no frontmatter\n');
        git(ctx.worktreeDir, ['add', '-A'], env);
        git(ctx.worktreeDir, ['commit', '-qm', 'notes', '--no-verify'], env);
      },
      { git: runner() },
    );
    expect(out).toMatchObject({ type: 'repair', status: 'rejected', rejectedPaths: ['notes.md'] });
    expect(head()).toBe(before);
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
        '--repair',
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
  });
});
