/**
 * Sync against a bare repository by path: the post-turn state machine, two machines converging, true
 * conflicts under each policy (counting commits), unrelated histories, kept branches and remote config.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { syncAfterTurn } from '../../../src/sync/after-turn.js';
import { dropKeptBranch, listKeptBranches, showKeptBranch } from '../../../src/sync/conflicts.js';
import { removeRemote, setRemote, showRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

/** What a memory file holds: markdown gets the frontmatter the rules require (sync validates what it fetches). */
const asMemory = (file: string, text: string): string =>
  file.endsWith('.md') && !text.startsWith('---') ? `---\ndescription: ${file}\n---\n${text}` : text;

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-sync-bare-');
const env = hermeticGitEnv(root);
const runner = createGitRunner({ env, sleep: async () => undefined });
const g = (dir: string, args: string[]): string => git(dir, args, env);
let seq = 0;
const clock = (): Date => new Date(Date.UTC(2025, 0, 1, 0, 0, 0, seq++));

function bare(): string {
  const dir = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', dir]);
  return dir;
}

function repo(first = 'system/persona.md'): string {
  const dir = makeTmpDir('gitmem-machine-');
  g(dir, ['init', '-q', '-b', 'main']);
  commit(dir, first, 'first\n', 'init');
  return dir;
}

function clone(remote: string): string {
  const dir = join(makeTmpDir('gitmem-machine-'), 'memory');
  g(root, ['clone', '-q', remote, dir]);
  return dir;
}

function commit(dir: string, file: string, text: string, msg: string): string {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), asMemory(file, text));
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-q', '-m', msg]);
  return g(dir, ['rev-parse', 'HEAD']);
}

const count = (dir: string, rev = 'HEAD'): number => Number(g(dir, ['rev-list', '--count', rev]));
const has = (dir: string, sha: string, rev = 'HEAD'): boolean =>
  gitTry(dir, ['merge-base', '--is-ancestor', sha, rev], env).status === 0;

describe('post-turn sync against a bare remote', () => {
  it('walks skipped → no_remote → pushed with upstream → clean → dirty → conflict, never committing', async () => {
    expect((await syncAfterTurn({ git: runner, memoryDir: makeTmpDir() })).status).toBe('skipped');
    const a = repo();
    const noRemote = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(noRemote).toMatchObject({ status: 'no_remote', localOnly: true });

    const remote = bare();
    const info = await setRemote({ git: runner, memoryDir: a, url: remote });
    expect(info).toMatchObject({ url: remote, upstream: null });
    // No upstream yet but a local commit exists: the reference would say "clean"; we push -u.
    const first = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(first).toMatchObject({ status: 'pushed', pushed: 1, summary: 'Pushed 1 pending memory commit(s).' });
    expect(count(remote, 'main')).toBe(1);
    expect(g(a, ['rev-parse', '--abbrev-ref', 'main@{u}'])).toBe('origin/main');
    expect((await showRemote({ git: runner, memoryDir: a })).ahead).toBe(0);
    expect((await syncAfterTurn({ git: runner, memoryDir: a })).status).toBe('clean');

    const head = g(a, ['rev-parse', 'HEAD']);
    writeFileSync(join(a, 'scratch.md'), asMemory('scratch.md', 'x\n'));
    writeFileSync(join(a, 'system/persona.md'), asMemory('system/persona.md', 'edited\n'));
    const dirty = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(dirty).toMatchObject({ status: 'dirty', summary: '2 uncommitted memory change(s).' });
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(head);
    g(a, ['checkout', '-q', '--', '.']);
    g(a, ['clean', '-qfd']);

    commit(a, 'system/human.md', 'h1\n', 'human');
    expect(await syncAfterTurn({ git: runner, memoryDir: a })).toMatchObject({ status: 'pushed', pushed: 1 });

    // A merge left in conflict is reported, not touched.
    g(a, ['checkout', '-q', '-b', 'side', 'HEAD~1']);
    commit(a, 'system/human.md', 'side\n', 'side');
    g(a, ['checkout', '-q', 'main']);
    commit(a, 'system/human.md', 'main\n', 'main');
    expect(gitTry(a, ['merge', 'side'], env).status).not.toBe(0);
    const conflict = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(conflict.status).toBe('conflict');
    expect(conflict.summary).toBe('merge in progress; conflicted file(s): system/human.md');
    g(a, ['merge', '--abort']);
    g(a, ['branch', '-q', '-D', 'side']);

    expect(await removeRemote({ git: runner, memoryDir: a })).toEqual({ removed: remote });
    expect((await showRemote({ git: runner, memoryDir: a })).url).toBeNull();
    expect(await removeRemote({ git: runner, memoryDir: a })).toEqual({ removed: null });
  });

  it('rebases over a remote that moved, then pushes; history stays linear with every commit', async () => {
    const remote = bare();
    const a = repo();
    g(a, ['remote', 'add', 'origin', remote]);
    await syncAfterTurn({ git: runner, memoryDir: a });
    const b = clone(remote);
    const fromB = commit(b, 'system/b.md', 'b\n', 'from b');
    g(b, ['push', '-q', 'origin', 'main']);
    const fromA = commit(a, 'system/a.md', 'a\n', 'from a');
    const r = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(r).toMatchObject({
      status: 'pushed',
      pulled: 1,
      pushed: 1,
      summary: 'Rebased and pushed 1 pending memory commit(s).',
    });
    expect(count(remote, 'main')).toBe(3);
    expect(has(remote, fromB, 'main')).toBe(true);
    expect(g(remote, ['log', '-1', '--format=%s', 'main'])).toBe('from a');
    expect(g(remote, ['rev-list', '--merges', '--count', 'main'])).toBe('0');
    expect(fromA).not.toBe(g(a, ['rev-parse', 'HEAD'])); // rebased, same content
  });
});

describe('gitmem sync: two machines, conflicts that lose nothing', () => {
  it('two machines writing concurrently converge with every commit on both', async () => {
    const remote = bare();
    const a = repo();
    g(a, ['remote', 'add', 'origin', remote]);
    expect((await syncMemory({ git: runner, memoryDir: a })).status).toBe('pushed');
    const b = clone(remote);
    for (let i = 0; i < 3; i++) {
      commit(a, `system/a${i}.md`, `a${i}\n`, `a${i}`);
      commit(b, `system/b${i}.md`, `b${i}\n`, `b${i}`);
    }
    const [ra, rb] = await Promise.all([
      syncMemory({ git: runner, memoryDir: a }),
      syncMemory({ git: runner, memoryDir: b }),
    ]);
    expect([ra.status, rb.status], JSON.stringify([ra, rb])).toEqual(['pushed', 'pushed']);
    const again = await Promise.all([
      syncMemory({ git: runner, memoryDir: a }),
      syncMemory({ git: runner, memoryDir: b }),
    ]);
    expect(again.map((r) => r.status)).toEqual(['clean', 'clean']);
    expect(count(remote, 'main')).toBe(7);
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(g(b, ['rev-parse', 'HEAD']));
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
    expect(g(a, ['ls-files']).split('\n').sort()).toEqual(
      [...['a0', 'a1', 'a2', 'b0', 'b1', 'b2'].map((n) => `system/${n}.md`), 'system/persona.md'].sort(),
    );
  });

  it('a true conflict: fail keeps main, leave keeps the rebase, keep-branch parks local commits', async () => {
    const remote = bare();
    const a = repo();
    g(a, ['remote', 'add', 'origin', remote]);
    await syncMemory({ git: runner, memoryDir: a });
    const b = clone(remote);
    commit(b, 'system/persona.md', 'from b\n', 'b edits persona');
    await syncMemory({ git: runner, memoryDir: b });
    const mine = commit(a, 'system/persona.md', 'from a\n', 'a edits persona');
    const mine2 = commit(a, 'system/notes.md', 'n\n', 'a notes');

    const failed = await syncMemory({ git: runner, memoryDir: a, onConflict: 'fail' });
    expect(failed).toMatchObject({ status: 'conflict', conflictPaths: ['system/persona.md'] });
    expect(failed.summary).toContain('main is unchanged with 2 local commit(s) not pushed');
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(mine2);
    expect(existsSync(join(a, '.git', 'rebase-merge'))).toBe(false);
    expect(count(remote, 'main')).toBe(2);

    const left = await syncMemory({ git: runner, memoryDir: a, onConflict: 'leave' });
    expect(left.summary).toMatch(/^rebase in progress; conflicted file\(s\): system\/persona\.md/);
    const after = await syncAfterTurn({ git: runner, memoryDir: a });
    expect(after).toMatchObject({
      status: 'conflict',
      summary: 'rebase in progress; conflicted file(s): system/persona.md',
    });
    g(a, ['rebase', '--abort']);
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(mine2);

    const kept = await syncMemory({ git: runner, memoryDir: a, onConflict: 'keep-branch', clock });
    expect(kept.status).toBe('conflict');
    expect(kept.keptBranch).toMatch(/^gitmem\/conflict\/\d{8}T\d{6}\.\d{3}Z$/);
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
    expect(g(a, ['rev-parse', `refs/heads/${kept.keptBranch}`])).toBe(mine2);
    expect(has(a, mine, `refs/heads/${kept.keptBranch}`)).toBe(true);
    // Every commit is still somewhere: 2 on the remote main + 2 only on the kept branch.
    expect(Number(g(a, ['rev-list', '--count', '--all']))).toBe(4);

    g(a, ['branch', 'gitmem/reflection/r-1', 'HEAD']); // merged into main: not a kept branch
    const worker = commit(b, 'system/worker.md', 'w\n', 'worker');
    g(a, ['fetch', '-q', b, `${worker}:refs/heads/gitmem/memory-worker/w-7`]);
    const list = await listKeptBranches({ git: runner, memoryDir: a });
    expect(list.map((k) => [k.branch, k.kind, k.commits, k.files])).toEqual([
      [kept.keptBranch, 'conflict', 2, ['system/notes.md', 'system/persona.md']],
      ['gitmem/memory-worker/w-7', 'memory-worker', 1, ['system/worker.md']],
    ]);
    const detail = await showKeptBranch({ git: runner, memoryDir: a, branch: kept.keptBranch ?? '' });
    expect(detail.log.map((c) => c.subject)).toEqual(['a notes', 'a edits persona']);
    expect(detail.changes).toContain('M\tsystem/persona.md');
    await expect(showKeptBranch({ git: runner, memoryDir: a, branch: 'gitmem/reflection/r-1' })).rejects.toThrow(
      /not a kept branch/,
    );
    const dropped = await dropKeptBranch({ git: runner, memoryDir: a, branch: kept.keptBranch ?? '', clock });
    expect(dropped.backupRef).toMatch(/^refs\/gitmem\/backup\//);
    expect(g(a, ['rev-parse', dropped.backupRef])).toBe(mine2);
    expect((await listKeptBranches({ git: runner, memoryDir: a })).map((k) => k.branch)).toEqual([
      'gitmem/memory-worker/w-7',
    ]);
  });

  it('unrelated histories: saves the old head, replays local commits on the remote, loses nothing', async () => {
    const remote = bare();
    const b = repo('system/from-b.md');
    g(b, ['remote', 'add', 'origin', remote]);
    await syncMemory({ git: runner, memoryDir: b });
    const a = repo('system/from-a.md');
    const aHead = commit(a, 'system/more-a.md', 'm\n', 'more a');
    g(a, ['remote', 'add', 'origin', remote]);
    const r = await syncMemory({ git: runner, memoryDir: a, clock });
    expect(r).toMatchObject({ status: 'pushed', pulled: 1, pushed: 2 });
    expect(r.backupRef).toMatch(/^refs\/gitmem\/backup\//);
    expect(g(a, ['rev-parse', r.backupRef ?? ''])).toBe(aHead);
    expect(count(remote, 'main')).toBe(3);
    expect(g(remote, ['ls-tree', '-r', '--name-only', 'main']).split('\n')).toEqual([
      'system/from-a.md',
      'system/from-b.md',
      'system/more-a.md',
    ]);

    // Unrelated and conflicting (both created the same file): keep-branch parks the local root.
    const c = makeTmpDir('gitmem-machine-');
    g(c, ['init', '-q', '-b', 'main']);
    commit(c, 'system/from-b.md', 'c has its own idea\n', 'c init');
    const cHead = g(c, ['rev-parse', 'HEAD']);
    g(c, ['remote', 'add', 'origin', remote]);
    writeFileSync(join(c, 'system/from-b.md'), asMemory('system/from-b.md', 'different\n'));
    g(c, ['commit', '-qam', 'c differs']);
    const kept = await syncMemory({ git: runner, memoryDir: c, onConflict: 'keep-branch', clock });
    expect(kept.status).toBe('conflict');
    expect(has(c, cHead, `refs/heads/${kept.keptBranch}`)).toBe(true);
    expect(g(c, ['rev-parse', kept.backupRef ?? ''])).toBe(g(c, ['rev-parse', `refs/heads/${kept.keptBranch}`]));
    expect(g(c, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
  });

  it('an empty remote and an unborn local main: first push, then a fresh machine takes the history', async () => {
    const remote = bare();
    const empty = makeTmpDir();
    g(empty, ['init', '-q', '-b', 'main']);
    g(empty, ['remote', 'add', 'origin', remote]);
    expect((await syncMemory({ git: runner, memoryDir: empty })).status).toBe('clean');
    const a = repo();
    g(a, ['remote', 'add', 'origin', remote]);
    expect((await syncMemory({ git: runner, memoryDir: a })).status).toBe('pushed');
    const r = await syncMemory({ git: runner, memoryDir: empty });
    expect(r).toMatchObject({ status: 'clean', pulled: 1 });
    expect(g(empty, ['rev-parse', 'HEAD'])).toBe(g(a, ['rev-parse', 'HEAD']));
  });
});
