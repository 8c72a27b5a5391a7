/**
 * The fast paths' switch (src/fast-paths.ts): with GITMEM_FAST_PATHS=0 a tool write, its clean check, a
 * background writer's cycle and a streamed launcher job take the plain git path (no fast path is entered),
 * and they leave the same trees and history as with the fast paths on, which do enter theirs.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FAST_PATHS, fastPathEntries, resetFastPathEntries, type FastPathName } from '../../../src/fast-paths.js';
import { closeWatchedCleanChecks, watchedCleanCheckFor } from '../../../src/memfs/fsmonitor/registry.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(() => {
  closeWatchedCleanChecks();
  cleanupTmp();
});

const NAMES = Object.keys(FAST_PATHS) as FastPathName[];
const counts = (): Record<string, number> => Object.fromEntries(NAMES.map((n) => [n, fastPathEntries(n)]));

/** The same writes, a worker cycle and a streamed job in a fresh memory; what they left and which fast paths they entered. */
async function session(switchValue: '0' | '1') {
  const home = makeTmpDir('gitmem-fastpaths-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home, GITMEM_FAST_PATHS: switchValue };
  await initMemory({ home, agentId: 'a', env });
  const dir = join(home, 'agents', 'a', 'memory');
  // The watcher from the first write on, whatever the repository's size (it waits for ~5,000 files otherwise).
  const check = watchedCleanCheckFor(dir, { minFiles: 0, startAtCheck: 1, env });
  const memory = await createMemory({ home, agentId: 'a', env });
  resetFastPathEntries();
  const create = (path: string): Promise<unknown> =>
    memory.tool({
      command: 'create',
      reason: `add ${path}`,
      file_path: path,
      description: 'a note',
      file_text: `text of ${path}\n`,
    });
  await create('notes/one.md');
  await check.currentWatcher?.whenReady();
  for (const n of ['two', 'three', 'four']) await create(`notes/${n}.md`);
  const outcome = await memory.runWorker({
    description: 'one worker cycle',
    body: async (ctx) => {
      mkdirSync(join(ctx.worktreeDir, 'notes'), { recursive: true });
      writeFileSync(join(ctx.worktreeDir, 'notes', 'worker.md'), '---\ndescription: w\n---\nfrom a worker\n');
      // With the worker's git environment: its objects go to its private object directory, as a writer's do.
      git(ctx.worktreeDir, ['add', '-A'], { ...env, ...ctx.gitEnv });
      git(ctx.worktreeDir, ['commit', '-q', '-m', 'worker wrote a note'], { ...env, ...ctx.gitEnv });
    },
  });
  expect(outcome.status).toBe('merged');
  // A read after the writes: the committed reader (the objectReads fast path; the write path asks git).
  expect(await memory.read('notes/worker.md')).toMatchObject({ path: 'notes/worker.md' });
  // A job whose input (on fd 3) is held for later: streamed through FIFOs by the launcher, or spawned plainly.
  const streamed = await sharedShellLauncher()('sh', ['-c', 'cat <&3'], {
    cwd: home,
    env,
    heldInput: Promise.resolve('held input\n'),
  });
  expect(streamed.stdout).toBe('held input\n');
  return {
    entries: counts(),
    tree: git(dir, ['rev-parse', 'HEAD^{tree}'], env),
    files: git(dir, ['ls-files'], env),
    // Each commit's subject, tree, author and parent count (dates and worker ids differ between the runs, so commit ids do too).
    history: git(dir, ['log', '--topo-order', '--format=%s|%T|%an <%ae>|%P'], env)
      .split('\n')
      .map((l) =>
        l
          .replace(/\|[0-9a-f ]*$/, (parents) => `|${parents.split(' ').length} parent(s)`)
          .replace(/(gitmem\/worker\/)[0-9a-f-]+/, '$1<id>'),
      ),
  };
}

describe('GITMEM_FAST_PATHS', () => {
  it('0 takes every plain path and leaves what the fast paths leave; on, the fast paths are entered', async () => {
    const fast = await session('1');
    expect(fast.entries['watcher']).toBeGreaterThan(0);
    expect(fast.entries['writerPack']).toBeGreaterThan(0);
    expect(fast.entries['streamedJobs']).toBeGreaterThan(0);
    expect(fast.entries['objectReads']).toBeGreaterThan(0);
    closeWatchedCleanChecks();

    const plain = await session('0');
    expect(plain.entries).toEqual(Object.fromEntries(NAMES.map((n) => [n, 0])));
    expect(plain.tree).toBe(fast.tree);
    expect(plain.files).toBe(fast.files);
    expect(plain.history).toEqual(fast.history);
  });

  it('reads off for 0/false/no/off only', async () => {
    const { loadConfig } = await import('../../../src/config.js');
    for (const v of ['0', 'false', 'NO', ' off '])
      expect(loadConfig({ env: { GITMEM_FAST_PATHS: v } }).fastPaths).toBe(false);
    for (const v of [undefined, '', '1', 'on', 'yes'])
      expect(loadConfig({ env: v === undefined ? {} : { GITMEM_FAST_PATHS: v } }).fastPaths).toBe(true);
  });
});
