// memory_apply_patch and shared memory repositories / scoped clones, on real git: a patch whose paths are all
// under `shared/<name>/` lands in that repository's checkout (one commit there with the reason, judged by its own
// hooks: a planted token is refused there), a patch spanning the agent's memory and a shared repository (or two
// shared repositories) is refused whole, a read-only attachment refuses, and a `--scope` clone refuses a patch
// touching a file outside its scope. Every refusal leaves every repository exactly as it was.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { runMain, type MainRun } from '../../helpers/main-io.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-shared-patch-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });

afterAll(() => cleanupTmp());

type Memory = Awaited<ReturnType<typeof createMemory>>;

async function agent(home: string, agentId: string): Promise<Memory> {
  await initMemory({ home, agentId, env, git: runner });
  return createMemory({ home, agentId, env, git: runner });
}

const patch = (...body: string[]): string => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');
const add = (path: string, ...lines: string[]): string[] => [`*** Add File: ${path}`, ...lines.map((l) => `+${l}`)];
const memo = (text: string): string[] => ['---', 'description: a note', '---', text];

/** Every repository's HEAD and status, to compare before and after a refusal. */
const state = (dirs: string[]): string[] =>
  dirs.map((d) => `${g(d, ['rev-parse', 'HEAD'])} ${g(d, ['status', '--porcelain', '--untracked-files=all'])}`);

async function refused(memory: Memory, input: string): Promise<unknown> {
  return memory.applyPatch({ input, reason: 'refused' }).catch((e: unknown) => e);
}

describe('memory_apply_patch into shared repositories', () => {
  it('lands in the shared repository: one commit there with the reason, its own validator', async () => {
    const home = makeTmpDir('gitmem-home-');
    const ada = await agent(home, 'ada');
    await ada.shared.create('team');
    const team = (await ada.shared.attach('team')).checkout;
    const own = g(ada.memoryDir, ['rev-parse', 'HEAD']);
    const before = g(team, ['rev-parse', 'HEAD']);

    const w = await ada.applyPatch({
      input: patch(
        ...add('shared/team/notes/norms.md', ...memo('Reviews within a day.')),
        ...add('shared/team/notes/b.md', ...memo('b')),
      ),
      reason: 'agree on reviews',
    });
    expect(w.paths.sort()).toEqual(['notes/b.md', 'notes/norms.md']);
    expect(g(team, ['rev-parse', 'HEAD'])).toBe(w.commit);
    expect(g(team, ['rev-parse', 'HEAD~1'])).toBe(before); // exactly one commit
    expect(g(team, ['log', '-1', '--format=%B'])).toMatch(/agree on reviews/);
    expect(g(team, ['status', '--porcelain'])).toBe('');
    expect(g(ada.memoryDir, ['rev-parse', 'HEAD'])).toBe(own); // the agent's own memory did not move
    expect(existsSync(join(ada.memoryDir, 'shared'))).toBe(false);

    // An update with a move inside the repository, the path written absolute from the agent's memory.
    const moved = await ada.applyPatch({
      patch: patch(
        `*** Update File: ${join(ada.memoryDir, 'shared/team/notes/b.md')}`,
        '*** Move to: shared/team/notes/c.md',
        '@@',
        '-b',
        '+c',
      ),
      reason: 'rename b',
    });
    expect(moved.paths.sort()).toEqual(['notes/b.md', 'notes/c.md']);
    expect(g(team, ['show', 'HEAD:notes/c.md'])).toContain('\nc');

    // Its own hooks judge the commit: a planted token is refused there, nothing moves.
    const token = `ghp_${'a1B2c3D4e5F6g7H8i9J0'.repeat(2).slice(0, 36)}`;
    const at = state([team, ada.memoryDir]);
    const secret = await refused(ada, patch(...add('shared/team/notes/key.md', ...memo(`token ${token}`))));
    expect(isMemoryError(secret, 'SECRET_DETECTED'), String(secret)).toBe(true);
    expect(state([team, ada.memoryDir])).toEqual(at);

    // A repository not attached is not routed: the path is the agent's own (an ordinary directory there).
    const plain = await ada.applyPatch({ input: patch(...add('shared/other/x.md', ...memo('x'))), reason: 'own' });
    expect(g(ada.memoryDir, ['rev-parse', 'HEAD'])).toBe(plain.commit);
    expect(g(team, ['rev-parse', 'HEAD'])).toBe(moved.commit);
  });

  it('refuses a patch spanning two repositories, and a read-only attachment; nothing moves', async () => {
    const home = makeTmpDir('gitmem-home-');
    const ada = await agent(home, 'ada');
    const bob = await agent(home, 'bob');
    await ada.shared.create('team');
    await ada.shared.create('ops');
    const team = (await ada.shared.attach('team')).checkout;
    const ops = (await ada.shared.attach('ops')).checkout;
    const bobTeam = (await bob.shared.attach('team', { readOnly: true })).checkout;
    const dirs = [ada.memoryDir, team, ops, bob.memoryDir, bobTeam];
    const at = state(dirs);

    const mixed = await refused(
      ada,
      patch(...add('notes/mine.md', ...memo('m')), ...add('shared/team/notes/t.md', ...memo('t'))),
    );
    expect(isMemoryError(mixed, 'INVALID_ARGUMENT'), String(mixed)).toBe(true);
    expect((mixed as Error).message).toMatch(/cannot span two repositories \(the agent's memory and shared\/team\/\)/);
    const moveOut = await refused(
      ada,
      patch(
        '*** Update File: shared/team/system/about.md',
        '*** Move to: notes/about.md',
        '@@',
        '-Shared memory repository team.',
        '+mine',
      ),
    );
    expect(isMemoryError(moveOut, 'INVALID_ARGUMENT'), String(moveOut)).toBe(true);
    const two = await refused(
      ada,
      patch(...add('shared/ops/a.md', ...memo('a')), ...add('shared/team/a.md', ...memo('a'))),
    );
    expect((two as Error).message).toMatch(/shared\/ops\/ and shared\/team\//);

    const ro = await refused(bob, patch(...add('shared/team/notes/bob.md', ...memo('mine'))));
    expect(isMemoryError(ro, 'READ_ONLY'), String(ro)).toBe(true);
    expect((ro as Error).message).toMatch(/team is attached read-only/);
    expect(state(dirs)).toEqual(at);
    expect(existsSync(join(ada.memoryDir, 'notes', 'mine.md'))).toBe(false);
  });
});

describe('memory_apply_patch in a --scope clone', () => {
  it('refuses a patch touching a file outside the scope; one inside lands', async () => {
    const bare = join(makeTmpDir('gitmem-remote-'), 'mem.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    const url = `file://${bare}`;
    const writerHome = makeTmpDir('gitmem-home-');
    const seeded = await cloneMemory({ git: runner, home: writerHome, url, agentId: 'sc' });
    const writer = await createMemory({ home: writerHome, agentId: 'sc', env, git: runner });
    await writer.applyPatch({
      input: patch(...add('notes/a.md', ...memo('a')), ...add('other/b.md', ...memo('b'))),
      reason: 'seed',
    });
    expect((await writer.sync()).status).toBe('pushed');
    expect(seeded.memoryDir).toBe(writer.memoryDir);

    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url, agentId: 'sc', scope: 'notes' });
    const reader = await createMemory({ home, agentId: 'sc', env, git: runner });
    const at = state([r.memoryDir]);
    for (const input of [
      patch(...add('other/planted.md', ...memo('x'))),
      patch('*** Update File: other/b.md', '@@', '-b', '+c'),
      patch('*** Delete File: other/b.md'),
      patch(
        ...add('notes/fine.md', ...memo('ok')),
        '*** Update File: notes/a.md',
        '*** Move to: other/a.md',
        '@@',
        '-a',
        '+a',
      ),
    ]) {
      const e = await refused(reader, input);
      expect(isMemoryError(e, 'INVALID_ARGUMENT'), String(e)).toBe(true);
      expect((e as Error).message).toMatch(
        /^memory_apply_patch: other\/\S+ is outside this clone's scope \(notes\/, system\//,
      );
    }
    expect(state([r.memoryDir])).toEqual(at);
    expect(existsSync(join(r.memoryDir, 'other'))).toBe(false);

    const ok = await reader.applyPatch({
      input: patch(...add('notes/fine.md', ...memo('ok')), ...add('system/x.md', ...memo('x'))),
      reason: 'in scope',
    });
    expect(ok.paths.sort()).toEqual(['notes/fine.md', 'system/x.md']);
    expect(g(r.memoryDir, ['status', '--porcelain'])).toBe('');
  });
});

describe('gitmem shared create and list without an agent', () => {
  it('create makes the hub in a home with no agent; list shows every agent attaching it', async () => {
    const home = join(makeTmpDir('gitmem-home-'), 'fresh'); // not even made yet
    let last: MainRun = { code: 0, out: '', err: '' };
    const run = async (...args: string[]): Promise<number> => {
      last = await runMain([...args, '--home', home], env, { cwd: root });
      return last.code;
    };
    expect(await run('shared', 'create', 'team'), last.err).toBe(0);
    expect(last.out).toMatch(/Created shared repository team/);
    expect(existsSync(join(home, 'shared', 'team.git'))).toBe(true);
    expect(existsSync(join(home, 'agents')) ? readdirSync(join(home, 'agents')) : []).toEqual([]);
    expect(await run('shared', 'list', '--json'), last.err).toBe(0);
    expect(JSON.parse(last.out)).toMatchObject([{ name: 'team', attached: false, attachments: [] }]);
    expect(await run('shared', 'create', '.git')).toBe(1);
    expect(readdirSync(join(home, 'shared'))).toEqual(['team.git']);

    // Two agents attach it; the home's list names both, without --agent (more than one agent: no default).
    const ada = await agent(home, 'ada');
    const bob = await agent(home, 'bob');
    await ada.shared.attach('team');
    await bob.shared.attach('team', { readOnly: true });
    expect(await run('shared', 'create', 'ops'), last.err).toBe(0);
    expect(await run('shared', 'list'), last.err).toBe(0);
    expect(last.out).toMatch(/^ops\t\S+ops\.git\t-\nteam\t\S+team\.git\tada \(read-write\), bob \(read-only\)/);
    expect(await run('shared', 'list', '--agent', 'bob', '--json'), last.err).toBe(0);
    expect(JSON.parse(last.out)[1]).toMatchObject({ name: 'team', attached: true, readOnly: true });
    // attach still needs an agent.
    expect(await run('shared', 'attach', 'ops')).toBe(1);
    expect(last.err).toMatch(/agent/);
  });
});
