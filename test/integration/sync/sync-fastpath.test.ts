/**
 * The sync round trip spends no git call it does not need: which commands run, in what order, for the
 * common cases; and the cases where what sync saw earlier is no longer true still count and keep right.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner, type GitResult, type GitRunner, type GitRunOptions } from '../../../src/git/runner.js';
import { syncAfterTurn } from '../../../src/sync/after-turn.js';
import { fetchMain, integrateRemote } from '../../../src/sync/integrate.js';
import { readRepoState } from '../../../src/sync/repo-state.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

/** What a memory file holds: markdown gets the frontmatter the rules require (sync validates what it fetches). */
const asMemory = (file: string, text: string): string =>
  file.endsWith('.md') && !text.startsWith('---') ? `---\ndescription: ${file}\n---\n${text}` : text;

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-sync-fast-');
const env = hermeticGitEnv(root);
const runner = createGitRunner({ env, sleep: async () => undefined });
const g = (dir: string, args: string[]): string => git(dir, args, env);
let seq = 0;
const clock = (): Date => new Date(Date.UTC(2025, 0, 1, 0, 0, 0, seq++));

/** The git calls that validate incoming commits (merge base, their diff and blobs, the per-commit secret scan). */
const VALIDATION = new Set(['merge-base', 'diff-tree', 'cat-file', 'log']);
/** Events of every other call but ref reads (`rev-parse`: sync asks git where main and origin/main point). */
const moving = (events: string[]): string[] =>
  events.filter((e) => !VALIDATION.has(e.split(' ')[1] ?? '') && !e.endsWith(' rev-parse'));

/** A runner that records `start <cmd>` / `end <cmd>` events around every git call. */
function recording(): { git: GitRunner; events: string[] } {
  const events: string[] = [];
  const run = async (args: string[], options: GitRunOptions): Promise<GitResult> => {
    events.push(`start ${args[0] ?? ''}`);
    try {
      return await runner.run(args, options);
    } finally {
      events.push(`end ${args[0] ?? ''}`);
    }
  };
  return { git: { ...runner, run }, events };
}

const starts = (events: string[]): string[] => events.filter((e) => e.startsWith('start ')).map((e) => e.slice(6));
/** The calls started, ref reads aside, and how many ref reads there were. */
const calls = (events: string[]): string[] => starts(events).filter((c) => c !== 'rev-parse');
const refReads = (events: string[]): number => starts(events).filter((c) => c === 'rev-parse').length;

/** What integrateRemote needs for the memory in `dir`: this runner, no auth, conflicts fail. */
const integration = (dir: string) => ({
  git: runner,
  memoryDir: dir,
  auth: undefined,
  onConflict: 'fail' as const,
  clock,
  signal: undefined,
  retry: undefined,
});

function commit(dir: string, file: string, text: string): string {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), asMemory(file, text));
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-q', '-m', `edit ${file}`]);
  return g(dir, ['rev-parse', 'HEAD']);
}

/** A bare remote with one commit, and two clones of it (upstream set, origin/main packed by the clone). */
function machines(): { remote: string; a: string; b: string } {
  const remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const seed = makeTmpDir('gitmem-seed-');
  g(seed, ['init', '-q', '-b', 'main']);
  commit(seed, 'system/persona.md', 'p\n');
  g(seed, ['push', '-q', remote, 'main']);
  const clone = (): string => {
    const dir = join(makeTmpDir('gitmem-machine-'), 'memory');
    g(root, ['clone', '-q', remote, dir]);
    return dir;
  };
  return { remote, a: clone(), b: clone() };
}

describe('sync round trip: only the git calls it needs', () => {
  it('1 in, 1 out: with the status taken before the fetch, the rebase starts at once and the count runs alongside', async () => {
    const { remote, a, b } = machines();
    commit(b, 'system/b.md', 'b\n');
    g(b, ['push', '-q', 'origin', 'main']);
    commit(a, 'system/a.md', 'a\n');
    // What prepareSync holds: origin/main read first, then the status; then the fetch's answer.
    const remoteBefore = g(a, ['rev-parse', 'refs/remotes/origin/main']);
    const state = await readRepoState(runner, a);
    const hint = {
      head: state?.oid ?? null,
      upstream: state?.upstream ?? null,
      ahead: state?.ahead ?? null,
      behind: state?.behind ?? null,
      remoteBefore,
    };
    const ctx = integration(a);
    const fetched = await fetchMain(ctx);
    expect(fetched).toMatchObject({ found: true, update: { kind: 'fast_forward' } });
    const rec = recording();
    expect(await integrateRemote({ ...ctx, git: rec.git }, hint, fetched)).toEqual({
      outcome: 'rebased',
      pulled: 1,
      ahead: 1,
    });
    // First the incoming commit is validated (sync-incoming.test.ts), then rebase and count start together.
    expect(starts(rec.events)).toEqual(expect.arrayContaining(['merge-base', 'log']));
    expect(moving(rec.events).slice(0, 2)).toEqual(['start rebase', 'start rev-list']);
    expect(starts(moving(rec.events))).toEqual(['rebase', 'rev-list']);
    expect(g(a, ['log', '-2', '--format=%s'])).toBe('edit system/a.md\nedit system/b.md');

    // The whole round trip: the same five calls (fetch and status together, then rebase and count).
    commit(b, 'system/b1.md', 'b1\n');
    g(b, ['pull', '-q', '--rebase', 'origin', 'main']);
    g(b, ['push', '-q', 'origin', 'main']);
    commit(a, 'system/a1.md', 'a1\n');
    const rt = recording();
    expect(await syncMemory({ git: rt.git, memoryDir: a })).toMatchObject({ status: 'pushed', pulled: 1, pushed: 2 });
    // `log`: the secret scan of the outgoing commits, right before the push (the incoming ones' checks aside).
    expect(starts(moving(rt.events)).sort()).toEqual(['fetch', 'push', 'rebase', 'rev-list', 'status']);
    expect(starts(rt.events).filter((c) => c === 'log')).toHaveLength(2);
    expect(rt.events.slice(-2)).toEqual(['start push', 'end push']);
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
  });

  it('no-op, push-only and pull-only syncs and the post-turn push spend no counting call', async () => {
    const { remote, a, b } = machines();
    const noop = recording();
    expect(await syncMemory({ git: noop.git, memoryDir: a })).toMatchObject({ status: 'clean', pulled: 0, pushed: 0 });
    expect(calls(noop.events).sort()).toEqual(['fetch', 'status']);
    // origin/main and main after the fetch, asked of git (the ref-file readers bought too little there).
    expect(refReads(noop.events)).toBe(2);

    commit(a, 'system/a2.md', 'a2\n');
    commit(a, 'system/a3.md', 'a3\n');
    const out = recording();
    expect(await syncMemory({ git: out.git, memoryDir: a })).toMatchObject({ status: 'pushed', pulled: 0, pushed: 2 });
    expect(calls(out.events).sort()).toEqual(['fetch', 'log', 'push', 'status']);

    // Only incoming: one call moves main (and, when the status raced the fetch, one counts first).
    g(b, ['pull', '-q', '--rebase', 'origin', 'main']);
    commit(b, 'system/b2.md', 'b2\n');
    g(b, ['push', '-q', 'origin', 'main']);
    const inOnly = recording();
    expect(await syncMemory({ git: inOnly.git, memoryDir: a })).toMatchObject({
      status: 'clean',
      pulled: 1,
      pushed: 0,
    });
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
    expect(starts(moving(inOnly.events)).filter((c) => c !== 'fetch' && c !== 'status')).toHaveLength(2);

    commit(a, 'system/a4.md', 'a4\n');
    const post = recording();
    expect(await syncAfterTurn({ git: post.git, memoryDir: a })).toMatchObject({ status: 'pushed', pushed: 1 });
    expect(calls(post.events)).toEqual(['status', 'log', 'push']);
  });

  it('a commit that lands after the status is still counted and pushed (the hint is checked, not trusted)', async () => {
    const { remote, a, b } = machines();
    const seen = commit(a, 'system/a.md', 'a\n');
    commit(b, 'system/b.md', 'b\n');
    g(b, ['push', '-q', 'origin', 'main']);
    const before = g(a, ['rev-parse', 'refs/remotes/origin/main']);
    const late = commit(a, 'system/late.md', 'late\n'); // e.g. a tool write between status and integration
    const ctx = integration(a);
    const r = await integrateRemote(ctx, {
      head: seen,
      upstream: 'origin/main',
      ahead: 1,
      behind: 0,
      remoteBefore: before,
    });
    expect(r).toMatchObject({ outcome: 'rebased', pulled: 1, ahead: 2 });
    expect(gitTry(a, ['merge-base', '--is-ancestor', 'refs/remotes/origin/main', 'HEAD'], env).status).toBe(0);
    expect(g(a, ['log', '-2', '--format=%s'])).toBe('edit system/late.md\nedit system/a.md');
    expect(late).not.toBe(g(a, ['rev-parse', 'HEAD']));
    expect((await syncMemory({ git: runner, memoryDir: a })).status).toBe('pushed');
    expect(g(remote, ['rev-list', '--count', 'main'])).toBe('4');

    // The remote did not move: the status's counts would do, but main moved since, so they are not used.
    const seen2 = commit(a, 'system/a2.md', 'a2\n');
    const now = g(a, ['rev-parse', 'refs/remotes/origin/main']);
    commit(a, 'system/late2.md', 'late2\n');
    const r2 = await integrateRemote(ctx, {
      head: seen2,
      upstream: 'origin/main',
      ahead: 1,
      behind: 0,
      remoteBefore: now,
    });
    expect(r2).toEqual({ outcome: 'up_to_date', pulled: 0, ahead: 2 });
  });

  it('a remote force-pushed to an unrelated history: the old head is backed up before the rebase, nothing lost', async () => {
    const { remote, a } = machines();
    const other = makeTmpDir('gitmem-other-');
    g(other, ['init', '-q', '-b', 'main']);
    commit(other, 'system/elsewhere.md', 'e\n');
    g(other, ['push', '-q', '--force', remote, 'main']);
    const mine = commit(a, 'system/mine.md', 'm\n');
    const r = await syncMemory({ git: runner, memoryDir: a, clock });
    expect(r).toMatchObject({ status: 'pushed', pulled: 1, pushed: 2 });
    expect(r.backupRef).toMatch(/^refs\/gitmem\/backup\//);
    expect(g(a, ['rev-parse', r.backupRef ?? ''])).toBe(mine);
    expect(g(remote, ['ls-tree', '-r', '--name-only', 'main']).split('\n')).toEqual([
      'system/elsewhere.md',
      'system/mine.md',
      'system/persona.md',
    ]);
  });

  it('a true conflict on the fast path keeps main intact and reports counts', async () => {
    const { remote, a, b } = machines();
    commit(b, 'system/persona.md', 'from b\n');
    g(b, ['push', '-q', 'origin', 'main']);
    const mine = commit(a, 'system/persona.md', 'from a\n');
    const failed = await syncMemory({ git: runner, memoryDir: a, onConflict: 'fail' });
    expect(failed).toMatchObject({ status: 'conflict', conflictPaths: ['system/persona.md'], pulled: 0 });
    expect(failed.summary).toContain('main is unchanged with 1 local commit(s) not pushed');
    expect(g(a, ['rev-parse', 'HEAD'])).toBe(mine);
    expect(g(a, ['status', '--porcelain'])).toBe('');
    expect(g(remote, ['rev-list', '--count', 'main'])).toBe('2');
  });
});
