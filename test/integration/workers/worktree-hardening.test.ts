// A confined background writer (real bubblewrap, as root) cannot move `main` or change what it reads as:
// not by committing in the parent, updating or force-moving refs, pushing to it, creating replace refs or
// grafts, planting a hook or editing the config, nor by deleting or overwriting an object of the shared store.
// Its own commits are imported (re-hashed, ancestry checked) before any merge, so forged objects and foreign
// histories are refused; it cannot touch another worker's branch, worktree or git dir; a rewritten pointer in
// its own git dir never makes the harness run its config. A normal commit in its worktree still merges. And a
// reflection run with the sandbox switched off says so exactly once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { runReflection } from '../../../src/reflection/run.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { discardWorktree } from '../../../src/worktree/cleanup.js';
import { createMemoryWorktree } from '../../../src/worktree/create.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { runCommandWorker } from '../../helpers/command-worker.js';
import { cleanupTmp, git, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';
import { scripted } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
let root: string;
let home: string;
let memoryDir: string;
let env: Record<string, string>;

beforeAll(() => {
  root = makeTmpDir();
  home = join(root, 'home');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home };
  memoryDir = join(home, 'agents', 'a1', 'memory');
  initRepoWithFile(memoryDir, 'system/persona.md', 'persona\n', env);
  mkdirSync(join(memoryDir, '.git', 'hooks'), { recursive: true });
});

afterAll(() => cleanupTmp());

const work = (command: string) => runCommandWorker({ memoryDir, home, env }, command);

/** Everything that decides what `main` is and what the primary runs: refs, their targets, hooks, config. */
function repoState() {
  const gitDir = join(memoryDir, '.git');
  return {
    refs: git(memoryDir, ['for-each-ref', '--format=%(refname) %(objectname)'], env),
    persona: git(memoryDir, ['show', 'main:system/persona.md'], env),
    log: git(memoryDir, ['log', '--format=%H %P %s', 'main'], env),
    hooks: readdirSync(join(gitDir, 'hooks')).sort(),
    config: readFileSync(join(gitDir, 'config'), 'utf8'),
    grafts: existsSync(join(gitDir, 'info', 'grafts')),
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
  };
}

describe('a confined worker cannot move main', { tags: ['sandbox'] }, () => {
  it('every attempt to move main, plant a hook or edit the config fails and changes nothing; a normal commit still merges', async () => {
    const P = memoryDir;
    const G = join(memoryDir, '.git');
    const evil = 'echo evil > system/persona.md && git commit -qam evil';
    const attacks: Record<string, string> = {
      'commit in the parent': `git -C ${P} commit --allow-empty -qm x`,
      'update-ref main': `${evil} && git update-ref refs/heads/main HEAD`,
      'update-ref main from the parent': `${evil} && git -C ${P} update-ref refs/heads/main $(git rev-parse HEAD)`,
      'branch -f main': `${evil} && git branch -f main HEAD`,
      'repoint the parent HEAD': `${evil} && git -C ${P} symbolic-ref HEAD refs/heads/${'gitmem/worker/x'}`,
      'push to main': `${evil} && git push -q ${P} HEAD:main`,
      'write a ref file by hand': `${evil} && git rev-parse HEAD > ${G}/refs/heads/main`,
      'replace main through packed-refs': `${evil} && printf '%s refs/replace/%s\\n' $(git rev-parse HEAD) $(git rev-parse HEAD~1) > ${G}/packed-refs`,
      'replace ref': `${evil} && git replace $(git rev-parse HEAD~1) HEAD`,
      graft: `${evil} && echo "$(git rev-parse HEAD~1) $(git rev-parse HEAD)" > ${G}/info/grafts`,
      'pack-refs': 'git pack-refs --all --prune',
      'write .git/hooks/post-commit': `printf '#!/bin/sh\\necho pwned\\n' > ${G}/hooks/post-commit && chmod +x ${G}/hooks/post-commit`,
      'git config core.hooksPath': `git -C ${P} config core.hooksPath /tmp`,
      'append to .git/config': `printf '[core]\\n\\thooksPath = /tmp\\n' >> ${G}/config`,
    };
    const before = repoState();
    for (const [name, command] of Object.entries(attacks)) {
      const { outcome, output } = await work(command);
      expect({ name, status: outcome.status }, output).toEqual({ name, status: 'discarded' });
      expect(repoState(), name).toEqual(before);
    }
    expect(git(memoryDir, ['status', '--porcelain'], env)).toBe('');
    expect(git(memoryDir, ['worktree', 'list', '--porcelain'], env).match(/^worktree /gm)).toHaveLength(1);

    const ok = await work(
      'printf -- "---\\ndescription: note\\n---\\nstill works\\n" > system/note.md && git add -A && git commit -qm "feat: note"',
    );
    expect(ok.outcome).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(git(memoryDir, ['log', '-1', '--format=%P', 'main'], env).split(' ')[0]).toBe(before.log.split(' ')[0]);
    expect(readFileSync(join(memoryDir, 'system', 'note.md'), 'utf8')).toBe(
      '---\ndescription: note\n---\nstill works\n',
    );
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('through the CLI too: `gitmem worker run --command` that moves main exits 4 and main stays', () => {
    const head = git(memoryDir, ['rev-parse', 'main'], env);
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
        '--json',
        '--command',
        'git commit --allow-empty -qm evil && git update-ref refs/heads/main HEAD',
      ],
      {
        env: { ...env, NODE_OPTIONS: '' },
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'discarded', reason: 'body_failed' });
    expect(r.stderr).toMatch(/refs\/heads\/main\.lock.*Read-only file system/);
    expect(git(memoryDir, ['rev-parse', 'main'], env)).toBe(head);
  });
});

/**
 * fsck of the memory repository: exit status and every problem it printed (clean means 0 and nothing).
 * Dangling objects are not problems: a refused import may leave the objects it re-hashed before refusing.
 */
function fsck(): { status: number | null; output: string } {
  const r = spawnSync('git', ['fsck', '--full', '--no-progress', '--no-dangling'], {
    cwd: memoryDir,
    env,
    encoding: 'utf8',
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}`.trim() };
}

/** A loose object's file in the shared store, as shell text: `$G/objects/ab/cdef…` for the blob of `rev`. */
const objectFile = (rev: string): string =>
  `$(B=$(git rev-parse ${rev}); echo ${join(memoryDir, '.git', 'objects')}/$(echo $B | cut -c1-2)/$(echo $B | cut -c3-))`;

describe('a confined worker cannot change the shared object store or other workers', { tags: ['sandbox'] }, () => {
  it('cannot delete or overwrite an object of main: main reads the same and fsck stays clean', async () => {
    const F = objectFile('HEAD:system/persona.md');
    const attacks: Record<string, string> = {
      'delete the object': `rm -f ${F}`,
      'overwrite it with other content': `E=$(echo evil | git hash-object -w --stdin) && cp -f $GIT_OBJECT_DIRECTORY/$(echo $E | cut -c1-2)/$(echo $E | cut -c3-) ${F}`,
      'commit straight into the shared store': `echo x > system/x.md && env -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES sh -c 'git add -A && git commit -qm x'`,
      'repack the shared store': 'env -u GIT_OBJECT_DIRECTORY -u GIT_ALTERNATE_OBJECT_DIRECTORIES git repack -adq',
    };
    const before = repoState();
    for (const [name, command] of Object.entries(attacks)) {
      const { outcome, output } = await work(command);
      expect({ name, status: outcome.status }, output).toEqual({ name, status: 'discarded' });
      expect(output, name).toMatch(/Read-only file system|Permission denied|unable to/);
      expect(repoState(), name).toEqual(before);
    }
    expect(git(memoryDir, ['show', 'main:system/persona.md'], env)).toBe('persona');
    expect(fsck()).toEqual({ status: 0, output: '' });
  });

  it('refuses at import a forged object name, a HEAD that is not a detached commit, and a history not built on the base', async () => {
    const forge = [
      // valid memory files both (the hook would refuse plain text): the forgery is what import must catch
      'E=$(printf -- "---\\ndescription: d\\n---\\nevil\\n" | git hash-object -w --stdin) && O=$(printf -- "---\\ndescription: d\\n---\\ninnocent\\n" | git hash-object --stdin) && D=$GIT_OBJECT_DIRECTORY',
      'mkdir -p $D/$(echo $O | cut -c1-2) && cp $D/$(echo $E | cut -c1-2)/$(echo $E | cut -c3-) $D/$(echo $O | cut -c1-2)/$(echo $O | cut -c3-)',
      'git update-index --add --cacheinfo 100644,$O,system/forged.md && git commit -qm forged',
    ].join(' && ');
    const attacks: Record<string, string> = {
      'a blob stored under the name of other content': forge,
      'HEAD made a symbolic ref':
        'git commit --allow-empty -qm x && echo "ref: refs/heads/main" > "$(git rev-parse --git-dir)/HEAD"',
      'HEAD on a history of its own': 'git update-ref --no-deref HEAD $(echo evil | git commit-tree $(git write-tree))',
    };
    const before = repoState();
    for (const [name, command] of Object.entries(attacks)) {
      const { outcome, output } = await work(command);
      expect({ name, status: outcome.status, reason: (outcome as { reason?: string }).reason }, output).toEqual({
        name,
        status: 'discarded',
        reason: 'import_failed',
      });
      expect(repoState(), name).toEqual(before);
      expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env), name).toBe('');
    }
    expect(fsck()).toEqual({ status: 0, output: '' });
    expect(readdirSync(join(memoryDir, '.git', 'gitmem-worktrees'))).toEqual([]);
  });

  it("cannot move another worker's branch or its own, nor touch another worker's worktree or git dir; its own work still merges", async () => {
    const runner = createGitRunner({ env });
    const kept = 'gitmem/worker/20250101000000-deadbeef';
    git(memoryDir, ['branch', kept, 'main'], env); // a branch kept from an earlier conflict
    const other = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    const otherState = () => ({
      files: readdirSync(join(other.worktreeDir, 'system')).sort(),
      persona: readFileSync(join(other.worktreeDir, 'system', 'persona.md'), 'utf8'),
      head: readFileSync(join(other.gitDir, 'HEAD'), 'utf8'),
      gitDir: readdirSync(other.gitDir).sort(),
      worktrees: readdirSync(join(home, 'agents', 'a1', 'memory-worktrees')).length,
    });
    const attacks: Record<string, string> = {
      'move the kept branch': `git update-ref refs/heads/${kept} HEAD`,
      'force the kept branch': `git branch -f ${kept} HEAD`,
      'delete the kept branch': `git update-ref -d refs/heads/${kept}`,
      'create its own branch': 'git update-ref refs/heads/$GITMEM_WORKER_BRANCH HEAD',
      // (rm -r, not -rf: the other worktree is not even visible, and rm -f of a missing path "succeeds")
      "see the other's worktree": `test -e ${other.worktreeDir}`,
      "delete the other's files": `rm -r ${join(other.worktreeDir, 'system')}`,
      "edit the other's files": `echo evil > ${join(other.worktreeDir, 'system', 'persona.md')}`,
      "move the other's HEAD": `git rev-parse HEAD > ${join(other.gitDir, 'HEAD')}`,
      "delete the other's git dir": `rm -r ${other.gitDir}`,
      'plant a file beside the worktrees': `touch ${join(home, 'agents', 'a1', 'memory-worktrees', 'planted')}`,
      'take the operation lease': `echo '{}' > ${join(memoryDir, '.git', 'gitmem-operation.lock')}`,
    };
    const script = [
      'printf -- "---\\ndescription: own\\n---\\nown work\\n" > system/own.md && git add -A && git commit -qm "feat: own work"',
      ...Object.entries(attacks).map(([name, cmd]) => `if (${cmd}) 2>/dev/null; then echo "SUCCEEDED: ${name}"; fi`),
    ].join('\n');
    const before = { refs: repoState().refs, other: otherState() };
    const { outcome, output } = await work(script);
    expect(output).not.toContain('SUCCEEDED');
    expect(outcome).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(readFileSync(join(memoryDir, 'system', 'own.md'), 'utf8')).toBe('---\ndescription: own\n---\nown work\n');
    expect(git(memoryDir, ['rev-parse', kept], env)).toBe(
      before.refs.match(new RegExp(`refs/heads/${kept} (\\w+)`))?.[1],
    );
    expect(otherState()).toEqual(before.other);
    expect(existsSync(join(memoryDir, '.git', 'gitmem-operation.lock'))).toBe(false);
    await discardWorktree(other, runner);
    git(memoryDir, ['branch', '-D', kept], env);
    expect(fsck()).toEqual({ status: 0, output: '' });
  });

  it("neither a rewritten commondir nor a planted config.worktree makes the harness run the writer's config", async () => {
    const pwned = join(root, 'pwned');
    git(memoryDir, ['config', 'extensions.worktreeConfig', 'true'], env); // as `git sparse-checkout` would set it
    const script = [
      'printf -- "---\\ndescription: c\\n---\\nc\\n" > system/c.md && git add -A && git commit -qm "feat: c"',
      'mkdir -p fake/refs fake/objects && echo "ref: refs/heads/main" > fake/HEAD',
      `printf '[core]\\n\\tfsmonitor = touch ${pwned}\\n' > fake/config`,
      'cp fake/config "$(git rev-parse --git-dir)/config.worktree"',
      'echo "$PWD/fake" > "$(git rev-parse --git-dir)/commondir"',
    ].join(' && ');
    const { outcome, output } = await work(script);
    git(memoryDir, ['config', '--unset', 'extensions.worktreeConfig'], env);
    expect(outcome, output).toMatchObject({
      status: 'merged',
      commitCount: 1,
      uncommittedPaths: ['fake/HEAD', 'fake/config'],
    });
    expect(existsSync(pwned)).toBe(false);
    expect(readFileSync(join(memoryDir, 'system', 'c.md'), 'utf8')).toBe('---\ndescription: c\n---\nc\n');
  });
});

describe('GITMEM_FS_SANDBOX=0', () => {
  it('a reflection run prints the "sandbox disabled" warning once', async () => {
    const fx = await memoryFixture('agent-w');
    appendTranscript(join(fx.home, 'agents', 'agent-w'), 'c1', [
      { kind: 'user', text: 'I prefer short answers.' },
      { kind: 'assistant', text: 'Noted.' },
    ]);
    const warnings: string[] = [];
    const model = scripted([
      { calls: [{ name: 'shell', input: { command: 'true' } }] },
      { calls: [{ name: 'shell', input: { command: 'true' } }] },
      { text: 'done' },
    ]);
    const r = await runReflection({
      launch: sharedShellLauncher(),
      home: fx.home,
      agentId: 'agent-w',
      conversationId: 'c1',
      model,
      git: handleGit(fx.memory),
      maxRetries: 0,
      env: { ...fx.env, GITMEM_FS_SANDBOX: '0' },
      onWarning: (m) => warnings.push(m),
    });
    expect(r).toMatchObject({ launched: true });
    expect(warnings.filter((w) => /GITMEM_FS_SANDBOX=0/.test(w))).toHaveLength(1);
  });
});
