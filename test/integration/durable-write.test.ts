// A memory write is durable by default: under a syscall trace (strace) of the real CLI, every object, the
// journal, the work-tree file, the index and the ref are fsynced before the rename that publishes them, each
// directory after it, in the order objects → journal → files → index + ref → their directories. GITMEM_FSYNC=0
// and `git config gitmem.fsync false` turn every fsync off.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GITMEM_BIN } from '../helpers/cli.js';
import { memoryFixture } from '../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../helpers/tmp.js';

afterAll(() => cleanupTmp());

type Event = { kind: 'fsync'; path: string } | { kind: 'rename'; from: string; to: string };

/** The fsync and rename calls of a write run by the CLI under strace, in the order they happened. */
function tracedWrite(env: Record<string, string>, file: string): Event[] {
  const out = join(makeTmpDir('gitmem-strace-'), 'trace');
  const args = ['memory', 'create', file, '--description', 'durable', '--text', 'hello', '--reason', 'durable write', '--agent', 'agent-1'];
  const r = spawnSync('strace', ['-f', '-y', '-qq', '-s', '4096', '-o', out, '-e', 'trace=fsync,fdatasync,rename,renameat,renameat2', process.execPath, GITMEM_BIN, ...args], { env, encoding: 'utf8' });
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  const events: Event[] = [];
  const pending = new Map<string, string>(); // pid → path of an fsync strace shows as <unfinished ...>
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const pid = /^(\d+) /.exec(line)?.[1] ?? '';
    const started = /\b(?:fsync|fdatasync)\(\d+<(.*)> <unfinished \.\.\.>/.exec(line);
    if (started?.[1] !== undefined) pending.set(pid, started[1]);
    const resumed = /<\.\.\. (?:fsync|fdatasync) resumed>\) += 0/.test(line) ? pending.get(pid) : undefined;
    if (resumed !== undefined) events.push({ kind: 'fsync', path: resumed }); // done: counted when it returned
    const sync = /\b(?:fsync|fdatasync)\(\d+<(.*)>\) += 0/.exec(line);
    if (sync?.[1] !== undefined) events.push({ kind: 'fsync', path: sync[1] });
    const moved = /\brename(?:at2?)?\((?:[^,]+, )?"([^"]*)", (?:[^,]+, )?"([^"]*)"/.exec(line);
    if (moved?.[1] !== undefined && moved[2] !== undefined) events.push({ kind: 'rename', from: moved[1], to: moved[2] });
  }
  return events;
}

const at = (events: Event[], pred: (e: Event) => boolean, after = -1): number => {
  const i = events.findIndex((e, n) => n > after && pred(e));
  expect(i, `an expected call after #${after} is missing`).toBeGreaterThanOrEqual(0);
  return i;
};
const synced = (re: RegExp) => (e: Event): boolean => e.kind === 'fsync' && re.test(e.path);
const renamedTo = (re: RegExp) => (e: Event): boolean => e.kind === 'rename' && re.test(e.to);

describe('durable writes', { tags: ['strace'] }, () => {
  it('fsyncs objects, journal, file, index and ref, each before its rename, in that order', async () => {
    const f = await memoryFixture();
    const ev = tracedWrite(f.env, 'notes/deep/x.md');
    const gitDir = join(f.dir, '.git');
    // Objects: each fsynced before its rename, then each fan-out directory; all before the journal.
    const objectRenames = ev.flatMap((e, i) => (e.kind === 'rename' && /\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(e.to) ? [{ e, i }] : []));
    expect(objectRenames.length).toBeGreaterThanOrEqual(4); // blob, two trees on the way, root tree, commit
    const journal = at(ev, synced(/\/gitmem-write\.json\.tmp$/));
    for (const { e, i } of objectRenames) {
      if (e.kind !== 'rename') continue;
      expect(ev.findIndex((x) => x.kind === 'fsync' && x.path === e.from)).toBeLessThan(i);
      const dirSync = at(ev, (x) => x.kind === 'fsync' && x.path === dirname(e.to), i);
      expect(dirSync).toBeLessThan(journal);
    }
    // The journal: file, rename, git dir; then the work-tree file: file, rename, every directory on the way.
    const journalRename = at(ev, renamedTo(/\/gitmem-write\.json$/), journal);
    const journalDir = at(ev, (e) => e.kind === 'fsync' && e.path === gitDir, journalRename);
    const fileSync = at(ev, synced(/\/notes\/deep\/\.gitmem-tmp-/), journalDir);
    const fileRename = at(ev, renamedTo(/\/x\.md$/), fileSync);
    const dirs = [f.dir, join(f.dir, 'notes'), join(f.dir, 'notes/deep')].map((d) => at(ev, (e) => e.kind === 'fsync' && e.path === d, fileRename));
    // git: index and ref, each fsynced before its rename, after the files; then both directories.
    const indexSync = at(ev, synced(/\/\.git\/index\.lock$/), Math.max(...dirs));
    const indexRename = at(ev, renamedTo(/\/\.git\/index$/), indexSync);
    const refSync = at(ev, synced(/\/\.git\/refs\/heads\/main\.lock$/), Math.max(...dirs));
    const refRename = at(ev, renamedTo(/\/\.git\/refs\/heads\/main$/), refSync);
    const published = Math.max(indexRename, refRename);
    at(ev, (e) => e.kind === 'fsync' && e.path === gitDir, published);
    at(ev, (e) => e.kind === 'fsync' && e.path === join(gitDir, 'refs/heads'), published);
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
