// The import of a writer's objects (worktree/import.ts), with real git: every commit — the usual one, a base
// that is packed, an existing object at a new path, a new symbolic link, a commit header git did not write —
// goes through `unpack-objects --strict`, and a missing object or a hostile name is refused there: no branch,
// main unmoved. (An in-process import that stored the usual commit without git was removed: it bought 0-2%
// of a worker's cycle, bench/sections/fast-path-each.mjs.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { discardWorktree } from '../../../src/worktree/cleanup.js';
import { createMemoryWorktree, type MemoryWorktree } from '../../../src/worktree/create.js';
import { workerObjectEnv } from '../../../src/worktree/git-env.js';
import { importWorktreeCommits } from '../../../src/worktree/import.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';

let memoryDir: string;
let env: Record<string, string>;
let calls: string[][];
let runner: GitRunner;

/** A runner that notes every git command it runs (the import's spawns are the subject). */
function recordingRunner(base: GitRunner): GitRunner {
  return {
    secrets: base.secrets,
    detach: (args, o) => base.detach(args, o),
    run: (args, o) => (calls.push(args), base.run(args, o)),
    exec: (op, o) => (calls.push(op.args), base.exec(op, o)),
  };
}

const unpacked = (): boolean => calls.some((a) => a.includes('unpack-objects') || a.includes('index-pack'));

/** git in the worktree as its writer runs it: objects to the private directory. */
function w(wt: MemoryWorktree, args: string[], input?: string): string {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
    cwd: wt.worktreeDir,
    env: { ...env, ...workerObjectEnv(wt) },
    encoding: 'utf8',
    ...(input === undefined ? {} : { input }),
  }).trim();
}

function commitFiles(wt: MemoryWorktree, files: Record<string, string>): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(wt.worktreeDir, rel, '..'), { recursive: true });
    writeFileSync(join(wt.worktreeDir, rel), text);
  }
  w(wt, ['add', '-A']);
  w(wt, ['commit', '-q', '-m', 'feat: private']);
  return w(wt, ['rev-parse', 'HEAD']);
}

/** A commit on the base whose tree is the base's plus one `entry` line (mktree syntax), made by hand. */
function commitTreeWith(wt: MemoryWorktree, entry: string, o: { missingOk?: boolean; header?: string } = {}): string {
  const listing = `${git(memoryDir, ['ls-tree', wt.baseHead], env)}\n${entry}\n`;
  const tree = w(wt, ['mktree', ...(o.missingOk ? ['--missing'] : [])], listing);
  if (o.header === undefined) return w(wt, ['commit-tree', tree, '-p', wt.baseHead, '-m', 'hand-made']);
  const who = 'T <t@example.com> 1700000000 +0000';
  const body = `tree ${tree}\nparent ${wt.baseHead}\nauthor ${who}\ncommitter ${who}\n${o.header}\n\nhand-made\n`;
  return w(wt, ['hash-object', '--literally', '-w', '-t', 'commit', '--stdin'], body);
}

/** A commit on the base of a tree written byte for byte (`hash-object --literally`: no check of its entries). */
function commitRawTree(wt: MemoryWorktree, entries: Array<[string, string, string]>): string {
  const raw = Buffer.concat(
    entries.flatMap(([mode, name, id]) => [Buffer.from(`${mode} ${name}\0`), Buffer.from(id, 'hex')]),
  );
  const tree = execFileSync('git', ['hash-object', '--literally', '-w', '-t', 'tree', '--stdin'], {
    cwd: wt.worktreeDir,
    env: { ...env, ...workerObjectEnv(wt) },
    input: raw,
    encoding: 'utf8',
  }).trim();
  return w(wt, ['commit-tree', tree, '-p', wt.baseHead, '-m', 'hand-made']);
}

/** Points the worktree's detached HEAD at `commit` (what the writer's own commit would have done). */
const setHead = (wt: MemoryWorktree, commit: string): void => writeFileSync(join(wt.gitDir, 'HEAD'), `${commit}\n`);

beforeEach(() => {
  calls = [];
});

afterAll(() => cleanupTmp());

function freshMemory(): void {
  const root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = recordingRunner(createGitRunner({ env }));
  memoryDir = join(root, 'agents', 'a1', 'memory');
  initRepoWithFile(memoryDir, 'notes/a.md', '---\ndescription: a\n---\na\n', env);
}

async function importOf(wt: MemoryWorktree): Promise<{ ok: boolean; tip?: string }> {
  calls = [];
  const r = await importWorktreeCommits(wt, runner).then(
    (x) => ({ ok: true, tip: x.tip }),
    () => ({ ok: false }),
  );
  await discardWorktree(wt, runner);
  return r;
}

const fsckClean = (): void =>
  expect(gitTry(memoryDir, ['fsck', '--strict', '--no-dangling', '--no-progress'], env)).toMatchObject({
    status: 0,
    stderr: '',
  });

describe('importing through unpack-objects --strict', () => {
  it('imports a plain commit: the same objects, fsck --strict clean', async () => {
    freshMemory();
    const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    const tip = commitFiles(wt, { 'notes/b.md': '---\ndescription: b\n---\nb\n', 'notes/deep/c.md': 'c\n' });
    expect(await importOf(wt)).toEqual({ ok: true, tip });
    expect(unpacked()).toBe(true);
    expect(git(memoryDir, ['show', `${tip}:notes/deep/c.md`], env)).toBe('c');
    git(memoryDir, ['update-ref', 'refs/heads/check', tip], env);
    fsckClean();
  });

  it('imports on a packed base', async () => {
    freshMemory();
    git(memoryDir, ['gc', '-q'], env);
    const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
    const tip = commitFiles(wt, { 'notes/b.md': 'b\n' });
    expect(await importOf(wt)).toEqual({ ok: true, tip });
    expect(unpacked()).toBe(true);
  });

  it('imports an existing object at a new path, a new link and a foreign header', async () => {
    freshMemory();
    const a = git(memoryDir, ['rev-parse', 'HEAD:notes/a.md'], env);
    const link = execFileSync('git', ['hash-object', '-w', '--stdin'], {
      cwd: memoryDir,
      env,
      input: 'notes/a.md',
      encoding: 'utf8',
    }).trim();
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
      cwd: memoryDir,
      env,
      input: 'x\n',
      encoding: 'utf8',
    }).trim();
    const shapes = [
      (wt: MemoryWorktree) => commitTreeWith(wt, `100644 blob ${a}\tcopy.md`),
      (wt: MemoryWorktree) => commitTreeWith(wt, `120000 blob ${link}\tlink.md`),
      (wt: MemoryWorktree) => commitTreeWith(wt, `100644 blob ${blob}\tx.md`, { header: 'encoding ISO-8859-1' }),
    ];
    for (const shape of shapes) {
      const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
      const tip = shape(wt);
      setHead(wt, tip);
      expect(await importOf(wt)).toEqual({ ok: true, tip });
      expect(unpacked()).toBe(true);
    }
  });

  it('refuses a missing object or a hostile name (unpack-objects --strict): no branch, main unmoved', async () => {
    freshMemory();
    const shapes = [
      (wt: MemoryWorktree) => commitTreeWith(wt, `100644 blob ${'1'.repeat(40)}\tghost.md`, { missingOk: true }),
      (wt: MemoryWorktree) =>
        commitTreeWith(
          wt,
          `100644 blob ${w(wt, ['hash-object', '-w', '--stdin'], '[submodule "x"]\n\tpath = x\n\turl = --upload-pack=evil\n')}\t.gitmodules`,
        ),
      (wt: MemoryWorktree) =>
        commitTreeWith(
          wt,
          `040000 tree ${w(wt, ['mktree'], `100644 blob ${w(wt, ['hash-object', '-w', '--stdin'], 'evil\n')}\tconfig\n`)}\t.GIT`,
        ),
      (wt: MemoryWorktree) =>
        commitRawTree(wt, [['100644', 'notes', git(memoryDir, ['rev-parse', `${wt.baseHead}:notes`], env)]]), // the base's tree id, as a file
    ];
    for (const shape of shapes) {
      const wt = await createMemoryWorktree({ memoryDir, kind: 'worker', git: runner });
      const tip = shape(wt);
      setHead(wt, tip);
      expect(await importOf(wt)).toEqual({ ok: false });
      // git refused it: pack-objects (a missing object) or unpack-objects --strict (the rest).
      expect(calls.some((a) => a.includes('pack-objects')) || unpacked()).toBe(true);
      expect(tip).toMatch(/^[0-9a-f]{40}$/);
    }
    expect(git(memoryDir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
    expect(git(memoryDir, ['rev-list', '--count', 'main'], env)).toBe('1');
  });
});
