// `gitmem doctor` as a library call: a fresh repository is healthy; each check is run on a repository broken
// on purpose and names the problem; --fix repairs what is safe (hooks, orphan worktrees, stale locks and an
// unfinished write) and leaves the repository healthy.
import { chmodSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { DOCTOR_CHECK_NAMES, type DoctorCheckName } from '../../../src/doctor/checks.js';
import { runDoctor, type DoctorReport } from '../../../src/doctor/doctor.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { makeKeptBranch } from '../../helpers/kept-branch.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

let dir: string;
let home: string;
let env: Record<string, string>;
const doctor = (only?: DoctorCheckName[], fix = false): Promise<DoctorReport> =>
  runDoctor({ git: createGitRunner({ env }), memoryDir: dir, home, env, fix, ...(only ? { only } : {}) });
const one = async (name: DoctorCheckName, fix = false) =>
  (await doctor([name], fix)).checks[0] as DoctorReport['checks'][number];
const commitRaw = (files: Record<string, string>, message = 'raw'): void => {
  for (const [p, t] of Object.entries(files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), t);
  }
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '--no-verify', '-m', message], env);
};
const md = (d: string, body: string): string => `---\ndescription: ${d}\n---\n${body}`;

beforeEach(async () => {
  ({ dir, home, env } = await memoryFixture('a1'));
});
afterAll(() => cleanupTmp());

describe('gitmem doctor', () => {
  it('a fresh repository is healthy: every check of the table runs and says ok', async () => {
    const r = await doctor();
    expect(r.checks.map((c) => c.check)).toEqual([...DOCTOR_CHECK_NAMES]);
    expect(
      r.checks.filter((c) => c.status !== 'ok'),
      JSON.stringify(r.checks, null, 1),
    ).toEqual([]);
    expect(r.healthy).toBe(true);
  });

  it('hooks: a non-executable pre-commit, a missing post-commit and a foreign hooksPath are found; --fix repairs them', async () => {
    chmodSync(join(dir, '.git/hooks/pre-commit'), 0o644);
    rmSync(join(dir, '.git/hooks/post-commit'));
    git(dir, ['config', 'core.hooksPath', '/tmp/elsewhere'], env);
    const found = await one('hooks');
    expect(found.status).toBe('problem');
    expect(found.details).toEqual([
      expect.stringMatching(/pre-commit has mode 644/),
      'post-commit is missing',
      expect.stringMatching(/core\.hooksPath is \/tmp\/elsewhere/),
    ]);
    const fixed = await one('hooks', true);
    expect(fixed).toMatchObject({
      status: 'ok',
      fixed: expect.arrayContaining(['repaired pre-commit (mode)', 'repaired post-commit', 'repaired core.hooksPath']),
    });
    expect((await doctor()).healthy).toBe(true);
  });

  it('hooks: a pre-commit hook that does not name this install is found', async () => {
    writeFileSync(join(dir, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    expect((await one('hooks')).details).toEqual(["pre-commit is not gitmem's hook"]);
  });

  it('config: settings init made and gitmem needs are checked; a detached HEAD is named', async () => {
    git(dir, ['config', 'core.untrackedCache', 'false'], env);
    git(dir, ['config', '--unset', 'gitmem.agentId'], env);
    const r = await one('config');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      expect.stringMatching(/^gitmem\.agentId is not set/),
      expect.stringMatching(/^advice: core\.untrackedCache is false, want true/),
    ]);
    git(dir, ['config', 'gitmem.agentId', 'a1'], env);
    expect(await one('config')).toMatchObject({
      status: 'ok',
      line: expect.stringMatching(/advice: core\.untrackedCache is false/),
    });
    git(dir, ['config', 'core.untrackedCache', 'true'], env);
    git(dir, ['checkout', '-q', '--detach'], env);
    expect((await one('config')).details).toEqual([expect.stringMatching(/HEAD is detached, not branch main/)]);
  });

  it('files: a file without frontmatter and a markdown file that is not UTF-8 are named', async () => {
    commitRaw({ 'notes/bare.md': 'no frontmatter\n' });
    writeFileSync(join(dir, 'notes/latin1.md'), Buffer.from('---\ndescription: caf\xe9\n---\nx\n', 'latin1'));
    git(dir, ['add', '-A'], env);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'raw'], env);
    const r = await one('files');
    expect(r.status).toBe('problem');
    expect(r.details?.some((d) => d.startsWith('notes/bare.md: '))).toBe(true);
    expect(r.details).toContain('notes/latin1.md: NOT_UTF8: not valid UTF-8');
  });

  it('files: a repository with read_only files and a path on the protected list is healthy (unchanged files are not edits)', async () => {
    commitRaw({
      'system/rules.md': '---\ndescription: house rules\nread_only: true\n---\nbe kind\n',
      'notes/pinned.md': '---\ndescription: pinned\nread_only: "yes"\n---\nkeep\n',
      'notes/listed.md': md('listed', 'on the list, no key\n'),
    });
    const { protectPaths } = await import('../../../src/hooks/protected.js');
    await protectPaths(dir, ['notes/listed.md']);
    const r = await doctor();
    expect(
      r.checks.filter((c) => c.status !== 'ok'),
      JSON.stringify(r.checks, null, 1),
    ).toEqual([]);
    expect(r.healthy).toBe(true);
    const { runGitmem } = await import('../../helpers/cli.js');
    const cli = runGitmem({ ...env, GITMEM_HOME: home }, ['doctor', '--agent', 'a1']);
    expect(cli.code, cli.stdout).toBe(0);
  });

  it('budgets: system/ over its budget and a file over its limit are reported (the repository keeps working)', async () => {
    git(dir, ['config', 'gitmem.budgetSystem', '10'], env);
    commitRaw({ 'notes/limited.md': '---\ndescription: d\nlimit: 5\n---\nmore than five\n' });
    const r = await one('budgets');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      expect.stringMatching(/^system\/ is .* tokens, over its budget of 10 .*move detail out of system\//),
      'notes/limited.md: body is 15 characters, over its limit of 5',
    ]);
  });

  it('links: dead [[path]] and relative markdown links are named; live ones and code are not', async () => {
    commitRaw({
      'notes/a.md': md(
        'a',
        'see [[notes/b]] and [[system/human.md|me]] and [b](b.md#top) and [web](https://x.org)\n`[[in code]]`\n```\n[[fenced]]\n```\n',
      ),
      'notes/b.md': md('b', 'back to [a](./a.md), dead [[notes/gone]] and [up](../../outside.md) and [c](c.md)\n'),
    });
    const r = await one('links');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      'notes/b.md: [[notes/gone]] names no file',
      'notes/b.md: (../../outside.md) names no file',
      'notes/b.md: (c.md) names no file',
    ]);
  });

  it('duplicates: two files with the same body are named together', async () => {
    commitRaw({ 'notes/x.md': md('x', 'the same fact\n'), 'notes/y.md': md('y', 'the  same fact\n\n') });
    expect((await one('duplicates')).details).toEqual(['same body: notes/x.md, notes/y.md']);
  });

  it('kept: a kept branch is waiting and named with the command to look at it', async () => {
    makeKeptBranch(dir, env, 'gitmem/worker/w1', { 'notes/w.md': md('w', 'w\n') });
    const r = await one('kept');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      expect.stringMatching(
        /^gitmem\/worker\/w1: 1 commit\(s\) not on main \(gitmem conflicts show gitmem\/worker\/w1\)/,
      ),
    ]);
  });

  it('worktrees: an orphan worktree is found; --fix prunes it', async () => {
    const orphan = join(home, 'agents/a1/memory-worktrees/worker-20260101000000-abcdef12');
    mkdirSync(orphan, { recursive: true });
    expect(await one('worktrees')).toMatchObject({ status: 'problem', details: [orphan] });
    expect(await one('worktrees', true)).toMatchObject({
      status: 'ok',
      fixed: ['pruned worktree worker-20260101000000-abcdef12 (branch absent)'],
    });
    expect((await doctor()).healthy).toBe(true);
  });

  it("locks: a dead holder's lease, an old index.lock and an unfinished write journal are found; --fix clears them", async () => {
    const old = (Date.now() - 3_600_000) / 1000;
    writeFileSync(join(dir, '.git/index.lock'), '');
    utimesSync(join(dir, '.git/index.lock'), old, old);
    const holder = {
      pid: 2 ** 22 - 3,
      hostname: (await import('node:os')).hostname(),
      startedAt: new Date().toISOString(),
      heartbeatAt: new Date().toISOString(),
      purpose: 'killed writer',
      token: 't',
    };
    writeFileSync(join(dir, '.git/gitmem-operation.lock'), JSON.stringify(holder));
    writeFileSync(join(dir, '.git/gitmem-write.json'), '{"not":"a journal"}');
    const r = await one('locks');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      expect.stringMatching(/operation lease is held by pid \d+ \(killed writer\): dead_holder/),
      expect.stringMatching(/index\.lock: a git lock left behind/),
      expect.stringMatching(/gitmem-write\.json: a write that did not finish/),
    ]);
    const fixed = await one('locks', true);
    expect(fixed.status, JSON.stringify(fixed)).toBe('ok');
    expect(fixed.fixed).toEqual(
      expect.arrayContaining([
        'released the operation lease of a process that is gone',
        expect.stringMatching(/removed stale .*index\.lock/),
        expect.stringMatching(/^unfinished write: /),
      ]),
    );
    expect(fixed.line).toMatch(/1 set-aside journal/);
    expect((await doctor()).healthy).toBe(true);
  });

  it('remote: an unreachable origin is a problem; a reachable one reports where main stands', async () => {
    git(dir, ['remote', 'add', 'origin', join(makeTmpDir(), 'missing.git')], env);
    expect((await one('remote')).line).toMatch(/^origin does not answer: GIT_/);
    const bare = join(makeTmpDir(), 'remote.git');
    git(dir, ['init', '-q', '--bare', bare], env);
    git(dir, ['remote', 'set-url', 'origin', bare], env);
    expect(await one('remote')).toMatchObject({
      status: 'ok',
      line: 'reachable; it has no main yet (gitmem sync pushes it)',
    });
    git(dir, ['push', '-q', 'origin', 'main'], env);
    commitRaw({ 'notes/n.md': md('n', 'n\n') });
    expect(await one('remote')).toMatchObject({ status: 'ok', line: 'reachable; main is 1 ahead, 0 behind' });
  });

  it('secrets: a credential committed and deleted later is still found in history, never echoed; a commit message too', async () => {
    const key = `ghp_${'Zx9Yw8Vu7T'.repeat(3)}123456`;
    commitRaw({ 'notes/s.md': md('s', `token ${key}\n`) });
    rmSync(join(dir, 'notes/s.md'));
    git(dir, ['add', '-A'], env);
    git(dir, ['commit', '-q', '--no-verify', '-m', `oops ${key}`], env);
    const r = await one('secrets');
    expect(r.status).toBe('problem');
    expect(r.details).toEqual([
      expect.stringMatching(/^notes\/s\.md \(blob [0-9a-f]{12}\):4: /),
      expect.stringMatching(/^commit [0-9a-f]{12} message:1: /),
    ]);
    expect(JSON.stringify(r)).not.toContain(key);
  });
});

describe('gitmem doctor (CLI)', () => {
  it('one line per check, exit 0 healthy / 1 with problems; --fix says what it did; --json is the report', async () => {
    const { runGitmem } = await import('../../helpers/cli.js');
    const cli = (args: string[]) => runGitmem({ ...env, GITMEM_HOME: home }, ['doctor', '--agent', 'a1', ...args]);
    const healthy = cli([]);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect(healthy.stdout.trimEnd().split('\n')).toHaveLength(DOCTOR_CHECK_NAMES.length + 1);
    expect(healthy.stdout).toMatch(/^ok +hooks: pre-commit/m);
    expect(healthy.stdout.trimEnd().split('\n').at(-1)).toBe('healthy');
    chmodSync(join(dir, '.git/hooks/pre-commit'), 0o644);
    const sick = cli(['--json']);
    expect(sick.code).toBe(1);
    const report = JSON.parse(sick.stdout) as DoctorReport;
    expect(report.healthy).toBe(false);
    expect(report.checks.find((c) => c.check === 'hooks')).toMatchObject({ status: 'problem' });
    const fixed = cli(['--fix']);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(fixed.stdout).toMatch(/^ {10}fixed: repaired pre-commit \(mode\)$/m);
    expect(cli([]).code).toBe(0);
  });

  it('a clone of a pushed memory is healthy on the other machine too', async () => {
    const { runGitmem } = await import('../../helpers/cli.js');
    const bare = join(makeTmpDir(), 'remote.git');
    git(dir, ['init', '-q', '--bare', bare], env);
    git(dir, ['remote', 'add', 'origin', bare], env);
    git(dir, ['push', '-q', 'origin', 'main'], env);
    const otherHome = makeTmpDir('gitmem-home-b-');
    const benv = { ...env, GITMEM_HOME: otherHome };
    expect(runGitmem(benv, ['clone', bare, '--agent', 'b1']).code).toBe(0);
    const r = runGitmem(benv, ['doctor', '--agent', 'b1']);
    expect(r.code, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/^ok +remote: reachable; main is up to date$/m);
  });
});
