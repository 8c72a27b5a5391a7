// The rules hold for plain `git commit`s: no links, no gitlinks, no .git look-alikes; read_only is decided
// fail-closed and a path gitmem saw protected stays protected; and the hooks cannot be switched off quietly
// (every open repairs the hook's mode, the effective core.hooksPath and the hook's text).
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { listProtectedPaths, unprotectPaths } from '../../../src/hooks/protected.js';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, git, gitTry, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
const md = (description: string, extra = '', body = 'text\n'): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;
const rawCommit = (msg: string, ...extra: string[]) => gitTry(fx.dir, ['commit', '-qm', msg, ...extra], fx.env);
const run = (args: string[]) => git(fx.dir, args, fx.env);
const errorCodeOf = (err: unknown): string | undefined =>
  isMemoryError(err) ? err.code : `not a MemoryError: ${JSON.stringify(err)}`;
const fsck = () => gitTry(fx.dir, ['fsck', '--strict', '--no-dangling'], fx.env);

/** An operator commit that bypasses the hook (how a read_only file is set up). */
function operatorCommit(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(fx.dir, rel, '..'), { recursive: true });
    writeFileSync(join(fx.dir, rel), text);
  }
  run(['add', '-A']);
  run(['commit', '-qm', 'operator', '--no-verify']);
}

beforeEach(async () => {
  fx = await memoryFixture();
});
afterAll(cleanupTmp);

describe('the pre-commit hook refuses what memory may not hold', () => {
  it('refuses a symbolic link to the repository itself and one to .git', () => {
    const head = run(['rev-parse', 'HEAD']);
    symlinkSync('.', join(fx.dir, 'lnk_self'));
    run(['add', 'lnk_self']);
    const self = rawCommit('link');
    expect(self.status).not.toBe(0);
    expect(self.stderr).toContain('lnk_self: symbolic links are not allowed in memory (mode 120000)');
    run(['rm', '-q', '--cached', 'lnk_self']);
    symlinkSync('.git', join(fx.dir, 'lnk_git'));
    run(['add', 'lnk_git']);
    expect(rawCommit('link').stderr).toContain('lnk_git: symbolic links are not allowed');
    expect(run(['rev-parse', 'HEAD'])).toBe(head);
  });

  it('refuses a gitlink', () => {
    const head = run(['rev-parse', 'HEAD']);
    run(['update-index', '--add', '--cacheinfo', `160000,${head},sub`]);
    const r = rawCommit('submodule');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('sub: gitlinks (submodules) are not allowed in memory (mode 160000)');
  });

  it('refuses a .git look-alike that git itself lets into the index, and names with control characters', () => {
    const blob = git(fx.dir, ['hash-object', '-w', '--stdin'], fx.env);
    run(['update-index', '--add', '--cacheinfo', `100644,${blob},.g\u200cit/config`]);
    const r = rawCommit('dotgit');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain("names git's own directory");
    run(['rm', '-q', '--cached', '.g\u200cit/config']);
    writeFileSync(join(fx.dir, 'tab\there.txt'), 'x\n');
    run(['add', '-A']);
    expect(rawCommit('ctl').stderr).toContain('control character');
  });

  it('still accepts an ordinary commit, an executable file included', () => {
    writeFileSync(join(fx.dir, 'notes.md'), md('notes'));
    mkdirSync(join(fx.dir, 'skills', 'tidy', 'scripts'), { recursive: true });
    writeFileSync(join(fx.dir, 'skills', 'tidy', 'SKILL.md'), '---\nname: tidy\ndescription: tidies\n---\n');
    writeFileSync(join(fx.dir, 'skills', 'tidy', 'scripts', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    run(['add', '-A']);
    expect(rawCommit('ok')).toMatchObject({ status: 0 });
  });
});

describe('read_only holds', () => {
  it('refuses deleting a directory holding a read_only file whose YAML is invalid or has a duplicate key', async () => {
    operatorCommit({
      'ops/bad-yaml.md': '---\ndescription: [oops\nread_only: true\n---\nkeep\n',
      'dup/dup.md': '---\ndescription: d\nread_only: true\nread_only: true\n---\nkeep\n',
      'ops/other.md': md('other'),
      'dup/other.md': md('other'),
    });
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    const head = run(['rev-parse', 'HEAD']);
    for (const dir of ['ops', 'dup']) {
      const err = await memory.tool({ command: 'delete', reason: 'tidy', file_path: dir }).catch((e: unknown) => e);
      expect(['READ_ONLY', 'VALIDATION_FAILED'], dir).toContain(errorCodeOf(err));
    }
    expect(run(['rev-parse', 'HEAD'])).toBe(head);
    run(['rm', '-rq', 'ops', 'dup']);
    expect(rawCommit('delete').status).not.toBe(0);
  });

  it('treats read_only: yes | on | 1 as protected, in the tool and in a plain commit', async () => {
    operatorCommit({
      'system/a.md': md('a', 'read_only: yes\n'),
      'system/b.md': md('b', 'read_only: on\n'),
      'system/c.md': md('c', 'read_only: 1\n'),
    });
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    for (const f of ['system/a.md', 'system/b.md', 'system/c.md']) {
      const err = await memory
        .tool({ command: 'str_replace', reason: 'r', file_path: f, old_string: 'text', new_string: 'mine' })
        .catch((e: unknown) => e);
      expect(['READ_ONLY', 'VALIDATION_FAILED'], f).toContain(errorCodeOf(err));
    }
    for (const f of ['system/a.md', 'system/b.md', 'system/c.md'])
      writeFileSync(join(fx.dir, f), readFileSync(join(fx.dir, f), 'utf8').replace('text', 'mine'));
    run(['add', '-A']);
    const r = rawCommit('edit');
    expect(r.status).not.toBe(0);
    for (const f of ['system/a.md', 'system/b.md', 'system/c.md'])
      expect(r.stderr).toContain(`${f}: file is read_only and cannot be modified`);
  });

  it('a --no-verify commit that removes the key does not unprotect the file for the tool or the hook', async () => {
    operatorCommit({ 'system/locked.md': md('locked', 'read_only: true\n', 'operator text\n') });
    await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env }); // gitmem sees the protected file
    expect(listProtectedPaths(fx.dir)).toEqual(['system/locked.md']);
    writeFileSync(join(fx.dir, 'system/locked.md'), md('locked', '', 'operator text\n'));
    run(['commit', '-qam', 'unlock', '--no-verify']);
    const memory = await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    const head = run(['rev-parse', 'HEAD']);
    const err = await memory
      .tool({
        command: 'str_replace',
        reason: 'r',
        file_path: 'system/locked.md',
        old_string: 'operator',
        new_string: 'agent',
      })
      .catch((e: unknown) => e);
    expect(errorCodeOf(err)).toBe('VALIDATION_FAILED');
    expect(String((err as Error).message)).toContain('system/locked.md: protected');
    const del = await memory
      .tool({ command: 'delete', reason: 'r', file_path: 'system/locked.md' })
      .catch((e: unknown) => e);
    expect(errorCodeOf(del)).toBe('VALIDATION_FAILED');
    expect(run(['rev-parse', 'HEAD'])).toBe(head);
    writeFileSync(join(fx.dir, 'system/locked.md'), md('locked', '', 'agent text\n'));
    run(['add', '-A']);
    expect(rawCommit('edit').stderr).toContain('system/locked.md: protected');
    run(['reset', '-q', '--hard']);
    expect(listProtectedPaths(fx.dir)).toEqual(['system/locked.md']);
    // Lifting protection is an explicit operator action.
    await unprotectPaths(fx.dir, ['system/locked.md']);
    await memory.tool({
      command: 'str_replace',
      reason: 'r',
      file_path: 'system/locked.md',
      old_string: 'operator',
      new_string: 'agent',
    });
    expect(fsck().status).toBe(0);
  });
});

describe('hooks cannot be switched off quietly', () => {
  const badCommitRefused = (): boolean => {
    writeFileSync(join(fx.dir, 'bad.md'), 'no frontmatter\n');
    run(['add', '-A']);
    const refused = rawCommit('bad').status !== 0;
    run(['reset', '-q', '--hard']);
    gitTry(fx.dir, ['clean', '-fdq'], fx.env);
    return refused;
  };
  const reopen = async () => (await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env })).hookRepairs;

  it('chmod 644 on the hook is repaired on the next open', async () => {
    const hook = join(fx.dir, '.git', 'hooks', 'pre-commit');
    chmodSync(hook, 0o644);
    expect(badCommitRefused()).toBe(false); // the trick works on the unrepaired repo
    expect(await reopen()).toContain('pre-commit (mode)');
    expect(statSync(hook).mode & 0o777).toBe(0o755);
    expect(badCommitRefused()).toBe(true);
    expect(await reopen()).toEqual([]);
  });

  it('a second core.hooksPath value is repaired on the next open', async () => {
    const elsewhere = makeTmpDir('gitmem-hooks-');
    run(['config', '--add', 'core.hooksPath', elsewhere]);
    expect(badCommitRefused()).toBe(false);
    expect(await reopen()).toContain('core.hooksPath');
    expect(run(['config', '--get-all', 'core.hooksPath'])).toBe(join(fx.dir, '.git', 'hooks'));
    expect(badCommitRefused()).toBe(true);
  });

  it('an include.path file that sets core.hooksPath is overridden on the next open', async () => {
    const elsewhere = makeTmpDir('gitmem-hooks-');
    const inc = join(elsewhere, 'inc.cfg');
    writeFileSync(inc, `[core]\n\thooksPath = ${elsewhere}\n`);
    run(['config', 'include.path', inc]);
    expect(badCommitRefused()).toBe(false);
    expect(await reopen()).toContain('core.hooksPath');
    expect(run(['config', '--get', 'core.hooksPath'])).toBe(join(fx.dir, '.git', 'hooks'));
    expect(badCommitRefused()).toBe(true);
    expect(await reopen()).toEqual([]); // with an include the check asks git, and finds nothing to repair
  });

  it('init on an existing agent repairs all three and says so', async () => {
    const hook = join(fx.dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, '#!/bin/sh\nexit 0\n');
    chmodSync(hook, 0o600);
    run(['config', '--add', 'core.hooksPath', '/nowhere']);
    const r = await initMemory({ home: fx.home, agentId: 'agent-1', env: fx.env });
    expect(r.created).toBe(false);
    expect(r.repairedHooks).toEqual(expect.arrayContaining(['pre-commit', 'core.hooksPath']));
    expect(badCommitRefused()).toBe(true);
  });
});

describe('the protected list', () => {
  /** A runner that counts the git processes an open starts. */
  function counting(): { git: GitRunner; calls: string[] } {
    const real = createGitRunner({ env: fx.env });
    const calls: string[] = [];
    const git: GitRunner = {
      ...real,
      run: (args, o) => (calls.push(args.join(' ')), real.run(args, o)),
      exec: (op, o) => (calls.push(op.args.join(' ')), real.exec(op, o)),
    };
    return { git, calls };
  }
  const open = async (): Promise<string[]> => {
    const c = counting();
    await createMemory({ home: fx.home, agentId: 'agent-1', env: fx.env, git: c.git });
    return c.calls;
  };

  it('an open that finds nothing new starts no git process, also after a tool write; a raw commit is scanned once', async () => {
    expect(await open()).toEqual([]);
    await fx.memory.tool({ command: 'create', reason: 'r', file_path: 'notes/a', description: 'a' });
    expect(await open()).toEqual([]);
    operatorCommit({ 'system/rules.md': md('rules', 'read_only: true\n') });
    expect((await open()).length).toBeGreaterThan(0);
    expect(listProtectedPaths(fx.dir)).toEqual(['system/rules.md']);
    expect(await open()).toEqual([]);
  });

  it('gitmem protect list | add | remove', () => {
    const cli = (...args: string[]) =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts'),
          'protect',
          ...args,
          '--agent',
          'agent-1',
        ],
        { env: { ...fx.env, NODE_OPTIONS: '' }, encoding: 'utf8' },
      );
    expect(cli('list').stdout).toContain('No protected paths.');
    expect(cli('add', 'system/human.md').status).toBe(0);
    expect(cli('list').stdout.trim()).toBe('system/human.md');
    writeFileSync(join(fx.dir, 'system', 'human.md'), md('human'));
    run(['add', '-A']);
    expect(rawCommit('edit').stderr).toContain('system/human.md: protected');
    run(['reset', '-q', '--hard']);
    expect(cli('add', 'x/.GIT/config').status).toBe(1);
    expect(cli('remove', 'system/human.md').status).toBe(0);
    expect(cli('list', '--json').stdout.trim()).toBe('[]');
  });
});
