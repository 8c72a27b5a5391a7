// A memory write is durable by default: under a syscall trace (strace) of the real CLI, every object, the
// journal, the work-tree file, the index and the ref are flushed, in the order: objects, journal and the
// file's text (staged in the git dir) in one flush of their data, before their renames; objects renamed,
// then the entry, then one flush of their directories; the file moved into the work tree; git renames the
// index and the ref into place (it flushes nothing itself), and the write flushes each one's data and
// directory right after its rename, with the file's directories alongside.
// GITMEM_FSYNC=0 and `git config gitmem.fsync false` turn every fsync off.
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { at, renamedTo, synced, syncedPath, tracedWrite } from '../../helpers/strace-trace.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(() => cleanupTmp());

describe('durable writes', { tags: ['strace'] }, () => {
  it('fsyncs objects, journal and file before their renames, directories after; index and ref with their directories after git renames them', async () => {
    const f = await memoryFixture();
    const ev = tracedWrite(f.env, 'notes/deep/x.md');
    const gitDir = join(f.dir, '.git');
    // Objects and the journal: each file fsynced before its rename; every object renamed before the entry.
    const objectRenames = ev.flatMap((e, i) =>
      e.kind === 'rename' && /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(e.to) ? [{ e, i }] : [],
    );
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
    // git renames the index and the ref into place after the file, flushing nothing itself; the write then
    // flushes each (its data, then its directory's entry) right after its own rename.
    const indexRename = at(ev, renamedTo(/\/\.git\/index$/), fileRename);
    const refRename = at(ev, renamedTo(/\/\.git\/refs\/heads\/main$/), fileRename);
    at(ev, syncedPath(join(gitDir, 'index')), indexRename);
    at(ev, syncedPath(gitDir), indexRename);
    at(ev, syncedPath(join(gitDir, 'refs/heads/main')), refRename);
    at(ev, syncedPath(join(gitDir, 'refs/heads')), refRename);
    expect(ev.filter(synced(/\.lock$/))).toEqual([]);
    expect(git(f.dir, ['log', '-1', '--format=%s'], f.env)).toBe('durable write');
    expect(git(f.dir, ['status', '--porcelain'], f.env)).toBe('');
  });

  it('makes no fsync with GITMEM_FSYNC=0 or gitmem.fsync=false', async () => {
    const f = await memoryFixture();
    expect(tracedWrite({ ...f.env, GITMEM_FSYNC: '0' }, 'notes/off.md').filter((e) => e.kind === 'fsync')).toEqual([]);
    git(f.dir, ['config', 'gitmem.fsync', 'false'], f.env);
    expect(tracedWrite(f.env, 'notes/off-too.md').filter((e) => e.kind === 'fsync')).toEqual([]);
    expect(tracedWrite({ ...f.env, GITMEM_FSYNC: '1' }, 'notes/on-again.md').some((e) => e.kind === 'fsync')).toBe(
      true,
    );
  });
});
