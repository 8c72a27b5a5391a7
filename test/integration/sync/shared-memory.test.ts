// Shared memory repositories on real git: a hub made by `shared create`, checked out beside two agents'
// memories (one read-write, one read-only). The memory tool writes into it by path prefix (one commit in THAT
// repository, judged by its own hooks), the prompt shows its system/ files in their own block naming it, sync
// carries writes between the agents and refuses fetched commits that break its rules, a detached repository is
// ignored though its checkout stays, and unsafe names are refused before anything is made.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-shared-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });

afterAll(() => cleanupTmp());

async function agent(home: string, agentId: string): Promise<Awaited<ReturnType<typeof createMemory>>> {
  await initMemory({ home, agentId, env, git: runner });
  return createMemory({ home, agentId, env, git: runner });
}

const note = (file: string, text: string, reason = `note ${file}`) => ({
  command: 'create',
  file_path: file,
  description: 'team norms',
  file_text: text,
  reason,
});

describe('shared memory repositories', () => {
  it('attach, write by path prefix, prompt block, sync between agents, read-only, detach', async () => {
    const home = makeTmpDir('gitmem-home-');
    const ada = await agent(home, 'ada');
    const bob = await agent(home, 'bob');
    const made = await ada.shared.create('team');
    expect(existsSync(made.hub)).toBe(true);
    const a = await ada.shared.attach('team');
    const b = await bob.shared.attach('team', { readOnly: true });
    expect(a.checkout).toBe(join(home, 'agents', 'ada', 'shared', 'team'));
    expect(existsSync(join(b.checkout, 'system', 'about.md'))).toBe(true);
    expect((await bob.shared.list()).map((r) => [r.name, r.attached, r.readOnly])).toEqual([['team', true, true]]);

    const adaHead = g(ada.memoryDir, ['rev-parse', 'HEAD']);
    const w = await ada.tool(note('shared/team/system/norms.md', 'Reviews within a day.', 'agree on reviews'));
    expect(w.paths).toEqual(['system/norms.md']);
    expect(g(a.checkout, ['log', '-1', '--format=%s%n%b'])).toMatch(/agree on reviews/);
    expect(g(a.checkout, ['rev-parse', 'HEAD'])).toBe(w.commit);
    expect(g(ada.memoryDir, ['rev-parse', 'HEAD'])).toBe(adaHead); // the agent's own memory did not move
    expect(g(a.checkout, ['status', '--porcelain'])).toBe('');
    await ada.tool({
      command: 'create',
      file_path: 'shared/team/skills/deploy/SKILL.md',
      description: 'how the team deploys',
      file_text: 'Steps.',
      reason: 'share the deploy skill',
    });
    const adaPrompt = await ada.compilePrompt();
    const skillsAt = adaPrompt.indexOf('<available_shared_skills>');
    expect(skillsAt).toBeGreaterThan(adaPrompt.indexOf('<shared_memory'));
    expect(adaPrompt.slice(skillsAt)).toContain(
      'how the team deploys ($MEMORY_DIR/shared/team/skills/deploy/SKILL.md)',
    );
    expect(adaPrompt).toContain('<shared_memory repository="team" access="read-write"');
    expect(adaPrompt).toContain('$MEMORY_DIR/shared/team/system/norms.md');
    expect(adaPrompt).toContain('Reviews within a day.');

    expect(await ada.tree()).toMatch(/\nshared\/team\/\n(.*\n)*.*norms\.md/);
    const view = await ada.tool({ command: 'view', file_path: 'shared/team/system/norms.md' });
    expect(view.view).toContain('Reviews within a day.');

    // The write reaches bob through the hub.
    const pushed = await ada.shared.sync();
    expect(pushed[0]?.error).toBeUndefined();
    const tip = g(a.checkout, ['rev-parse', 'HEAD']);
    expect(g(made.hub, ['rev-parse', 'main'])).toBe(tip);
    expect((await bob.shared.sync())[0]?.error).toBeUndefined();
    expect(g(b.checkout, ['rev-parse', 'HEAD'])).toBe(tip);
    const bobPrompt = await bob.compilePrompt();
    expect(bobPrompt).toMatch(
      /<shared_memory repository="team" access="read-only"[^>]*>\nShared memory repository team, attached read-only/,
    );
    expect(bobPrompt).toContain('Reviews within a day.');
    expect((await bob.shared.history('team')).map((c) => c.subject)[0]).toMatch(/share the deploy skill/);

    // Read-only: refused, nothing moves.
    const refused = await bob.tool(note('shared/team/system/bob.md', 'mine')).catch((e: unknown) => e);
    expect(isMemoryError(refused, 'READ_ONLY'), String(refused)).toBe(true);
    expect(g(b.checkout, ['rev-parse', 'HEAD'])).toBe(tip);

    // The shared repository's own validator: a planted token is refused there.
    const token = `ghp_${'a1B2c3D4e5F6g7H8i9J0'.repeat(2).slice(0, 36)}`;
    const secret = await ada.tool(note('shared/team/system/key.md', `token ${token}`)).catch((e: unknown) => e);
    expect(isMemoryError(secret, 'SECRET_DETECTED'), String(secret)).toBe(true);
    expect(g(a.checkout, ['rev-parse', 'HEAD'])).toBe(tip);
    expect(existsSync(join(a.checkout, 'system', 'key.md'))).toBe(false);

    // A call spanning two repositories is refused.
    const span = await ada
      .tool({ command: 'rename', old_path: 'shared/team/system/norms.md', new_path: 'notes/norms.md', reason: 'x' })
      .catch((e: unknown) => e);
    expect(isMemoryError(span, 'INVALID_ARGUMENT'), String(span)).toBe(true);

    // Detached: ignored, though the checkout stays.
    expect(await bob.shared.detach('team')).toEqual({ detached: true });
    expect(existsSync(b.checkout)).toBe(true);
    expect(await bob.compilePrompt()).not.toContain('<shared_memory');
    expect(await bob.tree()).not.toContain('shared/team/');
    expect((await bob.shared.list())[0]?.attached).toBe(false);
    const hist = await bob.shared.history('team').catch((e: unknown) => e);
    expect(isMemoryError(hist, 'INVALID_ARGUMENT')).toBe(true);
  });

  it("fetched commits that break the shared repository's rules leave its checkout where it was", async () => {
    const home = makeTmpDir('gitmem-home-');
    const ada = await agent(home, 'ada');
    const hub = (await ada.shared.create('ops')).hub;
    const a = await ada.shared.attach('ops');
    const before = g(a.checkout, ['rev-parse', 'HEAD']);
    // Someone pushes a symlink straight into the hub (no hook on that side).
    const raw = join(makeTmpDir('gitmem-raw-'), 'raw');
    g(root, ['clone', '-q', hub, raw]);
    const target = g(raw, ['rev-parse', 'HEAD:system/about.md']);
    g(raw, ['update-index', '--add', '--cacheinfo', `120000,${target},system/link.md`]);
    g(raw, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--no-verify', '-m', 'plant a link']);
    g(raw, ['push', '-q', 'origin', 'main']);
    const r = await ada.shared.sync();
    expect(g(a.checkout, ['rev-parse', 'HEAD'])).toBe(before);
    expect(existsSync(join(a.checkout, 'system', 'link.md'))).toBe(false);
    expect(JSON.stringify(r)).toMatch(/link\.md/);
  });

  it.each(['..', '.git', 'a/b', 'a\nb', 'CON', 'x.lock', 'team.git', '', '-x', '.hidden', 'com1', 'a'.repeat(65)])(
    'refuses the name %j and makes nothing',
    async (name) => {
      const home = makeTmpDir('gitmem-home-');
      const ada = await agent(home, 'ada');
      for (const op of [() => ada.shared.create(name), () => ada.shared.attach(name)]) {
        const err = await op().catch((e: unknown) => e);
        expect(isMemoryError(err, 'INVALID_ARGUMENT'), String(err)).toBe(true);
      }
      expect(existsSync(join(home, 'shared')) ? readdirSync(join(home, 'shared')) : []).toEqual([]);
      expect(existsSync(join(home, 'agents', 'ada', 'shared'))).toBe(false);
    },
  );

  it('through the CLI', async () => {
    const home = makeTmpDir('gitmem-home-');
    await agent(home, 'ada');
    const run = (args: string[]) => runMain([...args, '--home', home, '--agent', 'ada'], env, { cwd: root });
    for (const args of [
      ['shared', 'create', 'crew'],
      ['shared', 'attach', 'crew', '--read-only'],
    ]) {
      const r = await run(args);
      expect(r.code, r.err).toBe(0);
    }
    const listed = await run(['shared', 'list', '--json']);
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out)).toMatchObject([{ name: 'crew', attached: true, readOnly: true }]);
    expect((await run(['shared', 'detach', 'crew'])).code).toBe(0);
    expect((await run(['shared', 'create', '../evil'])).code).toBe(1);
  });
});
