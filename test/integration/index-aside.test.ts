/**
 * A watched write's index update made aside (memfs/index-aside.ts): under git's own index.lock, on a copy of
 * the index, while the clean check runs; renamed in only when the write goes ahead. Pinned here: what git
 * sees while it runs (the lock held, the index untouched), what is left after a publish, a refusal and a
 * kill -9 (nothing but the write's result, or exactly the old index), and that it gives way to a git holding
 * the lock.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../src/errors.js';
import { createGitRunner } from '../../src/git/runner.js';
import { closeWatchedCleanChecks, watchedCleanCheckFor } from '../../src/memfs/fsmonitor/registry.js';
import { startIndexAside } from '../../src/memfs/index-aside.js';
import { createMemory, initMemory, type Memory } from '../../src/memory.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../helpers/tmp.js';

afterEach(closeWatchedCleanChecks);
afterAll(cleanupTmp);

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
/** What a write may leave in the git dir besides the index: nothing of the aside. */
const leftovers = (gitDir: string): string[] => readdirSync(gitDir).filter((n) => n === 'index.lock' || n.startsWith('gitmem-index'));

let n = 0;
const create = (m: Memory, path = `notes/n${n++}.md`): Promise<unknown> =>
  m.tool({ command: 'create', reason: 'note', file_path: path, description: 'a note', file_text: `text ${n}` });

/** A memory whose clean check is incremental from its third write on (any repo size). */
async function watched() {
  const home = makeTmpDir('gitmem-aside-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'a', env });
  const dir = join(home, 'agents', 'a', 'memory');
  const check = watchedCleanCheckFor(dir, { minFiles: 0, startAtCheck: 1, env });
  const memory = await createMemory({ home, agentId: 'a', env });
  await create(memory, 'notes/first.md');
  await check.currentWatcher?.whenReady();
  await create(memory);
  await create(memory);
  expect(check.expectsIncremental).toBe(true);
  return { home, env, dir, gitDir: join(dir, '.git'), check, memory };
}

describe('an index update made aside', () => {
  it('holds git’s index lock and leaves the index untouched until it is published', async () => {
    const { dir, gitDir, env } = await watched();
    const before = digest(join(gitDir, 'index'));
    const blob = git(dir, ['rev-parse', 'HEAD:notes/first.md'], env).trim();
    const runner = createGitRunner({ env });
    const aside = startIndexAside(runner, dir, gitDir, [{ mode: '100644', id: blob, path: 'notes/aside.md' }]);
    expect(aside).toBeDefined();
    await aside?.ready;
    expect(existsSync(join(gitDir, 'index.lock'))).toBe(true);
    expect(digest(join(gitDir, 'index'))).toBe(before);
    expect(gitTry(dir, ['update-index', '--refresh'], env).status).not.toBe(0); // another git cannot write the index meanwhile
    expect(startIndexAside(runner, dir, gitDir, [])).toBeUndefined(); // nor can a second aside
    aside?.publish();
    await aside?.release();
    expect(leftovers(gitDir)).toEqual([]);
    expect(git(dir, ['ls-files', '--stage', '--', 'notes/aside.md'], env)).toContain(blob);
    expect(readFileSync(join(gitDir, 'index')).subarray(0, 4).toString('latin1')).toBe('DIRC');
  });

  it('released unpublished, leaves exactly the index it found (and clears a killed writer’s copy lock)', async () => {
    const { dir, gitDir, env } = await watched();
    writeFileSync(join(gitDir, 'gitmem-index.lock'), 'left by a killed writer');
    const before = digest(join(gitDir, 'index'));
    const aside = startIndexAside(createGitRunner({ env }), dir, gitDir, [{ mode: null, path: 'notes/first.md' }]);
    await aside?.ready;
    await aside?.release();
    await aside?.release(); // twice is harmless
    expect(digest(join(gitDir, 'index'))).toBe(before);
    expect(leftovers(gitDir)).toEqual([]);
  });

  it('is what a watched write uses: the index equals the new HEAD, split as before, nothing left', async () => {
    const { dir, gitDir, env, memory } = await watched();
    const shared = readdirSync(gitDir).filter((f) => f.startsWith('sharedindex.'));
    // git names the index file it just wrote to this hook: the copy, not the index itself.
    const log = join(gitDir, 'index-writes.log');
    writeFileSync(join(gitDir, 'hooks', 'post-index-change'), `#!/bin/sh\nprintf '%s\\n' "$GIT_INDEX_FILE" >> '${log}'\n`, { mode: 0o755 });
    await create(memory, 'notes/watched.md');
    expect(readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split('/').pop())).toEqual(['gitmem-index']);
    expect(leftovers(gitDir)).toEqual([]);
    expect(gitTry(dir, ['diff-index', '--cached', '--quiet', 'HEAD', '--'], env).status).toBe(0);
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
    expect(git(dir, ['ls-files', '--', 'notes/watched.md'], env).trim()).toBe('notes/watched.md');
    if (shared.length > 0) expect(readdirSync(gitDir).some((f) => f.startsWith('sharedindex.'))).toBe(true);
  });

  it('a refused watched write leaves the index byte for byte as it found it', async () => {
    const { dir, gitDir, env, memory } = await watched();
    writeFileSync(join(dir, 'notes/first.md'), 'staged by hand\n');
    git(dir, ['add', 'notes/first.md'], env);
    const before = digest(join(gitDir, 'index'));
    const err = await create(memory, 'notes/refused.md').then(() => null, (e: unknown) => e);
    expect(isMemoryError(err) && err.code, String(err)).toBe('REPO_DIRTY');
    expect(digest(join(gitDir, 'index'))).toBe(before);
    expect(leftovers(gitDir)).toEqual([]);
    expect(existsSync(join(dir, 'notes/refused.md'))).toBe(false);
  });

  it('gives way to a git holding the index lock: the write waits for it, then lands', async () => {
    const { dir, gitDir, env, memory } = await watched();
    writeFileSync(join(gitDir, 'index.lock'), ''); // as a running `git add` holds it
    const write = create(memory, 'notes/after-lock.md');
    await new Promise((r) => setTimeout(r, 150));
    rmSync(join(gitDir, 'index.lock')); // that git is done
    await write;
    expect(git(dir, ['ls-files', '--', 'notes/after-lock.md'], env).trim()).toBe('notes/after-lock.md');
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
    expect(leftovers(gitDir)).toEqual([]);
  });
});

// A watched writer that kills itself (SIGKILL) once its write's objects are stored: the aside holds the lock.
const CRASHER = `
const [dist, home] = process.argv.slice(1);
const { createMemory } = await import(dist + '/index.js');
const { watchedCleanCheckFor } = await import(dist + '/memfs/fsmonitor/registry.js');
const dir = home + '/agents/a/memory';
setInterval(() => {}, 1000); // the watcher holds no event loop reference: awaiting it alone would end the process
const check = watchedCleanCheckFor(dir, { minFiles: 0, startAtCheck: 1 });
let armed = false;
const memory = await createMemory({ home, agentId: 'a', onWriteStep: (s) => { if (armed && s === 'objects') process.kill(process.pid, 'SIGKILL'); } });
const note = (p) => memory.tool({ command: 'create', reason: 'w ' + p, file_path: p, description: 'd', file_text: p });
await note('notes/c1.md'); await check.currentWatcher?.whenReady(); await note('notes/c2.md'); await note('notes/c3.md');
if (!check.expectsIncremental) process.exit(3);
armed = true;
await note('notes/crash.md');
process.exit(4);
`;

describe('a watched writer killed while its index update is aside', () => {
  it('leaves the old index; the next writer takes over the lease and its locks, and writes', async () => {
    const home = makeTmpDir('gitmem-aside-crash-');
    const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
    await initMemory({ home, agentId: 'a', env });
    const dir = join(home, 'agents', 'a', 'memory');
    const [signal, why] = await new Promise<[string | null, string]>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CRASHER, join(process.cwd(), 'dist'), home], { env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code, sig) => resolve([sig, `exit ${code}: ${stderr}`]));
    });
    expect(signal, why).toBe('SIGKILL');
    expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(true); // what the kill left
    const memory = await createMemory({ home, agentId: 'a', env });
    await create(memory, 'notes/next.md');
    expect(git(dir, ['log', '--format=%s', '-n1'], env).trim()).toBe('note');
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
    expect(leftovers(join(dir, '.git'))).toEqual([]);
    git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling'], env);
  });
});
