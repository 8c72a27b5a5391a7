// One handle covers what a harness needs: from `createMemory` alone (no runner, credentials or identity
// built by the caller) it writes, syncs with a remote, mirrors, lists kept branches and the protected
// list, runs background writers, and reflects — every commit with the agent's (or reflection's) identity.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { scripted } from '../../helpers/reflection-mock.js';

let home: string;
let env: Record<string, string>;
let memory: Memory;
let remote: string;

afterAll(cleanupTmp);
beforeAll(async () => {
  home = makeTmpDir('gitmem-home-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'ada', env, name: 'Ada' });
  memory = await createMemory({ home, agentId: 'ada', env });
  remote = join(makeTmpDir('gitmem-remote-'), 'ada.git');
  git(home, ['init', '-q', '--bare', '-b', 'main', remote], env);
});

const create = (path: string, text: string, reason: string) =>
  memory.tool({ command: 'create', file_path: path, description: 'd', file_text: text, reason });

describe('the Memory handle', () => {
  it('writes and syncs with its remote: remote.set, syncAfterTurn pushes, sync is clean, remote.show', async () => {
    await create('notes/tea.md', 'green tea\n', 'Ada likes green tea');
    expect(git(memory.memoryDir, ['log', '-1', '--format=%an <%ae>|%s'], env)).toBe(
      'Ada <ada@gitmem.local>|Ada likes green tea',
    );
    expect(memory.defaultPromptMode()).toBe('local-memfs');
    await memory.remote.set(remote);
    expect(memory.defaultPromptMode()).toBe('memfs');
    const after = await memory.syncAfterTurn();
    expect(after.status).toBe('pushed');
    expect(git(remote, ['log', '-1', '--format=%s', 'main'], env)).toBe('Ada likes green tea');
    expect((await memory.sync()).status).toBe('clean');
    expect((await memory.remote.show()).url).toBe(remote);
  });

  it('mirrors, lists kept branches and the protected list', async () => {
    const mirror = join(makeTmpDir('gitmem-mirror-'), 'mirror.git');
    git(home, ['init', '-q', '--bare', '-b', 'main', mirror], env);
    const set = await memory.mirror.set(mirror);
    expect(set.initialPush?.ok).toBe(true);
    expect((await memory.mirror.status()).url).toBe(mirror);
    expect((await memory.mirror.unset()).removed).toBe(mirror);
    expect(await memory.conflicts.list()).toEqual([]);
    expect(await memory.protection.list()).toEqual([]);
  });

  it('runs and starts background writers and prunes none while none is orphaned', async () => {
    const body = (file: string) => async (ctx: { worktreeDir: string }) => {
      const { writeFileSync, mkdirSync } = await import('node:fs');
      mkdirSync(join(ctx.worktreeDir, 'notes'), { recursive: true });
      writeFileSync(join(ctx.worktreeDir, 'notes', file), '---\ndescription: w\n---\nfrom a worker\n');
      git(ctx.worktreeDir, ['add', '-A'], env);
      git(ctx.worktreeDir, ['commit', '-q', '-m', `worker wrote ${file}`], env);
    };
    const ran = await memory.runWorker({ description: 'one', body: body('w1.md') });
    expect(ran.status).toBe('merged');
    const started = memory.startWorker({ description: 'two', body: body('w2.md') });
    expect((await started.outcome).status).toBe('merged');
    expect((await memory.pruneWorkers()).pruned).toEqual([]);
    expect(git(memory.memoryDir, ['ls-files', 'notes'], env).split('\n')).toEqual([
      'notes/tea.md',
      'notes/w1.md',
      'notes/w2.md',
    ]);
  });

  it(
    'reflects with the handle wiring: reflectNow runs on the recorded turns and reports its outcome',
    { tags: ['sandbox'] },
    async () => {
      const h = memory.reflection({ model: scripted([{ text: 'Nothing worth keeping.' }]), run: { maxRetries: 0 } });
      h.recordTurn('c1', [
        { kind: 'user', text: 'hi' },
        { kind: 'assistant', text: 'hello' },
      ]);
      const launch = h.reflectNow('c1');
      expect(launch.state).toBe('started');
      expect(await launch.done).toMatchObject({ launched: true, status: 'no_changes' });
      await h.idle();
    },
  );
});
