// A memory write is durable by default: under a syscall trace (strace) of the real CLI, every object, the
// journal, the work-tree file, the index and the ref are fsynced before the rename that publishes them, and
// each directory after it, in the order: objects, journal and the file's text (staged in the git dir) in
// one flush of their data; objects renamed, then the entry, then one flush of their directories; the file
// moved into the work tree; the index and the ref (git's core.fsync), with the file's directories flushed
// alongside; then the index's and the ref's directories.
// GITMEM_FSYNC=0 and `git config gitmem.fsync false` turn every fsync off.
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryFixture } from '../helpers/memory-fixture.js';
import { at, renamedTo, synced, syncedPath, tracedWrite } from '../helpers/strace-trace.js';
import { cleanupTmp, git } from '../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe('durable writes', { tags: ['strace'] }, () => {
  it('fsyncs objects, journal and file, then index and ref, each before its rename, directories after', async () => {
    const f = await memoryFixture();
    const ev = tracedWrite(f.env, 'notes/deep/x.md');
    const gitDir = join(f.dir, '.git');
    // Objects and the journal: each file fsynced before its rename; every object renamed before the entry.
    const objectRenames = ev.flatMap((e, i) => (e.kind === 'rename' && /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(e.to) ? [{ e, i }] : []));
    expect(objectRenames.length).toBeGreaterThanOrEqual(4); // blob, two trees on the way, root tree, commit
    const journalSync = at(ev, synced(/\/gitmem-write\.json\.tmp$/));
    const journalRename = at(ev, renamedTo(/\/gitmem-write\.json$/), journalSync);
    for (const { e, i } of objectRenames) {
      if (e.kind !== 'rename') continue;
      expect(ev.findIndex(syncedPath(e.from))).toBeLessThan(i);
      expect(i).toBeLessThan(journalRename);
    }
    // The work-tree file's text, staged in the git dir, is flushed in that same first flush.
    const fileSync = at(ev, synced(/\/\.git\/gitmem-staged\/\d+-\d+$/));
    expect(fileSync).toBeLessThan(journalRename);
    // Then their directories (each fan-out directory, the git dir), all before the work tree changes.
    const fileRename = at(ev, renamedTo(/\/x\.md$/), journalRename);
    const moved = ev[fileRename];
    const staged = moved?.kind === 'rename' ? join(gitDir, 'gitmem-staged', basename(moved.from)) : '';
    expect(ev.findIndex(syncedPath(staged))).toBe(fileSync); // the text flushed is the one moved in
    for (const dir of [gitDir, ...objectRenames.map(({ e }) => (e.kind === 'rename' ? dirname(e.to) : ''))]) {
      expect(at(ev, syncedPath(dir), journalRename), dir).toBeLessThan(fileRename);
    }
    // The work-tree file moves in with one rename, then every directory on the way is flushed.
    for (const d of [f.dir, join(f.dir, 'notes'), join(f.dir, 'notes/deep')]) at(ev, syncedPath(d), fileRename);
    // git: index and ref, each fsynced before its rename, after the file; then both directories.
    const indexSync = at(ev, synced(/\/\.git\/index\.lock$/), fileRename);
    const indexRename = at(ev, renamedTo(/\/\.git\/index$/), indexSync);
    const refSync = at(ev, synced(/\/\.git\/refs\/heads\/main\.lock$/), fileRename);
    const refRename = at(ev, renamedTo(/\/\.git\/refs\/heads\/main$/), refSync);
    const published = Math.max(indexRename, refRename);
    at(ev, syncedPath(gitDir), published);
    at(ev, syncedPath(join(gitDir, 'refs/heads')), published);
    expect(git(f.dir, ['log', '-1', '--format=%s'], f.env)).toBe('durable write');
    expect(git(f.dir, ['status', '--porcelain'], f.env)).toBe('');
  });

  it('makes no fsync with GITMEM_FSYNC=0 or gitmem.fsync=false', async () => {
    const f = await memoryFixture();
    expect(tracedWrite({ ...f.env, GITMEM_FSYNC: '0' }, 'notes/off.md').filter((e) => e.kind === 'fsync')).toEqual([]);
    git(f.dir, ['config', 'gitmem.fsync', 'false'], f.env);
    expect(tracedWrite(f.env, 'notes/off-too.md').filter((e) => e.kind === 'fsync')).toEqual([]);
    expect(tracedWrite({ ...f.env, GITMEM_FSYNC: '1' }, 'notes/on-again.md').some((e) => e.kind === 'fsync')).toBe(true);
  });
});
