// The memory tool never resolves a path through a symbolic link inside the repository, never writes into
// .git through any name that means .git, and puts files back with their own mode when a write fails.
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { publishCommit } from '../../../src/memfs/commit.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { dotGitNamesInHead, expectRefused, fsckProblems, hookState, objectCount } from '../../helpers/repo-guard.js';
import { handleGit } from '../../../src/internals.js';

let fx: MemoryFixture;
let outside: string;

/** Commits `links` (name → target) with raw git, as a worker or an operator could. */
function commitLinks(links: Record<string, string>): void {
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(fx.dir, name));
  git(fx.dir, ['add', '--', ...Object.keys(links)]);
  git(fx.dir, ['commit', '-qm', 'plant links', '--no-verify']);
}

// A fresh repository per case: an unfixed tool wrecks the store, and one wreck must not hide the next.
beforeEach(async () => {
  fx = await memoryFixture('links');
  outside = makeTmpDir('gitmem-outside-');
  await fx.memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/a.md',
    description: 'a',
    file_text: 'alpha\n',
  });
  commitLinks({
    lnk_self: '.',
    lnk_git: '.git',
    lnk_notes: 'notes',
    lnk_file: 'notes/a.md',
    'lnk_a.md': 'notes/a.md',
    lnk_out: outside,
  });
});
afterAll(cleanupTmp);

describe('links inside the repository are never followed', () => {
  it('refuses delete lnk_self/.git/objects: the object store is untouched', async () => {
    const objects = objectCount(fx.dir);
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'delete', reason: 'tidy', file_path: 'lnk_self/.git/objects' }),
    );
    await expectRefused(fx.dir, fx.memory.tool({ command: 'delete', reason: 'tidy', file_path: 'lnk_self/notes' }));
    expect(objectCount(fx.dir)).toBe(objects);
    expect(fsckProblems(fx.dir)).toBe('');
  });

  it('refuses delete lnk_git/hooks: hooks keep their content and mode', async () => {
    const hooks = hookState(fx.dir);
    await expectRefused(fx.dir, fx.memory.tool({ command: 'delete', reason: 'tidy', file_path: 'lnk_git/hooks' }));
    await expectRefused(
      fx.dir,
      fx.memory.tool({ command: 'create', reason: 'r', file_path: 'lnk_git/hooks/x.md', description: 'd' }),
    );
    expect(hookState(fx.dir)).toBe(hooks);
  });

  it('refuses every command whose path passes through or ends at an in-repo link', async () => {
    const calls = [
      { command: 'create', file_path: 'lnk_notes/new.md', description: 'd' },
      { command: 'str_replace', file_path: 'lnk_notes/a.md', old_string: 'alpha', new_string: 'beta' },
      { command: 'str_replace', file_path: 'lnk_file', old_string: 'alpha', new_string: 'beta' },
      { command: 'insert', file_path: 'lnk_file', insert_line: 1, insert_text: 'x' },
      { command: 'update_description', file_path: 'lnk_notes/a.md', description: 'x' },
      { command: 'delete', file_path: 'lnk_file' },
      { command: 'delete', file_path: 'lnk_a.md' },
      { command: 'update_description', file_path: 'lnk_a.md', description: 'x' },
      { command: 'delete', file_path: 'lnk_notes' },
      { command: 'rename', old_path: 'lnk_notes/a.md', new_path: 'notes/b.md' },
      { command: 'rename', old_path: 'notes/a.md', new_path: 'lnk_notes/b.md' },
      { command: 'rename', old_path: 'notes/a.md', new_path: 'lnk_out/b.md' },
      { command: 'create', file_path: 'lnk_out/new.md', description: 'd' },
    ];
    for (const call of calls) {
      const err = await expectRefused(fx.dir, fx.memory.tool({ reason: 'r', ...call }));
      expect(['INVALID_PATH', 'PATH_ESCAPE'], `${JSON.stringify(call)}: ${err.code} ${err.message}`).toContain(
        err.code,
      );
    }
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
    expect(existsSync(join(fx.dir, 'notes/new.md'))).toBe(false);
    expect(existsSync(join(outside, 'new.md'))).toBe(false);
  });

  it('refuses the same through apply_patch (add, update, move, delete)', async () => {
    const patches = [
      '*** Add File: lnk_notes/p.md\n+x',
      '*** Update File: lnk_a.md\n@@\n-alpha\n+beta',
      '*** Delete File: lnk_a.md',
      '*** Update File: notes/a.md\n*** Move to: lnk_notes/moved.md\n@@\n-alpha\n+beta',
      '*** Delete File: lnk_self/notes/a.md',
    ];
    for (const body of patches) {
      const err = await expectRefused(
        fx.dir,
        fx.memory.applyPatch({ reason: 'r', patch: `*** Begin Patch\n${body}\n*** End Patch` }),
      );
      expect(['INVALID_PATH', 'PATH_ESCAPE'], `${body}: ${err.code} ${err.message}`).toContain(err.code);
    }
  });

  it('deleting a directory never follows a link inside it', async () => {
    mkdirSync(join(fx.dir, 'box'));
    writeFileSync(join(fx.dir, 'box/keep.md'), '---\ndescription: k\n---\nk\n');
    symlinkSync('../notes', join(fx.dir, 'box/inner'));
    git(fx.dir, ['add', 'box']);
    git(fx.dir, ['commit', '-qm', 'box with a link', '--no-verify']);
    await expectRefused(fx.dir, fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'box' }));
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
  });

  it('treats git update-index "Ignoring path" as a failure, not success', async () => {
    // git skips a path it refuses (a .git component) with that warning and exits 0. The tool refuses such
    // paths before writing; publishCommit is the last line of defence.
    const head = git(fx.dir, ['rev-parse', 'HEAD']);
    const tree = git(fx.dir, ['rev-parse', 'HEAD^{tree}']);
    const commit = git(fx.dir, ['commit-tree', tree, '-p', head, '-m', 'probe']);
    const blob = git(fx.dir, ['rev-parse', 'HEAD:notes/a.md']);
    const index = [{ path: 'lnk_self/.git/config', mode: '100644', id: blob }];
    const err = await publishCommit(handleGit(fx.memory), {
      memoryDir: fx.dir,
      commit,
      parent: head,
      index,
      subject: 'probe',
    }).catch((e: unknown) => e);
    expect(isMemoryError(err), String(err)).toBe(true);
    expect(git(fx.dir, ['rev-parse', 'HEAD'])).toBe(head);
  });
});

describe('.git look-alikes are refused everywhere', () => {
  const looks = [
    'x/.git/config',
    '.GIT/config',
    '.Git/hooks/pre-commit',
    '.git./config',
    '.git /config',
    'git~1/config',
    '.g\u200cit/config',
    '.git::$INDEX_ALLOCATION/config',
    'a/.gIt/b.md',
    '.git',
    '.GIT',
  ];
  it('as an argument of every command', async () => {
    for (const p of looks) {
      const calls = [
        { command: 'create', file_path: p, description: 'd', file_text: 'x' },
        { command: 'str_replace', file_path: p, old_string: 'a', new_string: 'b' },
        { command: 'insert', file_path: p, insert_line: 1, insert_text: 'x' },
        { command: 'delete', file_path: p },
        { command: 'rename', old_path: p, new_path: 'notes/z.md' },
        { command: 'rename', old_path: 'notes/a.md', new_path: p },
        { command: 'update_description', file_path: p, description: 'x' },
      ];
      for (const call of calls) await expectRefused(fx.dir, fx.memory.tool({ reason: 'r', ...call }), 'INVALID_PATH');
    }
  });
  it('in every apply_patch hunk path', async () => {
    for (const p of looks) {
      for (const body of [
        `*** Add File: ${p}\n+x`,
        `*** Update File: ${p}\n@@\n-a\n+b`,
        `*** Delete File: ${p}`,
        `*** Update File: notes/a.md\n*** Move to: ${p}\n@@\n-alpha\n+beta`,
      ]) {
        await expectRefused(
          fx.dir,
          fx.memory.applyPatch({ reason: 'r', patch: `*** Begin Patch\n${body}\n*** End Patch` }),
          'INVALID_PATH',
        );
      }
    }
    expect(dotGitNamesInHead(fx.dir)).toEqual([]);
  });
});

describe('rollback', () => {
  it('restores a deleted directory with its files’ modes (executable stays executable)', async () => {
    mkdirSync(join(fx.dir, 'tools'));
    writeFileSync(join(fx.dir, 'tools/run.md'), '---\ndescription: r\n---\nrun\n');
    chmodSync(join(fx.dir, 'tools/run.md'), 0o755);
    git(fx.dir, ['add', 'tools']);
    git(fx.dir, ['commit', '-qm', 'exec file']);
    const lock = join(fx.dir, '.git', 'index.lock');
    writeFileSync(lock, ''); // update-index cannot take the index: the write fails after the files changed
    try {
      const err = await fx.memory.tool({ command: 'delete', reason: 'r', file_path: 'tools' }).catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('GIT_LOCKED');
    } finally {
      rmSync(lock, { force: true });
    }
    expect(lstatSync(join(fx.dir, 'tools/run.md')).mode & 0o777).toBe(0o755);
    expect(git(fx.dir, ['status', '--porcelain'])).toBe('');
  });
});
