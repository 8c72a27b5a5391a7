// The prompt's read cache (read/read-snapshot.ts, read/read-cache-file.ts): keyed by content, so a hand edit
// committed from a shell shows in the prompt and the tree; a deleted, truncated, corrupted or hostile cache
// file gives the same answer as no cache (and is rebuilt); a read at a new commit reads only changed blobs.
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { loadReadCache, readCachePath } from '../../../src/read/read-cache-file.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

/** A fresh copy of gitmem (no state kept in the process), opened on the fixture's agent. */
async function freshMemory(home: string, env: Record<string, string>, runner?: GitRunner) {
  vi.resetModules();
  const { createMemory } = await import('../../../src/memory.js');
  return createMemory({ home, agentId: 'agent-1', env, ...(runner ? { git: runner } : {}) });
}

/** A runner that records the subcommand of every git call. */
function countingRunner(env: Record<string, string>): { runner: GitRunner; calls: string[] } {
  const inner = createGitRunner({ env });
  const calls: string[] = [];
  const runner: GitRunner = {
    ...inner,
    secrets: inner.secrets,
    run: (args, o) => (calls.push(args[0] ?? ''), inner.run(args, o)),
    exec: (op, o) => (calls.push(op.args[0] ?? ''), inner.exec(op, o)),
    detach: (args, o) => inner.detach(args, o),
  };
  return { runner, calls };
}

function shellCommit(dir: string, env: Record<string, string>, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '-m', 'by hand'], env);
}

describe('the read cache', () => {
  it('shows a hand edit committed from a shell in the prompt and the tree', async () => {
    const f = await memoryFixture();
    shellCommit(f.dir, f.env, { 'notes/a.md': '---\ndescription: first words\n---\nold\n' });
    const memory = await freshMemory(f.home, f.env);
    expect(await memory.compilePrompt()).toContain('a.md — first words');
    expect(await memory.tree()).toContain('a.md — first words');
    const human = readFileSync(join(f.dir, 'system/human.md'), 'utf8');
    shellCommit(f.dir, f.env, {
      'notes/a.md': '---\ndescription: second words\n---\nnew\n',
      'system/human.md': `${human.trimEnd()}\nLikes tea.\n`,
    });
    const prompt = await memory.compilePrompt();
    expect(prompt).toContain('a.md — second words');
    expect(prompt).not.toContain('first words');
    expect(prompt).toContain('Likes tea.');
    expect(await memory.tree()).toContain('a.md — second words');
    // A fresh process reading the cache file sees the same.
    expect(await (await freshMemory(f.home, f.env)).compilePrompt()).toBe(prompt);
  });

  it('gives the same answer with the cache deleted, truncated, corrupted or replaced', async () => {
    const f = await memoryFixture();
    shellCommit(f.dir, f.env, {
      'notes/b.md': '---\ndescription: truthful\n---\nb\n',
      'skills/s/SKILL.md': '---\nname: s\ndescription: does s\n---\n',
    });
    const commonDir = join(f.dir, '.git');
    const file = readCachePath(commonDir);
    rmSync(join(commonDir, 'gitmem'), { recursive: true, force: true });
    const memory = await freshMemory(f.home, f.env);
    const truth = { prompt: await memory.compilePrompt(), tree: await memory.tree() };
    expect(truth.prompt).toContain('b.md — truthful');
    expect(truth.prompt).toContain('- s: does s');
    const good = readFileSync(file, 'utf8');
    const spoiled: Array<[string, () => void]> = [
      ['deleted', () => rmSync(file)],
      ['truncated', () => writeFileSync(file, good.slice(0, Math.floor(good.length / 2)))],
      ['a description changed in place', () => writeFileSync(file, good.replace('truthful', 'liarliar'))],
      ['not JSON', () => writeFileSync(file, `${good.split('\n')[0]}\n{nope`)],
      ['empty', () => writeFileSync(file, '')],
      ['a directory', () => (rmSync(file), mkdirSync(file))],
      ['a FIFO', () => (rmSync(file, { recursive: true }), execFileSync('mkfifo', [file]))],
      [
        'a link to the truth of another file',
        () => (
          rmSync(file),
          writeFileSync(`${file}.x`, good.replace('truthful', 'liarliar')),
          symlinkSync(`${file}.x`, file)
        ),
      ],
    ];
    for (const [name, spoil] of spoiled) {
      rmSync(file, { recursive: true, force: true });
      writeFileSync(file, good);
      spoil();
      const again = await freshMemory(f.home, f.env);
      expect({ name, prompt: await again.compilePrompt(), tree: await again.tree() }).toEqual({ name, ...truth });
    }
    rmSync(file, { recursive: true, force: true });
    await (await freshMemory(f.home, f.env)).compilePrompt();
    expect(loadReadCache(commonDir)?.commit).toBe(git(f.dir, ['rev-parse', 'HEAD'], f.env)); // rebuilt
  });

  it('reads only what changed at a new commit', async () => {
    const f = await memoryFixture();
    const bulk: Record<string, string> = {};
    for (let i = 0; i < 40; i++) bulk[`bulk/f${i}.md`] = `---\ndescription: file ${i}\n---\n${i}\n`;
    shellCommit(f.dir, f.env, bulk);
    git(f.dir, ['gc', '-q', '--prune=now'], f.env); // every object packed: the git fallbacks are used
    const { runner, calls } = countingRunner(f.env);
    const memory = await freshMemory(f.home, f.env, runner);
    await memory.compilePrompt();
    calls.length = 0;
    await memory.tool({
      command: 'create',
      reason: 'new note',
      file_path: 'notes/n.md',
      description: 'fresh note',
      file_text: 'x',
    });
    calls.length = 0;
    expect(await memory.compilePrompt()).toContain('n.md — fresh note');
    expect(await memory.tree()).toContain('n.md — fresh note');
    expect(calls).toEqual(['diff-tree']); // the packed old tree asks git for the diff; the new blob is loose
    shellCommit(f.dir, f.env, { 'bulk/f3.md': '---\ndescription: changed three\n---\n3\n' });
    git(f.dir, ['gc', '-q', '--prune=now'], f.env);
    const fresh = await freshMemory(f.home, f.env, runner); // from the cache file
    calls.length = 0;
    expect(await fresh.compilePrompt()).toContain('f3.md — changed three');
    expect(calls).toEqual(['diff-tree', 'cat-file']);
    calls.length = 0;
    await fresh.compilePrompt();
    await fresh.tree();
    expect(calls).toEqual([]); // same commit: nothing read at all
  });
});
