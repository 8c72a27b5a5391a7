// memory.watch(): one event per move of main, whoever moved it — a tool write, a raw shell commit, a worker
// merge (real bubblewrap), a sync pull from a bare remote — and a clean close (the process can exit).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryUpdatedEvent } from '../../../src/read/types.js';
import type { MemoryWatcher } from '../../../src/read/watch.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let fx: MemoryFixture;
let w: MemoryWatcher;
const g = (args: string[], cwd = fx.dir): string => git(cwd, args, fx.env);
const head = (): string => g(['rev-parse', 'HEAD']);
const seen: MemoryUpdatedEvent[] = [];

beforeAll(async () => {
  fx = await memoryFixture('watcher');
  w = fx.memory.watch({ pollMs: 200 });
  w.on('memory_updated', (e) => seen.push(e));
  await w.ready;
});
afterAll(() => {
  w?.close();
  cleanupTmp();
});

/** The next event from the iterator: it must be the move to the current head, and the only one. */
async function nextMove(previous: string): Promise<MemoryUpdatedEvent> {
  const r = await w.next();
  expect(r.done).toBe(false);
  const e = r.value as MemoryUpdatedEvent;
  expect(e).toMatchObject({ type: 'memory_updated', commit: head(), previous });
  expect(Number.isNaN(Date.parse(e.timestamp))).toBe(false);
  return e;
}

describe('watch()', () => {
  it('reports a tool write once, with the files it changed', async () => {
    const before = head();
    await fx.memory.tool({
      command: 'create',
      reason: 'watched write',
      file_path: 'notes/w.md',
      description: 'w',
      file_text: 'w',
    });
    const e = await nextMove(before);
    expect(e).toMatchObject({ writer: 'agent', affected_paths: ['notes/w.md'] });
  });

  it('reports a raw shell commit once', async () => {
    const before = head();
    writeFileSync(join(fx.dir, 'notes', 'w.md'), '---\ndescription: w\n---\nby hand\n');
    g(['commit', '-qam', 'by hand']);
    expect(await nextMove(before)).toMatchObject({ writer: 'shell', affected_paths: ['notes/w.md'] });
  });

  it('reports a worker merge once', { tags: ['sandbox'] }, async () => {
    const before = head();
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir: fx.dir,
      gitmemHome: fx.home,
      command:
        "printf -- '---\\ndescription: from a worker\\n---\\nhi\\n' > system/worker.md && git add -A && git commit -qm 'worker learned'",
      env: fx.env,
      git: createGitRunner({ env: fx.env }),
      onWarning: () => undefined,
    });
    expect(outcome.status).toBe('merged');
    expect(await nextMove(before)).toMatchObject({ writer: 'worker', affected_paths: ['system/worker.md'] });
    const [merge, ...rest] = await fx.memory.history({ limit: 3 });
    expect([merge?.writer, merge?.files]).toEqual(['worker', [{ status: 'A', path: 'system/worker.md' }]]);
    expect(rest.map((e) => e.reason)).toContain('worker learned');
  });

  it('reports a sync pull once', async () => {
    const runner = createGitRunner({ env: fx.env });
    const remote = join(makeTmpDir('gitmem-watch-remote-'), 'mem.git');
    g(['init', '-q', '--bare', '-b', 'main', remote], fx.home);
    await setRemote({ git: runner, memoryDir: fx.dir, url: remote });
    expect((await syncMemory({ git: runner, memoryDir: fx.dir })).status).toBe('pushed');
    const other = join(makeTmpDir('gitmem-watch-other-'), 'memory');
    g(['clone', '-q', remote, other], fx.home);
    writeFileSync(join(other, 'remote.md'), '---\ndescription: from elsewhere\n---\nr\n');
    g(['add', '-A'], other);
    g(['commit', '-qm', 'another machine'], other);
    g(['push', '-q', 'origin', 'main'], other);
    const before = head();
    expect((await syncMemory({ git: runner, memoryDir: fx.dir })).status).not.toBe('conflict');
    expect(await nextMove(before)).toMatchObject({ writer: 'sync', affected_paths: ['remote.md'] });
  });

  it('delivered every move exactly once to the emitter too, and ends iteration on close', async () => {
    const commits = seen.map((e) => e.commit);
    expect(new Set(commits).size).toBe(commits.length);
    expect(commits.at(-1)).toBe(head());
    const pending = w.next();
    w.close();
    expect(await pending).toEqual({ value: undefined, done: true });
  });

  it('leaves nothing behind that keeps a process alive', async () => {
    const script = `
      import { createMemory } from './src/index.ts';
      const m = await createMemory({ home: ${JSON.stringify(fx.home)}, agentId: 'watcher' });
      const w = m.watch({ pollMs: 50 });
      await w.ready;
      console.log('ready');
      for await (const e of w) { console.log('event', e.commit); break; }
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: fx.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes('ready') && resolve())),
    );
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'wake the child',
      file_path: 'notes/child.md',
      description: 'c',
      file_text: 'c',
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    clearTimeout(guard);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toBe(`ready\nevent ${r.commit}\n`);
  }, 30_000);
});
