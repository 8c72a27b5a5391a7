/**
 * The watched clean check (memfs/fsmonitor): after one proven-clean full walk, a write's check asks git only
 * about what changed, and a dirty repo still refuses exactly as with the full walk — whatever the watcher
 * missed (killed, restarted, not running, its queue possibly overflowed, a change a moment before the check).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { closeWatchedCleanChecks, watchedCleanCheckFor } from '../../../src/memfs/fsmonitor/registry.js';
import type { WatchedCheckOptions } from '../../../src/memfs/fsmonitor/watched-check.js';
import { createMemory, initMemory, type Memory } from '../../../src/memory.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterEach(closeWatchedCleanChecks);
afterAll(cleanupTmp);

let n = 0;
const create = (m: Memory, path = `notes/n${n++}.md`): Promise<unknown> =>
  m.tool({ command: 'create', reason: 'note', file_path: path, description: 'a note', file_text: `text ${n}` });

/** A memory whose watched check starts at its first write in any repo size; writes until it has a baseline. */
async function watched(options: WatchedCheckOptions = {}) {
  const home = makeTmpDir('gitmem-fsmon-');
  const env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  await initMemory({ home, agentId: 'a', env });
  const dir = join(home, 'agents', 'a', 'memory');
  const check = watchedCleanCheckFor(dir, { minFiles: 0, startAtCheck: 1, env, ...options });
  const memory = await createMemory({ home, agentId: 'a', env });
  const plain = await createMemory({ home, agentId: 'a', env, watchWorkTree: false });
  await create(memory, 'notes/first.md'); // starts the watcher
  await check.currentWatcher?.whenReady();
  await create(memory); // the baseline
  await create(memory);
  expect([check.lastMode, check.lastReason]).toEqual(['incremental', expect.stringMatching(/^[1-9] changed path/)]);
  return { home, env, dir, check, memory, plain };
}

/** The refusal the watched check gives, next to the one the full walk gives on the same tree. */
async function refusals(memory: Memory, plain: Memory): Promise<[unknown, unknown]> {
  const a = await create(memory, 'notes/refused.md').then(
    () => 'committed',
    (e: unknown) => e,
  );
  const b = await create(plain, 'notes/refused.md').then(
    () => 'committed',
    (e: unknown) => e,
  );
  return [a, b];
}

function expectSameDirty([a, b]: [unknown, unknown], path: string): void {
  expect(isMemoryError(a) && a.code, String(a)).toBe('REPO_DIRTY');
  expect((a as Error).message).toBe((b as Error).message);
  expect((a as { data?: unknown }).data).toEqual((b as { data?: unknown }).data);
  expect((a as Error).message).toContain(path);
}

describe('watched clean check', () => {
  it('a hand edit after the baseline refuses exactly as the full walk does (same code, message, data)', async () => {
    const { dir, memory, plain } = await watched();
    writeFileSync(join(dir, 'notes/first.md'), 'edited by hand\n');
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
  });

  it('an exec bit, a link swapped in, a same-size edit refuse; an ignored file touched does not', async () => {
    const { dir, memory, plain, check } = await watched();
    const file = join(dir, 'notes/first.md');
    const text = readFileSync(file);
    chmodSync(file, 0o755);
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
    chmodSync(file, 0o644);
    await create(memory);
    await create(memory);
    rmSync(file);
    symlinkSync('elsewhere.md', file);
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
    rmSync(file);
    writeFileSync(file, text);
    await create(memory);
    await create(memory);
    writeFileSync(file, Buffer.from(text.toString('latin1').replace('text', 'TEXT'), 'latin1'));
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
    writeFileSync(file, text);
    writeFileSync(join(dir, '.git/info/exclude'), '*.tmp\n');
    await create(memory);
    await create(memory);
    writeFileSync(join(dir, 'notes/editor.tmp'), 'ignored');
    await create(memory);
    expect(check.lastMode).toBe('incremental');
  });

  it('a change made just before the check is seen (the cookie waits for its event)', async () => {
    const { dir, memory, check } = await watched();
    for (let i = 0; i < 20; i++) {
      writeFileSync(join(dir, `notes/late${i}.md`), 'x'); // no pause: the check starts right after the write
      const r = await create(memory).then(
        () => 'committed',
        (e: unknown) => e,
      );
      expect(isMemoryError(r) && r.code, `round ${i}: ${String(r)}`).toBe('REPO_DIRTY');
      rmSync(join(dir, `notes/late${i}.md`));
      await create(memory);
    }
    expect(check.lastMode).toBe('full'); // a refusal drops the baseline: the check after it walks
  });

  it('new directories, index-only changes and HEAD moved under the tree all refuse', async () => {
    const { dir, env, memory, plain } = await watched();
    mkdirSync(join(dir, 'deep/er/still'), { recursive: true });
    writeFileSync(join(dir, 'deep/er/still/x.md'), 'x');
    expectSameDirty(await refusals(memory, plain), 'deep/');
    rmSync(join(dir, 'deep'), { recursive: true });
    await create(memory);
    await create(memory);
    git(dir, ['rm', '-q', '--cached', 'notes/first.md'], env); // the index alone changes
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
    git(dir, ['reset', '-q', 'HEAD'], env);
    await create(memory);
    await create(memory);
    await create(memory, 'notes/older.md');
    await create(memory);
    // A commit from a shell drops notes/older.md from HEAD and the index; the work tree keeps it, and no event
    // names it: only the paths HEAD moved by find it.
    git(dir, ['rm', '-q', '--cached', 'notes/older.md'], env);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'drop older'], env);
    expectSameDirty(await refusals(memory, plain), 'notes/older.md');
  });

  it('an ignore rule relaxed outside the tree (info/exclude) unhides a file: the full walk answers', async () => {
    const { dir, memory, plain, check } = await watched();
    writeFileSync(join(dir, '.git/info/exclude'), 'hidden.md\n');
    await create(memory);
    writeFileSync(join(dir, 'hidden.md'), 'secret work');
    await create(memory);
    await create(memory);
    expect(check.lastMode).toBe('incremental');
    writeFileSync(join(dir, '.git/info/exclude'), '');
    expectSameDirty(await refusals(memory, plain), 'hidden.md');
  });

  it('a killed watcher never lets a dirty repo pass; a new one takes a new baseline', async () => {
    const { dir, memory, plain, check } = await watched();
    const old = check.currentWatcher;
    await old?.thread.terminate();
    writeFileSync(join(dir, 'notes/first.md'), 'edited while the watcher was dead\n');
    expectSameDirty(await refusals(memory, plain), 'notes/first.md');
    expect([check.lastMode, check.lastReason]).toEqual(['full', 'the watcher broke']);
    git(dir, ['checkout', '-q', '--', 'notes/first.md']);
    await create(memory); // starts the new watcher
    expect(check.currentWatcher).not.toBe(old);
    await check.currentWatcher?.whenReady();
    await create(memory);
    await create(memory);
    expect(check.lastMode).toBe('incremental');
  });

  it('a change made while no watcher ran (another process, a restart) is seen by the first check', async () => {
    const { home, env, dir } = await watched();
    closeWatchedCleanChecks(); // this process's watcher is gone, as if it had exited
    writeFileSync(join(dir, 'notes/first.md'), 'edited while nobody watched\n');
    watchedCleanCheckFor(dir, { minFiles: 0, startAtCheck: 1, env });
    const again = await createMemory({ home, agentId: 'a', env });
    const r = await create(again).then(
      () => 'committed',
      (e: unknown) => e,
    );
    expect(isMemoryError(r) && r.code).toBe('REPO_DIRTY');
  });

  it('more events than the kernel queue could hold force the full walk', async () => {
    const { dir, memory, check } = await watched({ maxEvents: 40 });
    writeFileSync(join(dir, '.gitignore'), 'scratch/\n');
    git(dir, ['add', '.gitignore']);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'ignore scratch']);
    await create(memory);
    await create(memory);
    mkdirSync(join(dir, 'scratch'));
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, `scratch/${i}`), 'x');
    await create(memory);
    expect(check.lastMode).toBe('incremental');
    for (let i = 0; i < 60; i++) writeFileSync(join(dir, `scratch/${i}`), 'y');
    await create(memory);
    expect(check.lastMode).toBe('full');
    expect(check.lastReason).toMatch(/overflow/);
  });

  it('a running watcher never keeps its process from exiting (the built module, in a plain Node child)', () => {
    const dir = makeTmpDir('gitmem-fsmon-exit-');
    mkdirSync(join(dir, '.git'));
    const url = pathToFileURL(join(process.cwd(), 'dist/memfs/fsmonitor/watcher.js')).href;
    const script = `const { WorkTreeWatcher } = await import(${JSON.stringify(url)}); const w = new WorkTreeWatcher(${JSON.stringify(dir)}, ${JSON.stringify(join(dir, '.git/c'))}); const keep = setInterval(() => {}, 1000); await w.whenReady(); clearInterval(keep); console.log(String(await w.sync()), w.brokenBecause);`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out.trim()).toBe('true null');
  });
});
