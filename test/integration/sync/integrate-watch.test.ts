/**
 * `gitmem integrate --watch` as an operator runs it: the built CLI as a child process with a short interval against
 * a loopback (bare) remote; writers push their refs, main moves, and SIGTERM stops it cleanly — exit 0, the round
 * under way finished, a wait for a push slot cut short with its merges undone, nothing half-done in the checkout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { GITMEM_BIN } from '../../helpers/cli.js';
import { createNote } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-watch-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  cleanupTmp();
});

async function setup(pushesPerMinute: number) {
  const remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const home = makeTmpDir('gitmem-integrator-');
  writeFileSync(join(home, 'config'), JSON.stringify({ sync: { pushesPerMinute } }));
  const made = await initMemory({ home, agentId: 'ada', env, git: runner });
  const integrator = await createMemory({ home, agentId: 'ada', env, git: runner });
  await integrator.remote.set(remote);
  expect((await integrator.sync()).status).toBe('pushed');
  const writers = [];
  for (const machine of ['m1', 'm2']) {
    const wHome = makeTmpDir(`gitmem-w-${machine}-`);
    writeFileSync(join(wHome, 'config'), JSON.stringify({ sync: { mode: 'writer-refs', machine } }));
    await cloneMemory({ git: runner, home: wHome, url: remote, agentId: 'ada' });
    writers.push({ machine, memory: await createMemory({ home: wHome, agentId: 'ada', env, git: runner }) });
  }
  return { remote, home, dir: made.memoryDir, writers };
}

function startWatch(home: string) {
  const child = spawn(process.execPath, [GITMEM_BIN, 'integrate', '--watch', '--interval', '1', '--agent', 'ada'], {
    env: { ...env, GITMEM_HOME: home, GITMEM_DAEMON: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => void (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => void (err += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, exited, out: () => out, err: () => err };
}

async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The integrator's checkout holds nothing half-done: clean, no merge, no operation lock, main where the remote's is. */
function expectSettled(dir: string, remote: string): void {
  expect(g(dir, ['status', '--porcelain'])).toBe('');
  expect(existsSync(join(dir, '.git', 'MERGE_HEAD'))).toBe(false);
  expect(existsSync(join(dir, '.git', 'gitmem-operation.lock'))).toBe(false);
  expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(false);
  expect(g(dir, ['rev-parse', 'HEAD'])).toBe(g(remote, ['rev-parse', 'main']));
}

describe('gitmem integrate --watch (the built CLI, a child process)', () => {
  it('merges writer refs as they come, round after round, and stops on SIGTERM with exit 0', async () => {
    const s = await setup(600);
    const watch = startWatch(s.home);
    await until('a first round', () => watch.out().includes('clean:'));
    for (const w of s.writers) {
      await w.memory.tool(createNote(`notes/${w.machine}.md`));
      expect((await w.memory.sync()).status).toBe('pushed');
      await until(`${w.machine} on main`, () =>
        g(s.remote, ['ls-tree', '-r', '--name-only', 'main']).includes(`notes/${w.machine}.md`),
      );
    }
    expect(watch.out()).toMatch(/integrated: 1 writer ref\(s\) merged/);
    watch.child.kill('SIGTERM');
    expect(await watch.exited).toBe(0);
    expect(watch.err()).toContain('integrate --watch: stopped');
    expectSettled(s.dir, s.remote);
  }, 90_000);

  it('SIGTERM during a wait for a push slot: exits at once, the merges undone, main unmoved', async () => {
    const s = await setup(1);
    const [m1, m2] = s.writers;
    await m1!.memory.tool(createNote('notes/one.md'));
    expect((await m1!.memory.sync()).status).toBe('pushed');
    const watch = startWatch(s.home);
    await until('the first push', () => watch.out().includes('integrated:'));
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    // The next round merges m2 and then waits about a minute for the rate's next slot.
    await m2!.memory.tool(createNote('notes/two.md'));
    expect((await m2!.memory.sync()).status).toBe('pushed');
    // (m2's ref descends from main: its merge is a fast-forward of the integrator's main.)
    await until('the merge waiting for its slot', () => g(s.dir, ['rev-parse', 'HEAD']) !== mainBefore);
    expect(g(s.dir, ['show', 'HEAD:notes/two.md'])).toContain('two');
    const sent = Date.now();
    watch.child.kill('SIGTERM');
    expect(await watch.exited).toBe(0);
    expect(Date.now() - sent).toBeLessThan(20_000);
    expect(watch.out()).toContain('deferred:');
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore);
    expectSettled(s.dir, s.remote);
    expect(g(s.remote, ['show', 'refs/heads/writers/ada/m2:notes/two.md'])).toContain('two');
  }, 90_000);
});
