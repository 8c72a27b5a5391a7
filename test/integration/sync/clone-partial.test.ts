// Readers of big memories, against a real bare remote served over file:// with uploadpack.allowFilter: a
// blob-less partial clone (`--partial`) and a sparse one (`--scope <dir>`, plus system/ and the root files).
// A partial clone reads a file whose blob was never fetched (git fetches it on the read), writes work, sync
// works both ways, a scope that is not a plain directory of memory is refused and leaves nothing behind, and a
// remote whose scoped files break the memory rules is not cloned.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory } from '../../../src/memory.js';
import { runMain } from '../../helpers/main-io.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const root = makeTmpDir('gitmem-partial-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });

afterAll(() => cleanupTmp());

type Memory = Awaited<ReturnType<typeof createMemory>>;

async function write(memory: Memory, file: string, text: string): Promise<void> {
  await memory.tool({
    command: 'create',
    file_path: file,
    description: 'a note',
    file_text: text,
    reason: `add ${file}`,
  });
}

/** A remote with notes/ and other/ (two versions of other/old.md), served over file:// with filters allowed. */
async function seedRemote(name: string): Promise<{ url: string; bare: string; writer: Memory; writerDir: string }> {
  const bare = join(makeTmpDir('gitmem-remote-'), `${name}.git`);
  g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
  g(bare, ['config', 'uploadpack.allowFilter', 'true']);
  g(bare, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  const home = makeTmpDir('gitmem-home-');
  const url = `file://${bare}`;
  const r = await cloneMemory({ git: runner, home, url, agentId: name });
  const writer = await createMemory({ home, agentId: name, env, git: runner });
  await write(writer, 'notes/plan.md', 'ship the reader');
  await write(writer, 'other/old.md', 'first version');
  await writer.tool({
    command: 'str_replace',
    file_path: 'other/old.md',
    old_string: 'first version',
    new_string: 'second version',
    reason: 'update',
  });
  expect((await syncMemory({ git: runner, memoryDir: r.memoryDir })).status).toBe('pushed');
  return { url, bare, writer, writerDir: r.memoryDir };
}

/** Objects of every ref this clone lacks (`rev-list --missing=print` fetches nothing). */
function missingObjects(dir: string): string[] {
  return g(dir, ['rev-list', '--objects', '--all', '--missing=print'])
    .split('\n')
    .filter((l) => l.startsWith('?'))
    .map((l) => l.slice(1));
}

describe('gitmem clone --partial', () => {
  it('is blob-less: history blobs stay on the remote until read, and a read fetches them', async () => {
    const { url, bare } = await seedRemote('pa');
    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url, agentId: 'pa', partial: true });
    expect(g(r.memoryDir, ['config', 'remote.origin.promisor'])).toBe('true');
    expect(g(r.memoryDir, ['config', 'remote.origin.partialclonefilter'])).toBe('blob:none');
    const oldBlob = g(bare, ['rev-parse', 'main~1:other/old.md']);
    expect(missingObjects(r.memoryDir)).toContain(oldBlob);
    expect(existsSync(join(r.memoryDir, 'other', 'old.md'))).toBe(true); // the tip is checked out whole
    const memory = await createMemory({ home, agentId: 'pa', env, git: runner });
    expect((await memory.read('other/old.md', { at: 'HEAD~1' })).body).toContain('first version');
    expect(missingObjects(r.memoryDir)).not.toContain(oldBlob);
  });
});

describe('gitmem clone --partial --scope', () => {
  it('checks out the scope, system/ and the root files; reads, writes and syncs', async () => {
    const { url, writer, writerDir } = await seedRemote('sc');
    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url, agentId: 'sc', partial: true, scope: 'notes/' });
    expect(readdirSync(r.memoryDir).sort()).toEqual(['.git', 'notes', 'system']);
    expect(g(r.memoryDir, ['config', 'gitmem.scope'])).toBe('notes');
    const outside = g(r.memoryDir, ['rev-parse', 'HEAD:other/old.md']);
    expect(missingObjects(r.memoryDir)).toContain(outside);

    // A read of a file whose blob was never fetched: git fetches it.
    const memory = await createMemory({ home, agentId: 'sc', env, git: runner });
    // Opening scans history for read_only files: it fetches only what the scoped clone could write.
    expect(missingObjects(r.memoryDir)).toContain(outside);
    expect((await memory.read('other/old.md')).body).toContain('second version');
    expect(missingObjects(r.memoryDir)).not.toContain(outside);
    expect(await memory.tree()).toContain('other/');

    // A write in the scope: one commit, a clean checkout.
    await write(memory, 'notes/reader.md', 'written by the reader');
    expect(g(r.memoryDir, ['log', '-1', '--format=%s'])).toMatch(/add notes\/reader\.md/);
    expect(g(r.memoryDir, ['status', '--porcelain'])).toBe('');

    // A write outside the scope is refused in one line; nothing moves, nothing is planted beside the cone.
    const head = g(r.memoryDir, ['rev-parse', 'HEAD']);
    for (const call of [
      { command: 'create', file_path: 'other/planted.md', description: 'd', file_text: 'x', reason: 'outside' },
      { command: 'rename', old_path: 'notes/reader.md', new_path: 'other/moved.md', reason: 'out of the cone' },
    ]) {
      const refused = await memory.tool(call).catch((e: unknown) => e);
      expect(isMemoryError(refused, 'INVALID_ARGUMENT'), String(refused)).toBe(true);
      expect((refused as Error).message).toMatch(/outside this clone's scope \(notes\/, system\//);
    }
    expect(g(r.memoryDir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(existsSync(join(r.memoryDir, 'other'))).toBe(false);

    // Sync both ways: the reader pushes; the writer's next commits (outside the scope too) come back.
    expect((await memory.sync()).status).toBe('pushed');
    await write(writer, 'other/new.md', 'outside the scope');
    await write(writer, 'notes/more.md', 'inside the scope');
    expect((await syncMemory({ git: runner, memoryDir: writerDir })).status).toMatch(/pushed/);
    const back = await memory.sync();
    expect(back, JSON.stringify(back)).toMatchObject({ status: 'clean', pulled: 2, pushed: 0 });
    expect(g(r.memoryDir, ['rev-parse', 'HEAD'])).toBe(g(writerDir, ['rev-parse', 'HEAD']));
    expect(existsSync(join(r.memoryDir, 'notes', 'more.md'))).toBe(true);
    expect(existsSync(join(r.memoryDir, 'other'))).toBe(false);
    expect((await memory.read('other/new.md')).body).toContain('outside the scope');
    expect(g(r.memoryDir, ['status', '--porcelain'])).toBe('');
  });

  it('through the CLI', async () => {
    const { url } = await seedRemote('cl');
    const home = makeTmpDir('gitmem-home-');
    const args = ['clone', url, '--home', home, '--agent', 'cl', '--partial', '--scope', 'notes'];
    const r = await runMain(args, env, { cwd: root });
    expect(r.code, r.err).toBe(0);
    expect(readdirSync(join(home, 'agents', 'cl', 'memory')).sort()).toEqual(['.git', 'notes', 'system']);
  });

  it.each(['../x', '.git', 'notes/.GIT', 'a/*', '!notes', '', '.', '/abs', 'a\nb', 'a//b'])(
    'refuses the scope %j and leaves nothing behind',
    async (scope) => {
      const home = makeTmpDir('gitmem-home-');
      const err = await cloneMemory({ git: runner, home, url: `file://${root}/none.git`, agentId: 'x', scope }).catch(
        (e: unknown) => e,
      );
      expect(isMemoryError(err, 'INVALID_ARGUMENT'), String(err)).toBe(true);
      expect(existsSync(join(home, 'agents', 'x'))).toBe(false);
    },
  );

  it('a remote whose scoped files break the memory rules is not cloned (a planted symlink in the scope)', async () => {
    const { url, writerDir } = await seedRemote('bad');
    g(writerDir, ['-c', 'core.hooksPath=/dev/null', 'checkout', '-q', '-b', 'raw']);
    const target = g(writerDir, ['rev-parse', 'HEAD:notes/plan.md']); // any blob: the link's target text
    g(writerDir, ['update-index', '--add', '--cacheinfo', `120000,${target},notes/link.md`]);
    g(writerDir, ['-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--no-verify', '-m', 'plant a link']);
    g(writerDir, ['push', '-q', 'origin', 'raw:main', '--force']);
    const home = makeTmpDir('gitmem-home-');
    const err = await cloneMemory({ git: runner, home, url, agentId: 'bad', partial: true, scope: 'notes' }).catch(
      (e: unknown) => e,
    );
    expect(isMemoryError(err, 'REMOTE_REJECTED'), String(err)).toBe(true);
    expect(existsSync(join(home, 'agents', 'bad'))).toBe(false);
  });
});
