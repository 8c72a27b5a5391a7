// The in-process readers of refs, loose objects and loose trees (the `objectReads` fast path: git/read-ref.ts,
// loose-object.ts, loose-tree.ts) against git's own answers, through the callers that use them: the committed
// reader (git/committed-read.ts: HEAD, a commit's files, a diff, blobs); the write path asks git only. Seeded random commits from a shell: adds, edits, deletes, moves, an executable, a link,
// a name that is not UTF-8, `git gc` (packed: the loose readers give way), packed refs and an amended commit
// pruned away (a diff from a gone commit). Each answer with the fast path on must equal the plain one.
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fastPathsSwitch } from '../../../src/config.js';
import { resetFastPathEntries, fastPathEntries, setFastPaths } from '../../../src/fast-paths.js';
import {
  commitOf,
  diffCommits,
  headCommit,
  listCommit,
  listCommitEntries,
  readCommittedBlobs,
  readCommittedObjects,
  readCommittedPaths,
  resolveCommit,
} from '../../../src/git/committed-read.js';
import { listLoose } from '../../../src/git/loose-tree.js';
import { readHeadQuick, readRefQuick } from '../../../src/git/read-ref.js';
import { createGitRunner, type GitRunner } from '../../../src/git/runner.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { rng } from '../../helpers/rng.js';

afterAll(() => {
  setFastPaths(fastPathsSwitch(process.env));
  cleanupTmp();
});

const DIRS = ['', 'system', 'notes', 'notes/deep', 'skills/s1'];
const NAMES = ['a.md', 'b.md', 'é.md', 'c.txt', 'run.sh'];
const keep = (_path: string, mode: string): boolean => mode !== '160000';

const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** One random change to the work tree (its files are `files`). */
function change(dir: string, files: Set<string>, next: () => number, step: number): void {
  const roll = next();
  const existing = [...files].sort();
  const target = existing.length > 0 && roll >= 0.45 ? pick(next, existing) : undefined;
  if (target === undefined) {
    const d = pick(next, DIRS);
    const path = d === '' ? pick(next, NAMES) : `${d}/${pick(next, NAMES)}`;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    rmSync(join(dir, path), { force: true });
    if (roll < 0.05) symlinkSync('a.md', join(dir, path));
    else writeFileSync(join(dir, path), `---\ndescription: step ${step}\n---\n${'x'.repeat(step * 7)}\n`);
    if (path.endsWith('.sh') && roll >= 0.05) chmodSync(join(dir, path), 0o755);
    files.add(path);
  } else if (roll < 0.75) {
    rmSync(join(dir, target), { force: true });
    writeFileSync(join(dir, target), `edited at ${step}\n`);
  } else {
    rmSync(join(dir, target), { force: true });
    files.delete(target);
  }
}

/** What `read` answers with the fast path on, and with it off (the plain path: git). */
async function both<T>(read: () => Promise<T> | T): Promise<[T, T]> {
  setFastPaths(true);
  const fast = await read();
  setFastPaths(false);
  const plain = await read();
  setFastPaths(true);
  return [fast, plain];
}

/** What the read API asks of `head` (read, view, history, diff, revert, the committed snapshot), both ways. */
async function readApiBoth(
  runner: GitRunner,
  dir: string,
  head: string,
  files: Set<string>,
  at: string,
): Promise<void> {
  const paths = [...files, ...DIRS.filter((d) => d !== ''), 'notes/none.md', 'a.md/x', 'notes/deep/../a.md', 'x//y'];
  const [fastPaths, plainPaths] = await both(() => readCommittedPaths(runner, dir, head, paths));
  expect(fastPaths, at).toEqual(plainPaths);
  const specs = [
    head,
    ...paths.map((p) => `${head}:${p}`),
    ...(plainPaths.flatMap((o) => (o ? [o.id] : [])) as string[]),
  ];
  const [fastObjects, plainObjects] = await both(() => readCommittedObjects(runner, dir, specs));
  expect(
    fastObjects.map((o) => o && { ...o, data: o.data.toString('base64') }),
    at,
  ).toEqual(plainObjects.map((o) => o && { ...o, data: o.data.toString('base64') }));
  for (const rev of ['HEAD', `${head}^1`, 'refs/heads/main', 'refs/heads/gone']) {
    const [fastRev, plainRev] = await both(() => commitOf(runner, dir, rev));
    expect(fastRev, `${at} ${rev}`).toBe(plainRev);
  }
  const [fastAt, plainAt] = await both(() => resolveCommit(runner, dir, 'HEAD'));
  expect([fastAt, plainAt], at).toEqual([head, head]);
  const [fastEntries, plainEntries] = await both(() => listCommitEntries(runner, dir, head));
  expect(fastEntries, at).toEqual(plainEntries);
}

const blobsOf = (m: Map<string, Buffer>): string[] => [...m].map(([id, b]) => `${id}:${b.toString('base64')}`).sort();

describe('the objectReads fast path against git', () => {
  it('answers what git answers after every random step (seeded, with gc, packed refs and a pruned commit)', async () => {
    let looseAnswers = 0;
    let looseDeclined = 0;
    for (const seed of [31, 32]) {
      const dir = makeTmpDir('gitmem-object-reads-');
      const env = hermeticGitEnv(dir);
      const runner = createGitRunner({ env });
      git(dir, ['init', '-q', '-b', 'main'], env);
      const gitDir = join(dir, '.git');
      // A name that is not UTF-8, committed by raw git: never reported by either path.
      writeFileSync(Buffer.from([...Buffer.from(`${dir}/`), 0x6e, 0xff, 0x2e, 0x6d, 0x64]), 'latin1 name\n');
      const files = new Set<string>();
      const next = rng(seed);
      let prev: string | null = null;
      for (let step = 0; step < 24; step++) {
        for (let i = 0, n = 1 + Math.floor(next() * 3); i < n; i++) change(dir, files, next, step);
        git(dir, ['add', '-A'], env);
        git(dir, ['commit', '-q', '--allow-empty', '-m', `step ${step}`], env);
        if (step % 8 === 7) git(dir, ['gc', '-q', '--prune=now'], env);
        if (step % 6 === 3) git(dir, ['pack-refs', '--all'], env);
        if (step === 13) {
          // The commit the next diff starts from disappears: both paths must say "list instead".
          prev = git(dir, ['rev-parse', 'HEAD'], env);
          git(dir, ['commit', '-q', '--amend', '-m', 'amended'], env);
          git(dir, ['reflog', 'expire', '--expire=now', '--all'], env);
          git(dir, ['gc', '-q', '--prune=now'], env);
        }
        const at = `seed ${seed} step ${step}`;
        const head = git(dir, ['rev-parse', 'HEAD'], env);
        const [fastHead, plainHead] = await both(() => headCommit(runner, dir));
        expect([fastHead, plainHead], at).toEqual([head, head]);
        setFastPaths(true);
        for (const ref of ['refs/heads/main', 'refs/heads/gone'])
          expect(readRefQuick(gitDir, ref) ?? null, at).toBe(ref.endsWith('main') ? head : null);
        expect(readHeadQuick(gitDir), at).toBe(head);

        const [fastList, plainList] = await both(() => listCommit(runner, dir, head, keep));
        expect(fastList.files, at).toEqual(plainList.files);
        if (listLoose(join(gitDir, 'objects'), head, keep) === undefined) looseDeclined++;
        else looseAnswers++;
        if (prev !== null) {
          const from = prev;
          const [fastDiff, plainDiff] = await both(() => diffCommits(runner, dir, from, head, keep));
          expect(fastDiff, at).toEqual(plainDiff);
          if (step === 13) expect(plainDiff, at).toBeUndefined();
        }
        const ids = [...new Set(plainList.files.values())];
        const [fastBlobs, plainBlobs] = await both(() => readCommittedBlobs(runner, dir, ids));
        expect(blobsOf(fastBlobs), at).toEqual(blobsOf(plainBlobs));
        expect(plainBlobs.size, at).toBe(ids.length);
        await readApiBoth(runner, dir, head, files, at);
        prev = head;
      }
    }
    // Both branches of the fast path ran: it answered (loose) and gave way (packed).
    expect(looseAnswers).toBeGreaterThan(0);
    expect(looseDeclined).toBeGreaterThan(0);
  }, 240_000);

  it('never answers with the switch off: no entry is counted', async () => {
    const dir = makeTmpDir('gitmem-object-reads-');
    const env = hermeticGitEnv(dir);
    git(dir, ['init', '-q', '-b', 'main'], env);
    writeFileSync(join(dir, 'a.md'), 'a\n');
    git(dir, ['add', '-A'], env);
    git(dir, ['commit', '-q', '-m', 'a'], env);
    const head = git(dir, ['rev-parse', 'HEAD'], env);
    setFastPaths(false);
    resetFastPathEntries();
    expect(readRefQuick(join(dir, '.git'), 'refs/heads/main')).toBeUndefined();
    expect(listLoose(join(dir, '.git', 'objects'), head, keep)).toBeUndefined();
    expect(await headCommit(createGitRunner({ env }), dir)).toBe(head);
    expect(fastPathEntries('objectReads')).toBe(0);
    setFastPaths(true);
    expect(readRefQuick(join(dir, '.git'), 'refs/heads/main')).toBe(head);
    expect(fastPathEntries('objectReads')).toBe(1);
    // A hostile or unknown `at` is refused the same way on both paths (code and message).
    const runner = createGitRunner({ env });
    for (const at of ['--upload-pack=touch /tmp/x', 'HEAD:../x', 'nope', 'HEAD~5', '@{2001-01-01}']) {
      const refusal = async (): Promise<string> =>
        resolveCommit(runner, dir, at).then(
          (c) => `ok ${c}`,
          (e: unknown) => `${(e as { code?: string }).code} ${(e as Error).message}`,
        );
      const [fast, plain] = await both(refusal);
      expect(fast, at).toBe(plain);
      expect(fast, at).not.toMatch(/^ok/);
    }
  });
});
