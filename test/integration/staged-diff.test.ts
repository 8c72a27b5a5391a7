// The staged diff made without git (hooks/staged-diff.ts over git/index-file.ts) beside `git diff --cached
// --raw -M` itself: seeded rounds of adds, edits, deletions, mode and type changes (unicode and spaced names,
// nested directories) must give git's answer exactly, or null where git's rename detection may pair an add
// with a deletion; index forms the reader does not handle (version 4, a split index, a conflict, an
// intent-to-add entry) answer null, and a hostile index never throws. GITMEM_FUZZ_SEED changes the seed.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRawDiff } from '../../src/git/commands/diff-raw.js';
import { entryPath, parseIndex, readIndexFile, type IndexEntries } from '../../src/git/index-file.js';
import { stagedDiff } from '../../src/hooks/staged-diff.js';
import { rng } from '../helpers/rng.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../helpers/tmp.js';

const SEED = Number(process.env['GITMEM_FUZZ_SEED'] ?? 15);
const ROUNDS = 60;

let repo: string;
let env: Record<string, string>;
let base: IndexEntries;
let baseFiles: string[];

const g = (args: string[], input?: string): string =>
  execFileSync('git', ['-c', 'core.splitIndex=false', ...args], { cwd: repo, env, encoding: 'utf8', ...(input === undefined ? {} : { input }) });
const blobOf = (text: string): string => g(['hash-object', '-w', '--stdin'], text).trim();
const gitDiff = (): ReturnType<typeof parseRawDiff> => parseRawDiff(g(['diff', '--cached', '--raw', '-z', '-M', '--no-abbrev', '--no-ext-diff', '--no-textconv']));

beforeAll(() => {
  const home = makeTmpDir();
  env = hermeticGitEnv(home);
  repo = join(home, 'repo');
  git(home, ['init', '-q', '-b', 'main', repo], env);
  // Enough entries that whole runs of identical entries are skipped as byte ranges (hooks/staged-diff.ts RUN).
  const bulk = Array.from({ length: 300 }, (_, n) => `bulk/d${Math.floor(n / 50)}/f${n}.md`);
  baseFiles = ['a.md', 'b c.md', 'notes/x.md', 'notes/sub/y.md', 'notes-z.md', 'system/persona.md', 'z/\u00e9t\u00e9.md', 'run.sh', ...bulk];
  for (const f of baseFiles) {
    mkdirSync(join(repo, f, '..'), { recursive: true });
    writeFileSync(join(repo, f), `text of ${f}\n`);
  }
  g(['add', '-A']);
  g(['update-index', '--chmod=+x', 'run.sh']);
  g(['commit', '-q', '-m', 'base']);
  g(['read-tree', 'HEAD']); // as each round starts: the same entries, byte for byte, as a fresh checkout's
  base = readIndexFile(join(repo, '.git', 'index')) as IndexEntries;
});

afterAll(() => cleanupTmp());

/** One round of staged changes on top of HEAD's index. */
function stageRound(r: () => number, round: number): void {
  g(['read-tree', 'HEAD']);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const fresh = ['new.md', 'notes/new.md', 'notes/sub/deep/n.md', 'a', 'notes0.md', 'b c/inner.md', 'Z.md', '\u00fc.md', 'notes/x.md.bak', 'bulk/d2/f0.md', 'bulk/d5/zz.md', 'bulk/d0/f00.md'];
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) {
    const op = pick(['add', 'edit', 'edit', 'delete', 'chmod', 'link']);
    const file = pick(baseFiles);
    const blob = blobOf(`round ${round} ${n}\n`);
    const put = (mode: string, id: string, path: string): void => void g(['update-index', '--add', '--cacheinfo', `${mode},${id},${path}`]);
    if (op === 'add') put('100644', blob, pick(fresh));
    else if (op === 'edit') put('100644', blob, file);
    else if (op === 'delete') g(['update-index', '--force-remove', file]);
    else if (op === 'chmod') put('100755', g(['rev-parse', `HEAD:${file}`]).trim(), file);
    else put('120000', blob, file);
  }
}

describe('the staged diff made without git', () => {
  it(`gives git's answer, or null where renames may pair (${ROUNDS} seeded rounds)`, () => {
    const r = rng(SEED);
    let answered = 0;
    for (let round = 0; round < ROUNDS; round++) {
      stageRound(r, round);
      const staged = readIndexFile(join(repo, '.git', 'index'));
      expect(staged).not.toBeNull();
      const mine = stagedDiff(base, staged as IndexEntries);
      const theirs = gitDiff();
      if (mine === null) {
        // Only when the round both adds and deletes paths (git may call some of it a rename).
        const plain = parseRawDiff(g(['diff', '--cached', '--raw', '-z', '--no-renames', '--no-abbrev']));
        expect(plain.some((e) => e.status === 'A') && plain.some((e) => e.status === 'D')).toBe(true);
      } else {
        expect(mine).toEqual(theirs);
        answered++;
      }
    }
    expect(answered).toBeGreaterThan(ROUNDS / 3);
  });

  it('answers null for index forms it does not read: version 4, split, a conflict, intent-to-add', () => {
    const index = join(repo, '.git', 'index');
    const reset = (): void => void g(['read-tree', 'HEAD']);
    reset();
    g(['update-index', '--index-version', '4']);
    expect(readIndexFile(index)).toBeNull();
    g(['update-index', '--index-version', '2']);
    expect(readIndexFile(index)).not.toBeNull();
    execFileSync('git', ['-c', 'core.splitIndex=true', 'update-index', '--split-index'], { cwd: repo, env });
    expect(readIndexFile(index)).toBeNull();
    execFileSync('git', ['update-index', '--no-split-index'], { cwd: repo, env });
    const blob = blobOf('conflict\n');
    g(['update-index', '--index-info'], `100644 ${blob} 3\tconflict.md\n`); // added by them: one stage only
    expect(readIndexFile(index)).toBeNull();
    reset();
    writeFileSync(join(repo, 'ita.md'), 'ita\n');
    g(['add', '-N', 'ita.md']);
    expect(readIndexFile(index)).toBeNull();
    reset();
    expect(readIndexFile(index)).not.toBeNull();
  });

  it('never throws on a damaged index: every truncation and a seeded set of flipped bytes', () => {
    g(['read-tree', 'HEAD']);
    const good = readFileSync(join(repo, '.git', 'index'));
    expect(parseIndex(good)?.count).toBe(baseFiles.length);
    for (let n = 0; n < good.length; n += 7) expect(() => parseIndex(good.subarray(0, n))).not.toThrow();
    const r = rng(SEED + 1);
    for (let k = 0; k < 2000; k++) {
      const bad = Buffer.from(good);
      for (let f = 1 + Math.floor(r() * 3); f > 0; f--) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256);
      expect(() => parseIndex(bad)).not.toThrow();
    }
    const copy = join(repo, '..', 'index-copy');
    copyFileSync(join(repo, '.git', 'index'), copy);
    const copied = readIndexFile(copy) as IndexEntries;
    expect(Array.from({ length: copied.count }, (_, i) => entryPath(copied, i))).toEqual(Array.from({ length: base.count }, (_, i) => entryPath(base, i)));
  });
});
