// A confined background writer (real bubblewrap, as root) cannot move `main` or change what it reads as:
// not by committing in the parent, updating or force-moving refs, pushing to it, creating replace refs or
// grafts, nor by planting a hook or editing the config. A normal commit in its worktree still merges. And a
// reflection run with the sandbox switched off says so exactly once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../src/git/runner.js';
import { runReflection } from '../../src/reflection/run.js';
import { appendTranscript } from '../../src/reflection/transcripts.js';
import { runWorkerCommand } from '../../src/worktree/command-body.js';
import { memoryFixture } from '../helpers/memory-fixture.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../helpers/tmp.js';
import { scripted } from './reflection-mock.js';

const CLI = join(import.meta.dirname, 'fixtures', 'run-cli.ts');
const sandboxed = spawnSync('bwrap', ['--version']).status === 0;
let home: string;
let memoryDir: string;
let env: Record<string, string>;

beforeAll(() => {
  const root = makeTmpDir();
  home = join(root, 'home');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home };
  memoryDir = join(home, 'agents', 'a1', 'memory');
  mkdirSync(join(memoryDir, 'system'), { recursive: true });
  git(memoryDir, ['init', '-q', '-b', 'main'], env);
  writeFileSync(join(memoryDir, 'system', 'persona.md'), 'persona\n');
  git(memoryDir, ['add', '-A'], env);
  git(memoryDir, ['commit', '-q', '-m', 'init'], env);
  mkdirSync(join(memoryDir, '.git', 'hooks'), { recursive: true });
});

afterAll(() => cleanupTmp());

async function work(command: string) {
  let output = '';
  const outcome = await runWorkerCommand({
    memoryDir,
    gitmemHome: home,
    command,
    env,
    git: createGitRunner({ env }),
    onWarning: () => undefined,
    onOutput: (r) => (output += r.stdout + r.stderr),
  });
  return { outcome, output };
}

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

describe.runIf(sandboxed)('a confined worker cannot move main', () => {
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
      'graft': `${evil} && echo "$(git rev-parse HEAD~1) $(git rev-parse HEAD)" > ${G}/info/grafts`,
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

    const ok = await work('echo "still works" > system/note.md && git add -A && git commit -qm "feat: note"');
    expect(ok.outcome).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(git(memoryDir, ['log', '-1', '--format=%P', 'main'], env).split(' ')[0]).toBe(before.log.split(' ')[0]);
    expect(readFileSync(join(memoryDir, 'system', 'note.md'), 'utf8')).toBe('still works\n');
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
  });

  it('through the CLI too: `gitmem worker run --command` that moves main exits 4 and main stays', () => {
    const head = git(memoryDir, ['rev-parse', 'main'], env);
    const r = spawnSync(process.execPath, ['--import', 'tsx', CLI, 'worker', 'run', '--agent', 'a1', '--json', '--command', 'git commit --allow-empty -qm evil && git update-ref refs/heads/main HEAD'], {
      env: { ...env, NODE_OPTIONS: '' },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'discarded', reason: 'body_failed' });
    expect(r.stderr).toMatch(/refs\/heads\/main\.lock.*Read-only file system/);
    expect(git(memoryDir, ['rev-parse', 'main'], env)).toBe(head);
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
    const model = scripted([{ calls: [{ name: 'shell', input: { command: 'true' } }] }, { calls: [{ name: 'shell', input: { command: 'true' } }] }, { text: 'done' }]);
    const r = await runReflection({
      home: fx.home, agentId: 'agent-w', conversationId: 'c1', model, git: fx.memory.git, maxRetries: 0,
      env: { ...fx.env, GITMEM_FS_SANDBOX: '0' },
      onWarning: (m) => warnings.push(m),
    });
    expect(r).toMatchObject({ launched: true });
    expect(warnings.filter((w) => /GITMEM_FS_SANDBOX=0/.test(w))).toHaveLength(1);
  });
});
