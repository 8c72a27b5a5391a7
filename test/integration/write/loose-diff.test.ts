// The in-process raw diff (git/loose-diff.ts) against `git diff-tree -r --raw -M` on seeded random histories:
// whenever it answers, it answers exactly what git says; it answers for the shape it is for (files added or
// changed), and leaves everything else to git (removals, kind changes, links, packed objects).
import { chmodSync, mkdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseRawDiff } from '../../../src/git/commands/diff-raw.js';
import { diffLooseRaw } from '../../../src/git/loose-diff.js';
import { rng } from '../../helpers/rng.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

function repo(): string {
  const dir = makeTmpDir('gitmem-loose-diff-');
  git(dir, ['init', '-q']);
  return dir;
}

const put = (dir: string, path: string, text: string): void => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};

function commitAll(dir: string, msg: string): { commit: string; tree: string } {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--allow-empty', '-m', msg]);
  return { commit: git(dir, ['rev-parse', 'HEAD']), tree: git(dir, ['rev-parse', 'HEAD^{tree}']) };
}

const gitDiff = (dir: string, from: string, to: string) =>
  parseRawDiff(git(dir, ['diff-tree', '-r', '--raw', '-z', '-M', '--no-abbrev', from, to]).replace(/$/, '\0'));

describe('diffLooseRaw', () => {
  it('answers as git does for seeded histories of adds and edits, and leaves the rest to git', () => {
    const dir = repo();
    const objects = join(dir, '.git', 'objects');
    const next = rng(20261201);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T;
    const files = new Set<string>();
    let base = commitAll(dir, 'root');
    let [answered, deferred] = [0, 0];
    for (let round = 0; round < 60; round++) {
      const kind =
        round % 10 === 9 ? pick(['delete', 'mode', 'link', 'dir-to-file']) : pick(['add', 'edit', 'add-dir']);
      const name = `${pick(['a', 'b', 'notes', 'notes/deep', 'ü'])}/${pick(['x', 'y', 'z', 'é', 'x-y'])}${Math.floor(next() * 6)}.md`;
      const existing = [...files];
      if (kind === 'add' || (kind === 'edit' && existing.length === 0)) {
        put(dir, name, `new ${round}\n`);
        files.add(name);
      } else if (kind === 'edit') put(dir, pick(existing), `edit ${round}\n`);
      else if (kind === 'add-dir') {
        for (let i = 0; i < 3; i++) {
          put(dir, `fresh${round}/s${i}/f.md`, `${i}\n`);
          files.add(`fresh${round}/s${i}/f.md`);
        }
      } else if (kind === 'delete' && existing.length > 0) {
        const gone = pick(existing);
        unlinkSync(join(dir, gone));
        files.delete(gone);
      } else if (kind === 'mode' && existing.length > 0) chmodSync(join(dir, pick(existing)), 0o755);
      else if (kind === 'link') symlinkSync('target', join(dir, `link${round}`));
      else if (kind === 'dir-to-file' && existing.length > 0) {
        const victim = pick(existing);
        rmSync(join(dir, dirname(victim)), { recursive: true, force: true });
        for (const f of [...files]) if (f.startsWith(`${dirname(victim)}/`)) files.delete(f);
        put(dir, dirname(victim), 'now a file\n');
        files.add(dirname(victim));
      }
      const next_ = commitAll(dir, `round ${round}`);
      const ours = diffLooseRaw(objects, base.commit, next_.tree);
      const theirs = gitDiff(dir, base.commit, next_.tree);
      if (ours === undefined) deferred++;
      else {
        answered++;
        expect(ours).toEqual(theirs);
      }
      const plain = (mode: string): boolean => mode === '100644' || mode === '100755';
      if (
        theirs.every(
          (e) =>
            (e.status === 'A' || e.status === 'M') && plain(e.newMode) && (e.oldMode === '000000' || plain(e.oldMode)),
        )
      )
        expect(ours).toBeDefined();
      base = round % 3 === 0 ? next_ : base; // also diffs spanning several commits
    }
    expect(answered).toBeGreaterThan(30);
    expect(deferred).toBeGreaterThan(0);
  });

  it('leaves packed history to git', () => {
    const dir = repo();
    put(dir, 'a.md', 'one\n');
    const first = commitAll(dir, 'one');
    put(dir, 'b.md', 'two\n');
    const second = commitAll(dir, 'two');
    expect(diffLooseRaw(join(dir, '.git', 'objects'), first.commit, second.tree)).toEqual(
      gitDiff(dir, first.commit, second.tree),
    );
    git(dir, ['gc', '-q', '--prune=now']);
    expect(diffLooseRaw(join(dir, '.git', 'objects'), first.commit, second.tree)).toBeUndefined();
  });
});
