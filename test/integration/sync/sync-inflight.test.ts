/**
 * A sync that starts while a memory-tool write is in flight (its files already in the work tree, HEAD and
 * the index not yet moved) waits for it instead of reporting the write as the user's uncommitted work, and
 * never loses a write; a write a killed process left half-done is finished, not reported as dirty.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { syncAfterTurn } from '../../../src/sync/after-turn.js';
import { setRemote } from '../../../src/sync/remote.js';
import { syncMemory } from '../../../src/sync/sync.js';
import type { SyncResult } from '../../../src/sync/types.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { handleGit } from '../../../src/internals.js';

afterAll(cleanupTmp);

async function withRemote(): Promise<Awaited<ReturnType<typeof memoryFixture>> & { bare: string }> {
  const fx = await memoryFixture();
  const bare = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  git(fx.home, ['init', '-q', '--bare', '-b', 'main', bare], fx.env);
  await setRemote({ git: handleGit(fx.memory), memoryDir: fx.dir, url: bare });
  return { ...fx, bare };
}

describe('sync during in-flight tool writes', () => {
  it('sync and the post-turn sync racing 30 tool writes never report dirty and never lose a write', async () => {
    const fx = await withRemote();
    const runner = createGitRunner({ env: fx.env });
    let writing = true;
    const writes = (async () => {
      try {
        for (let i = 0; i < 30; i++) {
          await fx.memory.tool({
            command: 'create',
            reason: `note ${i}`,
            file_path: `notes/n${i}.md`,
            description: `n${i}`,
            file_text: `n${i}`,
          });
        }
      } finally {
        writing = false;
      }
    })();
    const results: SyncResult[] = [];
    const syncs = (async () => {
      for (let round = 0; writing; round++) {
        const sync = round % 2 === 0 ? syncMemory : syncAfterTurn;
        results.push(await sync({ git: runner, memoryDir: fx.dir }));
      }
    })();
    await Promise.all([writes, syncs]);
    results.push(await syncMemory({ git: runner, memoryDir: fx.dir }));
    const bad = results.filter((r) => !['pushed', 'clean'].includes(r.status));
    expect(bad.map((r) => `${r.status}: ${r.summary}`)).toEqual([]);
    expect(results.length).toBeGreaterThan(3);
    expect(git(fx.bare, ['rev-parse', 'main'], fx.env)).toBe(git(fx.dir, ['rev-parse', 'HEAD'], fx.env));
    expect(git(fx.bare, ['ls-tree', '-r', '--name-only', 'main', 'notes'], fx.env).split('\n')).toHaveLength(30);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  }, 120_000);

  it('a write a killed process left half-done is finished by the sync, not reported as dirty', async () => {
    const fx = await withRemote();
    // A writer that SIGKILLs itself right after its files were written (before the index and HEAD move).
    const crasher = `
const { createMemory } = await import(process.argv[1]);
const [home] = process.argv.slice(2);
const memory = await createMemory({ home, agentId: 'agent-1', onWriteStep: (s) => { if (s === 'files') process.kill(process.pid, 'SIGKILL'); } });
await memory.tool({ command: 'create', reason: 'half', file_path: 'notes/half.md', description: 'half', file_text: 'half' });
`;
    const signal = await new Promise<string | null>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--input-type=module', '-e', crasher, join(process.cwd(), 'dist/index.js'), fx.home],
        { env: fx.env, stdio: 'ignore' },
      );
      child.on('close', (_code, sig) => resolve(sig));
    });
    expect(signal).toBe('SIGKILL');
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).not.toBe('');
    const r = await syncMemory({ git: createGitRunner({ env: fx.env }), memoryDir: fx.dir });
    expect(`${r.status}: ${r.summary}`).toMatch(/^pushed/);
    expect(git(fx.bare, ['show', 'main:notes/half.md'], fx.env)).toContain('half');
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  });

  it('real uncommitted edits are still reported as dirty', async () => {
    const fx = await withRemote();
    writeFileSync(join(fx.dir, 'system', 'human.md'), '---\ndescription: edited by hand\n---\nx\n');
    const r = await syncMemory({ git: createGitRunner({ env: fx.env }), memoryDir: fx.dir });
    expect(r).toMatchObject({ status: 'dirty', summary: '1 uncommitted memory change(s).' });
  });
});
