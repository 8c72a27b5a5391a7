// Recovery after a power loss: the states a crash can leave once objects and the journal share one flush,
// the files' directories are flushed alongside the ref, and the index and the ref are flushed after git
// renames them (a rename kept with its text lost: a torn ref or index, repaired). A journal whose objects did not survive is
// abandoned (a missing blob never reads as "delete the file"); a ref that survived without the files'
// renames gets its files back. And a recovered write is as durable as a normal one, in the same order.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { at, renamedTo, synced, syncedPath, tracedWrite } from '../../helpers/strace-trace.js';

afterAll(cleanupTmp);

// A writer that edits notes/a.md and kills itself (SIGKILL) right after the journal is on disk.
const CRASHER = `
const { createMemory } = await import(process.argv[1]);
const [home, agent] = process.argv.slice(2);
const memory = await createMemory({ home, agentId: agent, onWriteStep: (s) => { if (s === 'journaled') process.kill(process.pid, 'SIGKILL'); } });
await memory.tool({ command: 'str_replace', reason: 'crashed edit', file_path: 'notes/a.md', old_string: 'alpha', new_string: 'omega' });
`;

function crashAfterJournal(fx: MemoryFixture): Promise<string | null> {
  const index = join(process.cwd(), 'dist/index.js');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', CRASHER, index, fx.home, 'agent-1'], {
      env: fx.env,
      stdio: 'ignore',
    });
    child.on('close', (_code, signal) => resolve(signal));
  });
}

interface Journal {
  commit: string;
  parent: string;
  index: Array<{ path: string; mode: string | null; id: string }>;
}

async function crashedFixture(): Promise<{ fx: MemoryFixture; journal: Journal; parent: string }> {
  const fx = await memoryFixture();
  await fx.memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/a.md',
    description: 'a',
    file_text: 'alpha',
  });
  const parent = git(fx.dir, ['rev-parse', 'HEAD']);
  expect(await crashAfterJournal(fx)).toBe('SIGKILL');
  const journal = JSON.parse(readFileSync(join(fx.dir, '.git', 'gitmem-write.json'), 'utf8')) as Journal;
  expect(journal.parent).toBe(parent);
  return { fx, journal, parent };
}

const looseFile = (fx: MemoryFixture, id: string): string =>
  join(fx.dir, '.git', 'objects', id.slice(0, 2), id.slice(2));

/** The next write lands after the crashed one, which recovery finished: its text in place, a clean, sound repo. */
async function expectNextWriteFinishesIt(fx: MemoryFixture): Promise<void> {
  await fx.memory.tool({ command: 'create', reason: 'next write', file_path: 'notes/next.md', description: 'n' });
  expect(git(fx.dir, ['log', '--format=%s', '-n2']).split('\n')).toEqual(['next write', 'crashed edit']);
  expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('omega');
  expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  git(fx.dir, ['fsck', '--strict', '--no-progress', '--no-dangling']);
}

describe('recovery after a power loss', () => {
  it('abandons a journal whose new blob did not survive, leaving the file as it was', async () => {
    const { fx, journal, parent } = await crashedFixture();
    const blob = journal.index.find((e) => e.path === 'notes/a.md')?.id ?? '';
    rmSync(looseFile(fx, blob)); // the entry's rename survived the power loss, the blob's did not
    const r = await fx.memory.tool({
      command: 'create',
      reason: 'next write',
      file_path: 'notes/next.md',
      description: 'n',
    });
    expect(git(fx.dir, ['rev-parse', 'HEAD~1'])).toBe(parent);
    expect(r.commit).toBe(git(fx.dir, ['rev-parse', 'HEAD']));
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    expect(git(fx.dir, ['fsck', '--strict', '--no-progress', '--no-dangling', '--connectivity-only'])).toBe('');
  });

  it('abandons a journal whose commit did not survive, leaving the file as it was', async () => {
    const { fx, journal, parent } = await crashedFixture();
    rmSync(looseFile(fx, journal.commit));
    await fx.memory.tool({ command: 'create', reason: 'next write', file_path: 'notes/next.md', description: 'n' });
    expect(git(fx.dir, ['rev-parse', 'HEAD~1'])).toBe(parent);
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('alpha');
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('puts the files back when the ref survived and their renames did not', async () => {
    const { fx, journal } = await crashedFixture();
    // The ref's rename reached the disk, the work file's did not: HEAD at the commit, the old text in place.
    writeFileSync(join(fx.dir, '.git', 'refs', 'heads', 'main'), `${journal.commit}\n`);
    await expectNextWriteFinishesIt(fx);
  });

  // git renames the ref and the index into place unflushed; the write flushes them (with their directories)
  // before it is acknowledged, so until then a power loss can keep a rename and lose the text under it.
  it('repairs a ref that kept its rename and lost its text, finishing the write', async () => {
    const { fx } = await crashedFixture();
    writeFileSync(join(fx.dir, '.git', 'refs', 'heads', 'main'), ''); // renamed in, its text never reached the disk
    await expectNextWriteFinishesIt(fx);
  });

  it('never points a torn ref at a commit the store lacks', async () => {
    const { fx, journal } = await crashedFixture();
    const ref = join(fx.dir, '.git', 'refs', 'heads', 'main');
    writeFileSync(ref, '');
    rmSync(looseFile(fx, journal.commit));
    await fx.memory
      .tool({ command: 'create', reason: 'next write', file_path: 'notes/next.md', description: 'n' })
      .catch(() => undefined);
    expect(readFileSync(ref, 'utf8')).not.toContain(journal.commit);
  });

  for (const ref of ['parent', 'commit'] as const) {
    it(`rebuilds an index that kept its rename and lost its text (HEAD at the ${ref})`, async () => {
      const { fx, journal, parent } = await crashedFixture();
      writeFileSync(join(fx.dir, '.git', 'refs', 'heads', 'main'), `${ref === 'parent' ? parent : journal.commit}\n`);
      const index = join(fx.dir, '.git', 'index');
      writeFileSync(index, readFileSync(index).subarray(0, 40)); // torn: a header and part of an entry
      await expectNextWriteFinishesIt(fx);
    });
  }
});

describe('repairing a torn index', () => {
  it('keeps the torn index in place when the rebuild fails (never leaves no index at all)', async () => {
    const { repairTornIndex } = await import('../../../src/memfs/recover-torn.js');
    const { createGitRunner } = await import('../../../src/git/runner.js');
    const fx = await memoryFixture();
    const index = join(fx.dir, '.git', 'index');
    writeFileSync(index, readFileSync(index).subarray(0, 40));
    const real = createGitRunner({ env: fx.env });
    const failing = {
      ...real,
      run: (args: string[], o: Parameters<typeof real.run>[1]) =>
        args[0] === 'read-tree' ? Promise.reject(new Error('killed')) : real.run(args, o),
    };
    await expect(repairTornIndex(failing, fx.dir, git(fx.dir, ['rev-parse', 'HEAD']), [], false)).rejects.toThrow(
      'killed',
    );
    expect(existsSync(index)).toBe(true);
    expect(await repairTornIndex(real, fx.dir, git(fx.dir, ['rev-parse', 'HEAD']), [], false)).toBe(true);
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });
});

describe('a recovered write', { tags: ['strace'] }, () => {
  it('is flushed like a normal write: objects and file before their renames, index and ref after git renames them, directories after', async () => {
    const { fx, journal } = await crashedFixture();
    const ev = tracedWrite(fx.env, 'notes/next.md'); // the next write finishes the crashed one first
    const gitDir = join(fx.dir, '.git');
    const nextJournal = at(ev, renamedTo(/\/gitmem-write\.json$/)); // the next write's own entry
    expect(git(fx.dir, ['log', '--format=%s', '-n2']).split('\n')).toEqual(['durable write', 'crashed edit']);
    const commitSync = at(ev, syncedPath(looseFile(fx, journal.commit)));
    const fileSync = at(ev, synced(/\/notes\/\.gitmem-tmp-/), commitSync);
    const fileRename = at(ev, renamedTo(/\/a\.md$/), fileSync);
    for (const d of [fx.dir, join(fx.dir, 'notes')])
      expect(at(ev, syncedPath(d), fileRename)).toBeLessThan(nextJournal);
    const indexRename = at(ev, renamedTo(/\/\.git\/index$/), fileRename);
    const refRename = at(ev, renamedTo(/\/\.git\/refs\/heads\/main$/), fileRename);
    for (const p of ['index', '']) expect(at(ev, syncedPath(join(gitDir, p)), indexRename)).toBeLessThan(nextJournal);
    for (const p of ['refs/heads/main', 'refs/heads'])
      expect(at(ev, syncedPath(join(gitDir, p)), refRename)).toBeLessThan(nextJournal);
    expect(readFileSync(join(fx.dir, 'notes/a.md'), 'utf8')).toContain('omega');
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });
});

describe('a write refused after its temp files were written', () => {
  it('leaves no temp file behind: objects, journal entry, staged text', async () => {
    const fx = await memoryFixture();
    await fx.memory.tool({
      command: 'create',
      reason: 'seed',
      file_path: 'notes/a.md',
      description: 'a',
      file_text: 'alpha',
    });
    writeFileSync(join(fx.dir, 'notes/a.md'), 'edited by hand\n'); // the clean check refuses the next write
    const err = await fx.memory
      .tool({ command: 'create', reason: 'refused', file_path: 'notes/b.md', description: 'b', file_text: 'beta' })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('REPO_DIRTY');
    const gitDir = join(fx.dir, '.git');
    const objects = join(gitDir, 'objects');
    const temps = readdirSync(objects).flatMap((d) =>
      /^[0-9a-f]{2}$/.test(d) ? readdirSync(join(objects, d)).filter((n) => n.startsWith('tmp_obj_')) : [],
    );
    expect(temps).toEqual([]);
    expect(existsSync(join(gitDir, 'gitmem-staged')) ? readdirSync(join(gitDir, 'gitmem-staged')) : []).toEqual([]);
    expect(existsSync(join(gitDir, 'gitmem-write.json.tmp'))).toBe(false);
    expect(existsSync(join(gitDir, 'gitmem-write.json'))).toBe(false);
  });
});

describe('the staging directory', () => {
  it('a link planted as .git/gitmem-staged is never written through or swept: the write stages nothing and succeeds', async () => {
    const { symlinkSync, mkdirSync: mkdir } = await import('node:fs');
    const fx = await memoryFixture();
    const outside = join(fx.home, 'outside');
    mkdir(outside);
    writeFileSync(join(outside, 'keep.txt'), "not gitmem's\n");
    rmSync(join(fx.dir, '.git', 'gitmem-staged'), { recursive: true, force: true });
    symlinkSync(outside, join(fx.dir, '.git', 'gitmem-staged'));
    await fx.memory.tool({
      command: 'create',
      reason: 'through a link?',
      file_path: 'notes/x.md',
      description: 'x',
      file_text: 'secret text',
    });
    await fx.memory.tool({ command: 'create', reason: 'and a sweep', file_path: 'notes/y.md', description: 'y' });
    expect(readdirSync(outside)).toEqual(['keep.txt']);
    expect(readFileSync(join(fx.dir, 'notes/x.md'), 'utf8')).toContain('secret text');
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('a file or a dangling link planted as .git/gitmem-staged: writes stage nothing and still succeed', async () => {
    const { symlinkSync } = await import('node:fs');
    for (const plant of ['file', 'dangling link'] as const) {
      const fx = await memoryFixture();
      const staged = join(fx.dir, '.git', 'gitmem-staged');
      rmSync(staged, { recursive: true, force: true });
      if (plant === 'file') writeFileSync(staged, 'not a directory\n');
      else symlinkSync(join(fx.home, 'nowhere'), staged);
      await fx.memory.tool({
        command: 'create',
        reason: `past a ${plant}`,
        file_path: 'notes/x.md',
        description: 'x',
        file_text: 'kept',
      });
      await fx.memory.tool({ command: 'create', reason: 'again', file_path: 'notes/y.md', description: 'y' });
      expect(readFileSync(join(fx.dir, 'notes/x.md'), 'utf8')).toContain('kept');
      expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    }
  });
});
