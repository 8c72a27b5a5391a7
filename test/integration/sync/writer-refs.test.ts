/**
 * `sync.mode = writer-refs`: writers push only refs/heads/writers/<agent>/<machine>; the integrator merges the
 * ones that pass the memory rules into main (a breaking one is kept on gitmem/rejected/<time>, a conflicting one
 * on gitmem/conflict/<time>) and pushes main at a bounded rate. Real bare repositories; the server's answers
 * (a lost ref race, a refused ref) come from real receive hooks.
 */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { integrateWriters, nextPushDelay } from '../../../src/sync/integrate-writers.js';
import { syncSettings, writerRef } from '../../../src/sync/writer-refs.js';
import { isMemoryError } from '../../../src/errors.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const runCli = (args: string[], cliEnv: Record<string, string>) => runMain(args, cliEnv);

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-writers-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });
const TOKEN = ['ghp', '_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

/** A remote with main pushed by the integrator, and writer homes in writer-refs mode. */
async function setup(machines: string[], files: Record<string, string> = {}) {
  const remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const home = makeTmpDir('gitmem-integrator-');
  const made = await initMemory({ home, agentId: 'ada', env, git: runner });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(made.memoryDir, path, '..'), { recursive: true });
    writeFileSync(join(made.memoryDir, path), text);
  }
  if (Object.keys(files).length > 0) {
    g(made.memoryDir, ['add', '-A']);
    g(made.memoryDir, ['commit', '-qm', 'operator', '--no-verify']);
  }
  const integrator = await createMemory({ home, agentId: 'ada', env, git: runner });
  await integrator.remote.set(remote);
  expect((await integrator.sync()).status).toBe('pushed');
  const writers = [];
  for (const machine of machines) {
    const wHome = makeTmpDir(`gitmem-w-${machine}-`);
    writeFileSync(join(wHome, 'config'), JSON.stringify({ sync: { mode: 'writer-refs', machine } }));
    const c = await cloneMemory({ git: runner, home: wHome, url: remote, agentId: 'ada' });
    writers.push({
      machine,
      dir: c.memoryDir,
      memory: await createMemory({ home: wHome, agentId: 'ada', env, git: runner }),
    });
  }
  return { remote, integrator, dir: made.memoryDir, writers };
}

const note = (path: string, body: string) => ({
  command: 'create' as const,
  reason: `write ${path}`,
  file_path: path,
  description: path,
  file_text: `${body}\n`,
});

describe('writer refs and one integrator', () => {
  it('writers push only their own refs, concurrently; the integrator merges them into main', async () => {
    const s = await setup(['m1', 'm2', 'm3']);
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    for (const w of s.writers) await w.memory.tool(note(`notes/${w.machine}.md`, `from ${w.machine}`));
    // The post-turn sync (m1) pushes the writer's ref too, never main.
    const results = await Promise.all(s.writers.map((w, i) => (i === 0 ? w.memory.syncAfterTurn() : w.memory.sync())));
    for (const r of results) expect(r.status).toBe('pushed');
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore); // nobody but the integrator moves main
    expect(g(s.remote, ['for-each-ref', '--format=%(refname)', 'refs/heads/writers/']).split('\n')).toEqual([
      'refs/heads/writers/ada/m1',
      'refs/heads/writers/ada/m2',
      'refs/heads/writers/ada/m3',
    ]);

    const r = await s.integrator.integrate();
    expect(r.status).toBe('integrated');
    expect(r.writers.map((w) => w.outcome)).toEqual(['merged', 'merged', 'merged']);
    for (const w of s.writers) expect(g(s.remote, ['show', `main:notes/${w.machine}.md`])).toContain(w.machine);
    expect(g(s.remote, ['fsck', '--strict', '--no-progress'])).toBe('');

    // A writer's next sync takes main (validated) and has nothing new to push; a second round does nothing.
    const after = await s.writers[0]!.memory.sync();
    expect(after.status).toBe('clean');
    expect(g(s.writers[0]!.dir, ['show', 'HEAD:notes/m3.md'])).toContain('m3');
    expect((await s.integrator.integrate()).status).toBe('clean');
  });

  it('a writer never rewrites what its ref already holds: main moving meanwhile is merged in, so no write lands twice', async () => {
    const s = await setup(['m1']);
    const w = s.writers[0]!;
    await w.memory.tool(note('notes/x.md', 'x'));
    expect((await w.memory.sync()).status).toBe('pushed');
    const x = g(s.remote, ['rev-parse', writerRef('ada', 'm1')]);
    // main moves without x (another writer's integration), while an integrator may already hold x
    writeFileSync(join(s.dir, 'notes-z.md'), '---\ndescription: z\n---\nz\n');
    g(s.dir, ['add', 'notes-z.md']);
    g(s.dir, ['commit', '-qm', 'z', '--no-verify']);
    g(s.dir, ['push', '-q', 'origin', 'main']);
    await w.memory.tool(note('notes/x2.md', 'x2'));
    expect((await w.memory.sync()).status).toBe('pushed');
    const ref = g(s.remote, ['rev-parse', writerRef('ada', 'm1')]);
    expect(gitTry(s.remote, ['merge-base', '--is-ancestor', x, ref], env).status).toBe(0); // x kept, not rewritten
    expect(g(w.dir, ['show', 'HEAD:notes-z.md'])).toContain('z');
    // The integrator had fetched the old ref: merging it, then the new one, lands x once.
    await s.integrator.integrate();
    expect((await s.integrator.integrate()).status).toBe('clean');
    const subjects = g(s.remote, ['log', '--no-merges', '--format=%s', 'main']).split('\n');
    expect(subjects.filter((l) => l === 'write notes/x.md')).toHaveLength(1);
    expect(subjects.filter((l) => l === 'write notes/x2.md')).toHaveLength(1);
  });

  it('a writer ref that conflicts is kept on a conflict branch, the others merged', async () => {
    const s = await setup(['m1', 'm2'], { 'notes/shared.md': '---\ndescription: shared\n---\nline one\n' });
    for (const [i, w] of s.writers.entries()) {
      await w.memory.sync();
      await w.memory.tool({
        command: 'str_replace',
        reason: 'edit',
        file_path: 'notes/shared.md',
        old_string: 'line one',
        new_string: `line from writer ${i}`,
      });
      expect((await w.memory.sync()).status).toBe('pushed');
    }
    const r = await s.integrator.integrate();
    expect(r.writers.map((w) => w.outcome)).toEqual(['merged', 'conflict']);
    const kept = r.writers[1]!;
    expect(kept.keptBranch).toMatch(/^gitmem\/conflict\//);
    expect(kept.conflictPaths).toEqual(['notes/shared.md']);
    expect(g(s.dir, ['rev-parse', `refs/heads/${kept.keptBranch}`])).toBe(kept.tip);
    expect(g(s.remote, ['show', 'main:notes/shared.md'])).toContain('line from writer 0');
    expect(g(s.dir, ['status', '--porcelain'])).toBe('');
    // Still in conflict next round: the same branch, not a new one.
    const again = await s.integrator.integrate();
    expect(again.writers[0]?.keptBranch).toBe(kept.keptBranch);
  });

  it('a symlink, a bad frontmatter, a removed read_only key and a planted token: each leaves main, kept and reported', async () => {
    const locked = '---\ndescription: locked\nread_only: true\n---\noperator text\n';
    const s = await setup([], { 'ops/locked.md': locked });
    const raw = join(makeTmpDir('gitmem-raw-'), 'clone');
    g(root, ['clone', '-q', s.remote, raw]);
    const base = g(raw, ['rev-parse', 'HEAD']);
    const hostile: Record<string, () => void> = {
      link: () => symlinkSync('../.git', join(raw, 'lnk')),
      front: () => writeFileSync(join(raw, 'bare.md'), 'no frontmatter\n'),
      unlock: () => writeFileSync(join(raw, 'ops/locked.md'), '---\ndescription: locked\n---\nagent text\n'),
      token: () => writeFileSync(join(raw, 'leak.md'), `---\ndescription: n\n---\ntoken ${TOKEN}\n`),
    };
    for (const [name, edit] of Object.entries(hostile)) {
      g(raw, ['reset', '-q', '--hard', base]);
      g(raw, ['clean', '-qfdx']);
      edit();
      g(raw, ['add', '-A']);
      g(raw, ['commit', '-qm', name, '--no-verify']);
      g(raw, ['push', '-q', 'origin', `HEAD:${writerRef('ada', name)}`]);
    }
    // A writer ref with a history of its own (no common commit): refused by the merge, kept, the round goes on.
    const orphan = join(makeTmpDir('gitmem-orphan-'), 'o');
    g(root, ['init', '-q', '-b', 'main', orphan]);
    writeFileSync(join(orphan, 'other.md'), '---\ndescription: o\n---\nother\n');
    g(orphan, ['add', '-A']);
    g(orphan, ['commit', '-qm', 'orphan', '--no-verify']);
    g(orphan, ['push', '-q', s.remote, `HEAD:${writerRef('ada', 'orphan')}`]);
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    const r = await s.integrator.integrate();
    expect(r.status).toBe('clean');
    expect(r.writers.find((w) => w.writer === 'writers/ada/orphan')?.problems?.join('\n')).toContain('merge refused');
    const by = Object.fromEntries(r.writers.map((w) => [w.writer, w]));
    expect(by['writers/ada/link']?.problems?.join('\n')).toContain('lnk: symbolic links are not allowed');
    expect(by['writers/ada/front']?.problems?.join('\n')).toContain('bare.md: missing frontmatter');
    expect(by['writers/ada/unlock']?.problems?.join('\n')).toContain('ops/locked.md');
    expect(by['writers/ada/token']?.problems?.join('\n')).toContain('SECRET_DETECTED');
    expect(JSON.stringify(r)).not.toContain(TOKEN);
    for (const w of r.writers) {
      expect(w.outcome).toBe('rejected');
      expect(g(s.dir, ['rev-parse', `refs/heads/${w.keptBranch}`])).toBe(w.tip);
    }
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore);
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(mainBefore);
    expect(g(s.dir, ['status', '--porcelain'])).toBe('');
  });

  it('a lost ref race is retried with backoff; `cannot lock ref` never reaches the user', async () => {
    const s = await setup(['m1']);
    // The server answers as git does when another push holds the ref's lock, twice, then accepts.
    const counter = join(makeTmpDir('gitmem-race-'), 'n');
    writeFileSync(counter, '0');
    const hook = join(s.remote, 'hooks', 'pre-receive');
    writeFileSync(
      hook,
      `#!/bin/sh\nn=$(cat ${counter}); echo $((n+1)) > ${counter}\n` +
        `if [ "$n" -lt 2 ]; then echo "error: cannot lock ref 'refs/heads/writers/ada/m1': is at 0 but expected 1" >&2; exit 1; fi\n`,
    );
    chmodSync(hook, 0o755);
    const w = s.writers[0]!;
    await w.memory.tool(note('notes/race.md', 'raced'));
    const r = await w.memory.sync();
    expect(r).toMatchObject({ status: 'pushed', retries: 2 });
    expect(g(s.remote, ['show', 'refs/heads/writers/ada/m1:notes/race.md'])).toContain('raced');
  });

  it('a ref the server refuses is a PUSH_FAILED naming the ref and the refusal; main and the repo unchanged', async () => {
    const s = await setup(['m1']);
    // Per-writer permissions as a server enforces them: this writer may push only writers/ada/other.
    const hook = join(s.remote, 'hooks', 'update');
    writeFileSync(
      hook,
      '#!/bin/sh\ncase "$1" in refs/heads/writers/ada/other) exit 0;; esac\necho "W $1 ada DENIED by fallthru" >&2\nexit 1\n',
    );
    chmodSync(hook, 0o755);
    const w = s.writers[0]!;
    await w.memory.tool(note('notes/x.md', 'x'));
    const head = g(w.dir, ['rev-parse', 'HEAD']);
    const r = await w.memory.sync();
    expect(r.status).toBe('push_failed');
    expect(r.error?.code).toBe('PUSH_FAILED');
    expect(r.summary).toMatch(/refused the push to refs\/heads\/writers\/ada\/m1: .*DENIED by fallthru/);
    expect(g(w.dir, ['rev-parse', 'HEAD'])).toBe(head);

    // The integrator without the right to push main: refused, reported, nothing half-done on the server.
    g(root, ['--git-dir', s.remote, 'update-ref', 'refs/heads/writers/ada/m1', head]);
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    const localBefore = g(s.dir, ['rev-parse', 'HEAD']);
    const i = await s.integrator.integrate();
    expect(i.status).toBe('failed');
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(localBefore);
    expect(i.summary).toMatch(/refused the push to refs\/heads\/main: .*DENIED/);
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore);
  });

  it('the integrator keeps to its push rate', async () => {
    expect(nextPushDelay([], 6, 0)).toBe(0);
    expect(nextPushDelay([0, 1000], 2, 30_000)).toBe(30_000);
    expect(nextPushDelay([0, 1000], 3, 30_000)).toBe(0);
    expect(nextPushDelay([0], 1, 61_000)).toBe(0);
    const s = await setup(['m1']);
    const waits: number[] = [];
    const sleep = async (ms: number) => void waits.push(ms);
    const w = s.writers[0]!;
    for (const n of [1, 2]) {
      await w.memory.tool(note(`notes/r${n}.md`, `r${n}`));
      expect((await w.memory.sync()).status).toBe('pushed');
      const r = await integrateWriters({ git: runner, memoryDir: s.dir, pushesPerMinute: 1, sleep });
      expect(r.status).toBe('integrated');
    }
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(50_000);
  });

  it('the CLI: `config set sync.mode writer-refs`, `sync` pushes the writer ref, `integrate` reports what it kept', async () => {
    const s = await setup([]);
    const wHome = makeTmpDir('gitmem-cli-w-');
    await cloneMemory({ git: runner, home: wHome, url: s.remote, agentId: 'ada' });
    const wEnv = { ...env, GITMEM_HOME: wHome, GITMEM_DAEMON: '0' };
    expect((await runCli(['config', 'set', 'sync.mode', 'writer-refs'], wEnv)).code).toBe(0);
    expect((await runCli(['config', 'set', 'sync.machine', 'box'], wEnv)).code).toBe(0);
    expect(
      (
        await runCli(
          ['memory', 'create', 'notes/cli.md', '--description', 'c', '--reason', 'r', '--text', 'c', '--agent', 'ada'],
          wEnv,
        )
      ).code,
    ).toBe(0);
    const synced = await runCli(['sync', '--agent', 'ada'], wEnv);
    expect(synced.code).toBe(0);
    expect(synced.out).toContain('writers/ada/box');
    const raw = join(makeTmpDir('gitmem-raw-'), 'clone');
    g(root, ['clone', '-q', s.remote, raw]);
    writeFileSync(join(raw, 'bare.md'), 'no frontmatter\n');
    g(raw, ['add', '-A']);
    g(raw, ['commit', '-qm', 'bad', '--no-verify']);
    g(raw, ['push', '-q', 'origin', `HEAD:${writerRef('ada', 'evil')}`]);
    const iHome = join(s.dir, '..', '..', '..');
    const integrated = await runCli(['integrate', '--agent', 'ada'], {
      ...env,
      GITMEM_HOME: iHome,
      GITMEM_DAEMON: '0',
    });
    expect(integrated.code).toBe(0);
    expect(integrated.out).toContain('1 writer ref(s) merged, 1 rejected');
    expect(integrated.out).toMatch(/writers\/ada\/evil rejected, kept on gitmem\/rejected\//);
    expect(integrated.out).toContain('bare.md: missing frontmatter');
    expect(g(s.remote, ['show', 'main:notes/cli.md'])).toContain('c');
  });

  it('settings: bad modes, machines and rates are refused', () => {
    expect(syncSettings({}).mode).toBe('main');
    expect(syncSettings({ sync: { mode: 'writer-refs', machine: 'm1' } })).toMatchObject({ pushesPerMinute: 6 });
    for (const bad of [
      { sync: { mode: 'both' } },
      { sync: { machine: '../main' } },
      { sync: { machine: 'x.lock' } },
      { sync: { pushesPerMinute: 0 } },
      { sync: 'writer-refs' },
    ])
      expect(() => syncSettings(bad)).toThrow(
        expect.toSatisfy((e) => isMemoryError(e) && e.code === 'INVALID_ARGUMENT'),
      );
  });
  it('two writer refs that each fit the system/ budget but not together: the second is undone and kept', async () => {
    const s = await setup(['m1', 'm2']);
    const baseline = (await s.integrator.tokens()).total_tokens;
    // Each writer adds ~500 tokens to system/; the integrator's repository allows 700 more than it holds.
    g(s.dir, ['config', 'gitmem.budgetSystem', String(baseline + 700)]);
    for (const w of s.writers) {
      await w.memory.tool(note(`system/${w.machine}.md`, `${w.machine} `.repeat(660)));
      expect((await w.memory.sync()).status).toBe('pushed');
    }
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    const r = await s.integrator.integrate();
    expect(r.writers.map((w) => w.outcome)).toEqual(['merged', 'rejected']);
    const second = r.writers[1]!;
    expect(second.outcome === 'rejected' && (second.problems ?? []).join(' ')).toMatch(/^with main: .*budget/i);
    expect(second.outcome === 'rejected' && second.keptBranch).toMatch(/^gitmem\/conflict\//);
    // main has the first writer's file and not the second's; the checkout is clean and on main's tip.
    expect(g(s.remote, ['rev-parse', 'main'])).not.toBe(mainBefore);
    expect(g(s.remote, ['ls-tree', '--name-only', 'main', 'system/']).split('\n')).toContain('system/m1.md');
    expect(g(s.remote, ['ls-tree', '--name-only', 'main', 'system/']).split('\n')).not.toContain('system/m2.md');
    expect(g(s.dir, ['status', '--porcelain'])).toBe('');
    expect(g(s.dir, ['rev-parse', 'HEAD'])).toBe(g(s.remote, ['rev-parse', 'main']));
  });
});
