/**
 * A watched write's index update made aside (memfs/index-aside.ts): on a private hard link to the index,
 * while the clean check runs, put in place under git's index.lock for an instant, and only when the index is
 * still the one it was made from. Pinned here: nothing git can see changes before the publish (the index,
 * git's lock), a publish that gives way (another git changed the index, or holds its lock, or the private
 * directory went), git's racy-entry rule, an index that is a link, and what is left after a publish, a
 * refusal, a refused ref move and a kill -9.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { closeWatchedCleanChecks, watchedCleanCheckFor } from '../../../src/memfs/fsmonitor/registry.js';
import { startIndexAside } from '../../../src/memfs/index-aside.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterEach(closeWatchedCleanChecks);
afterAll(cleanupTmp);

const digest = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');
/** What a write may leave in the git dir besides the index: nothing of the aside. */
const leftovers = (gitDir: string): string[] =>
  readdirSync(gitDir).filter((n) => n === 'index.lock' || n.startsWith('gitmem-index-'));

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

/** Has git log to a file each index file it writes (its `post-index-change` hook is told which); the log's path. */
function logIndexWrites(gitDir: string): string {
  const log = join(gitDir, 'index-writes.log');
  writeFileSync(
    join(gitDir, 'hooks', 'post-index-change'),
    `#!/bin/sh\nprintf '%s\\n' "$GIT_INDEX_FILE" >> '${log}'\n`,
    { mode: 0o755 },
  );
  return log;
}

describe('an index update made aside', () => {
  const entry = (dir: string, env: Record<string, string>, path: string) => ({
    mode: '100644',
    id: git(dir, ['rev-parse', 'HEAD:notes/first.md'], env).trim(),
    path,
  });
  /** An aside that sets notes/aside.md (to notes/first.md's blob). */
  const asideOf = ({ dir, gitDir, env }: { dir: string; gitDir: string; env: Record<string, string> }) =>
    startIndexAside(createGitRunner({ env }), dir, gitDir, [entry(dir, env, 'notes/aside.md')]);

  it('leaves the index and git’s lock alone until its publish, which installs exactly its entries', async () => {
    const { dir, gitDir, env } = await watched();
    const before = digest(join(gitDir, 'index'));
    const aside = asideOf({ dir, gitDir, env });
    expect(aside).toBeDefined();
    await aside?.ready;
    expect(digest(join(gitDir, 'index'))).toBe(before);
    expect(existsSync(join(gitDir, 'index.lock'))).toBe(false); // the user's git is not kept waiting meanwhile
    expect(aside?.publish()).toBe(true);
    await aside?.release();
    await aside?.release(); // twice is harmless
    expect(leftovers(gitDir)).toEqual([]);
    expect(git(dir, ['ls-files', '--stage', '--', 'notes/aside.md'], env)).toContain(entry(dir, env, 'x').id);
  });

  it('declines when another git changed the index meanwhile: what that git staged stays', async () => {
    const { dir, gitDir, env } = await watched();
    const aside = asideOf({ dir, gitDir, env });
    await aside?.ready;
    git(dir, ['rm', '-q', '--cached', 'notes/first.md'], env);
    const staged = git(dir, ['ls-files', '--stage'], env);
    expect(aside?.publish()).toBe(false);
    await aside?.release();
    expect(git(dir, ['ls-files', '--stage'], env)).toBe(staged);
    expect(leftovers(gitDir)).toEqual([]);
  });

  it('declines while another git holds index.lock, and leaves that lock alone', async () => {
    const { dir, gitDir, env } = await watched();
    const before = digest(join(gitDir, 'index'));
    const aside = asideOf({ dir, gitDir, env });
    await aside?.ready;
    writeFileSync(join(gitDir, 'index.lock'), 'a running git add');
    expect(aside?.publish()).toBe(false);
    await aside?.release();
    expect(readFileSync(join(gitDir, 'index.lock'), 'utf8')).toBe('a running git add');
    rmSync(join(gitDir, 'index.lock'));
    expect(digest(join(gitDir, 'index'))).toBe(before);
  });

  it('keeps a racily clean entry visible: git judges it against the index’s own timestamp', async () => {
    const { dir, gitDir, env } = await watched();
    const file = join(dir, 'notes/racy.md');
    writeFileSync(file, 'aaaa\n');
    git(dir, ['add', 'notes/racy.md'], env);
    const tick = Math.floor(Date.now() / 1000) - 5;
    utimesSync(file, tick, tick);
    git(dir, ['update-index', '--refresh'], env); // the entry records that mtime
    writeFileSync(file, 'bbbb\n'); // same size
    utimesSync(file, tick, tick); // same mtime: only the racy rule can tell
    utimesSync(join(gitDir, 'index'), tick, tick); // written in the same second as the file
    expect(git(dir, ['diff-files', '--name-only'], env).trim()).toBe('notes/racy.md');
    const aside = asideOf({ dir, gitDir, env });
    await aside?.ready;
    expect(aside?.publish()).toBe(true);
    await aside?.release();
    expect(git(dir, ['diff-files', '--name-only'], env).trim().split('\n')).toContain('notes/racy.md');
  });

  it('whose private directory goes meanwhile (a lease takeover elsewhere) is never an index from nothing', async () => {
    const { dir, gitDir, env } = await watched();
    const before = git(dir, ['ls-files', '--stage'], env);
    const runner = createGitRunner({ env });
    // The directory is removed right before git starts (as another process's takeover cleanup would).
    const racing: GitRunner = {
      ...runner,
      run: (args, o) => runner.run(args, o),
      detach: (args, o) => runner.detach(args, o),
      exec: (op, o) => {
        for (const n of readdirSync(gitDir))
          if (n.startsWith('gitmem-index-')) rmSync(join(gitDir, n), { recursive: true });
        return runner.exec(op, o);
      },
    };
    const aside = startIndexAside(racing, dir, gitDir, [entry(dir, env, 'notes/aside.md')]);
    await expect(aside?.ready).rejects.toThrow();
    expect(aside?.publish()).toBe(false);
    await aside?.release();
    expect(git(dir, ['ls-files', '--stage'], env)).toBe(before);
    expect(leftovers(gitDir)).toEqual([]);
  });

  it('is not used for an index that is a link (git’s own update follows it)', async () => {
    const { dir, gitDir, env } = await watched();
    renameSync(join(gitDir, 'index'), join(gitDir, 'index.real'));
    symlinkSync('index.real', join(gitDir, 'index'));
    expect(startIndexAside(createGitRunner({ env }), dir, gitDir, [])).toBeUndefined();
    expect(lstatSync(join(gitDir, 'index')).isSymbolicLink()).toBe(true);
  });

  it('is what a watched write uses: the index equals the new HEAD, split as before, nothing left', async () => {
    const { dir, gitDir, env, memory } = await watched();
    const log = logIndexWrites(gitDir); // the private file, not the index itself
    await create(memory, 'notes/watched.md');
    expect(
      readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('/').slice(-2).join('/')),
    ).toEqual([expect.stringMatching(/^gitmem-index-\d+-[0-9a-f]+\/index$/)]);
    expect(leftovers(gitDir)).toEqual([]);
    expect(gitTry(dir, ['diff-index', '--cached', '--quiet', 'HEAD', '--'], env).status).toBe(0);
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
    expect(git(dir, ['ls-files', '--', 'notes/watched.md'], env).trim()).toBe('notes/watched.md');
    expect(readdirSync(gitDir).some((f) => f.startsWith('sharedindex.'))).toBe(true);
  });

  it('a refused watched write leaves every index entry as it found it', async () => {
    const { dir, gitDir, env, memory } = await watched();
    writeFileSync(join(dir, 'notes/first.md'), 'staged by hand\n');
    git(dir, ['add', 'notes/first.md'], env);
    const before = git(dir, ['ls-files', '--stage'], env);
    const err = await create(memory, 'notes/refused.md').then(
      () => null,
      (e: unknown) => e,
    );
    expect(isMemoryError(err) && err.code, String(err)).toBe('REPO_DIRTY');
    expect(git(dir, ['ls-files', '--stage'], env)).toBe(before);
    expect(leftovers(gitDir)).toEqual([]);
    expect(existsSync(join(dir, 'notes/refused.md'))).toBe(false);
  });

  it('a watched write whose ref move is refused puts the index entries and HEAD back, nothing left', async () => {
    const { dir, gitDir, env, memory } = await watched();
    const head = git(dir, ['rev-parse', 'HEAD'], env).trim();
    const before = git(dir, ['ls-files', '--stage'], env);
    // git asks this hook before any ref moves; refusing makes update-ref fail after the index was placed.
    writeFileSync(
      join(gitDir, 'hooks', 'reference-transaction'),
      '#!/bin/sh\n[ "$1" = prepared ] && exit 1\nexit 0\n',
      { mode: 0o755 },
    );
    const err = await create(memory, 'notes/unmoved.md').then(
      () => null,
      (e: unknown) => e,
    );
    rmSync(join(gitDir, 'hooks', 'reference-transaction'));
    expect(isMemoryError(err), String(err)).toBe(true);
    expect(git(dir, ['rev-parse', 'HEAD'], env).trim()).toBe(head);
    expect(git(dir, ['ls-files', '--stage'], env)).toBe(before);
    expect(existsSync(join(dir, 'notes/unmoved.md'))).toBe(false);
    expect(leftovers(gitDir)).toEqual([]);
    await create(memory, 'notes/then.md'); // and the next write lands
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
  });

  it('a watched write while a git holds index.lock updates the index in place once it is free', async () => {
    const { dir, gitDir, env, memory } = await watched();
    const log = logIndexWrites(gitDir);
    writeFileSync(join(gitDir, 'index.lock'), ''); // as a running `git add` holds it
    const write = create(memory, 'notes/after-lock.md');
    await new Promise((r) => setTimeout(r, 150));
    rmSync(join(gitDir, 'index.lock')); // that git is done
    await write;
    expect(
      readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '' && !l.includes('gitmem-index-')),
    ).toEqual([]);
    expect(readFileSync(log, 'utf8').endsWith('\n\n')).toBe(true); // the last index written is the index itself
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
  it('leaves the old index; the next writer takes over the lease, drops the private file, and writes', async () => {
    const home = makeTmpDir('gitmem-aside-crash-');
    const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
    await initMemory({ home, agentId: 'a', env });
    const dir = join(home, 'agents', 'a', 'memory');
    const [signal, why] = await new Promise<[string | null, string]>((resolve) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CRASHER, join(process.cwd(), 'dist'), home], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code, sig) => resolve([sig, `exit ${code}: ${stderr}`]));
    });
    expect(signal, why).toBe('SIGKILL');
    expect(leftovers(join(dir, '.git'))).toEqual([expect.stringMatching(/^gitmem-index-/)]); // what the kill left
    const memory = await createMemory({ home, agentId: 'a', env });
    await create(memory, 'notes/next.md');
    expect(git(dir, ['log', '--format=%s', '-n1'], env).trim()).toBe('note');
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'], env)).toBe('');
    expect(leftovers(join(dir, '.git'))).toEqual([]);
    git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling'], env);
  });
});
