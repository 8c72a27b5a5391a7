import { execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectId, parseTree, serializeTree } from '../../../src/git/objects.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
beforeAll(async () => {
  fx = await memoryFixture('objects');
});
afterAll(cleanupTmp);

/** HEAD's tree, the index and the work tree must agree exactly, and the object store must be sound. */
function expectConsistent(): void {
  const tree = git(fx.dir, ['ls-tree', '-r', '--full-tree', 'HEAD'])
    .split('\n')
    .map((l) => l.replace(/ blob /, ' ').replace('\t', ' 0\t'));
  const index = git(fx.dir, ['ls-files', '-s']).split('\n');
  expect(index).toEqual(tree);
  expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  git(fx.dir, ['fsck', '--strict', '--no-progress', '--no-dangling']);
}

describe('objects written without git are exactly git objects', () => {
  it('blob ids match git hash-object', () => {
    for (const text of ['', 'hello\n', 'ünïcødé ✓\n', 'x'.repeat(70_000)]) {
      const file = join(fx.home, 'blob.txt');
      writeFileSync(file, text);
      expect(objectId('blob', Buffer.from(text))).toBe(git(fx.dir, ['hash-object', file]));
    }
  });

  it('trees round-trip and sort like git (a directory sorts as name/)', () => {
    const id = '0'.repeat(40);
    const items = [
      { mode: '100644', name: 'a.md', id },
      { mode: '40000', name: 'a', id },
      { mode: '100644', name: 'a-b', id },
    ];
    const raw = serializeTree(items);
    expect(parseTree(raw).map((e) => e.name)).toEqual(['a-b', 'a.md', 'a']);
    const blob = git(fx.dir, ['hash-object', '-w', '--stdin'], fx.env);
    const real = items.map((e) => ({ ...e, id: e.mode === '40000' ? objectId('tree', Buffer.alloc(0)) : blob }));
    const listing = real
      .map((e) => `${e.mode === '40000' ? '040000 tree' : '100644 blob'} ${e.id}\t${e.name}\n`)
      .join('');
    const fromGit = execFileSync('git', ['mktree', '--missing'], {
      cwd: fx.dir,
      input: listing,
      encoding: 'utf8',
    }).trim();
    expect(fromGit).toBe(objectId('tree', serializeTree(real)));
  });

  it('in a SHA-256 repository: blob, tree and commit ids match git, and trees round-trip with 32-byte ids', () => {
    const dir = join(fx.home, 'sha256');
    git(fx.home, ['init', '-q', '--object-format=sha256', dir]);
    const file = join(fx.home, 'blob256.txt');
    writeFileSync(file, 'hello\n');
    const blob = git(dir, ['hash-object', '-w', file]);
    expect(blob).toHaveLength(64);
    expect(objectId('blob', Buffer.from('hello\n'), 'sha256')).toBe(blob);
    const items = [
      { mode: '100644', name: 'b.md', id: blob },
      { mode: '100644', name: 'a.md', id: blob },
    ];
    const tree = execFileSync('git', ['mktree'], {
      cwd: dir,
      input: items.map((e) => `100644 blob ${e.id}\t${e.name}\n`).join(''),
      encoding: 'utf8',
    }).trim();
    const raw = serializeTree(items);
    expect(objectId('tree', raw, 'sha256')).toBe(tree);
    expect(parseTree(raw, 32).map((e) => [e.name, e.id])).toEqual([
      ['a.md', blob],
      ['b.md', blob],
    ]);
    const commit = git(dir, ['commit-tree', tree, '-m', 'm'], {
      ...fx.env,
      GIT_AUTHOR_DATE: '@0 +0000',
      GIT_COMMITTER_DATE: '@0 +0000',
    });
    const text = execFileSync('git', ['cat-file', 'commit', commit], { cwd: dir });
    expect(objectId('commit', text, 'sha256')).toBe(commit);
  });
});

describe('the fast commit keeps HEAD, index and work tree in step', () => {
  it('nested creates, edits, moves and directory deletes', async () => {
    await fx.memory.tool({
      command: 'create',
      reason: 'deep',
      file_path: 'a/b/c/deep.md',
      description: 'deep',
      file_text: 'x',
    });
    await fx.memory.tool({ command: 'create', reason: 'sibling', file_path: 'a/b/other.md', description: 'other' });
    expectConsistent();
    await fx.memory.tool({ command: 'rename', reason: 'move up', old_path: 'a/b/c/deep.md', new_path: 'top.md' });
    expectConsistent();
    expect(git(fx.dir, ['ls-tree', '--name-only', 'HEAD', 'a/b/']).split('\n')).toEqual(['a/b/other.md']);
    await fx.memory.tool({ command: 'delete', reason: 'drop a', file_path: 'a' });
    expectConsistent();
    expect(git(fx.dir, ['ls-tree', '--name-only', 'HEAD'])).not.toMatch(/^a$/m);
    const patch =
      '*** Begin Patch\n*** Add File: x/y.md\n+---\n+description: y\n+---\n+y\n*** Update File: top.md\n@@\n-x\n+z\n*** End Patch';
    await fx.memory.applyPatch({ reason: 'patch', patch });
    expectConsistent();
  });

  it('keeps an executable bit that a file already had', async () => {
    writeFileSync(join(fx.dir, 'run.md'), '---\ndescription: tool\n---\nv1\n');
    chmodSync(join(fx.dir, 'run.md'), 0o755);
    git(fx.dir, ['add', 'run.md']);
    git(fx.dir, ['commit', '-qm', 'exec file']);
    await fx.memory.tool({
      command: 'str_replace',
      reason: 'edit',
      file_path: 'run.md',
      old_string: 'v1',
      new_string: 'v2',
    });
    expect(git(fx.dir, ['ls-tree', 'HEAD', 'run.md'])).toMatch(/^100755 /);
    expectConsistent();
  });

  it('gives the commit the agent identity, the reason and the parent', async () => {
    const parent = git(fx.dir, ['rev-parse', 'HEAD']);
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'why: because\n\nmore detail',
      file_path: 'why.md',
      description: 'w',
    });
    expect(git(fx.dir, ['rev-parse', `${r.commit}^`])).toBe(parent);
    expect(git(fx.dir, ['log', '-1', '--format=%an <%ae>%n%B'])).toBe(
      'objects <objects@gitmem.local>\nwhy: because\n\nmore detail',
    );
    expect(git(fx.dir, ['reflog', '-1', '--format=%gs'])).toBe('commit: why: because');
  });
});
