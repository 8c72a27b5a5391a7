// The in-process pack of a writer's private objects: git accepts it (re-hashing every object), it holds exactly
// the private objects, and anything unusual hands the import back to git (null) instead of guessing.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../test/helpers/tmp.js';
import { buildPrivatePack } from './pack-private.js';

afterEach(cleanupTmp);

function setup(): {
  repo: string;
  priv: string;
  base: string;
  git: (args: string[], input?: string, priv?: boolean) => string;
} {
  const home = makeTmpDir();
  const env = hermeticGitEnv(home);
  const repo = join(home, 'memory');
  const priv = join(home, 'private-objects');
  mkdirSync(priv);
  const git = (args: string[], input?: string, inPrivate = false): string =>
    execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...env,
        ...(inPrivate
          ? { GIT_OBJECT_DIRECTORY: priv, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(repo, '.git', 'objects') }
          : {}),
      },
      ...(input === undefined ? {} : { input }),
    }).trim();
  execFileSync('git', ['init', '-q', '-b', 'main', repo], { env });
  writeFileSync(join(repo, 'a.md'), 'a\n');
  git(['add', 'a.md']);
  git(['commit', '-q', '-m', 'base']);
  return { repo, priv, base: git(['rev-parse', 'HEAD']), git };
}

/** A commit on `parent` (in the private store) adding `name` with `text` to the base tree. */
function privateCommit(s: ReturnType<typeof setup>, parent: string, name: string, text: string): string {
  const blob = s.git(['hash-object', '-w', '--stdin'], text, true);
  const a = s.git(['rev-parse', `${s.base}:a.md`]);
  const tree = s.git(['mktree'], `100644 blob ${a}\ta.md\n100644 blob ${blob}\t${name}\n`, true);
  return s.git(['commit-tree', tree, '-p', parent, '-m', name], undefined, true);
}

const looseIds = (priv: string): string[] =>
  readdirSync(priv)
    .flatMap((d) => (/^[0-9a-f]{2}$/.test(d) ? readdirSync(join(priv, d)).map((f) => d + f) : []))
    .sort();

describe('buildPrivatePack', () => {
  it('packs exactly the private objects of commits on the base, and git unpacks them under their own names', () => {
    const s = setup();
    const one = privateCommit(s, s.base, 'b.md', 'b\n');
    const tip = privateCommit(s, one, 'c.md', 'c\n');
    const p = buildPrivatePack(s.priv, tip, s.base);
    expect(p).toMatchObject({
      commitCount: 2,
      objectCount: looseIds(s.priv).length,
      tipTree: s.git(['rev-parse', `${tip}^{tree}`], undefined, true),
    });
    expect(p?.blobs.get(s.git(['rev-parse', `${tip}:c.md`], undefined, true))?.toString()).toBe('c\n'); // the validator reads no blob twice
  });

  it('is accepted by unpack-objects --strict, which writes the objects into the shared store', () => {
    const s = setup();
    const tip = privateCommit(s, s.base, 'b.md', 'b\n');
    expect(() => s.git(['cat-file', '-e', tip])).toThrow();
    const p = buildPrivatePack(s.priv, tip, s.base);
    execFileSync('git', ['unpack-objects', '-q', '--strict'], {
      cwd: s.repo,
      input: p?.pack,
      env: hermeticGitEnv(s.repo),
    });
    expect(s.git(['rev-list', '--count', `${s.base}..${tip}`])).toBe('1');
    expect(s.git(['show', `${tip}:b.md`])).toBe('b');
  });

  it('hands back to git (null) for history that leaves the private objects elsewhere than at the base', () => {
    const s = setup();
    writeFileSync(join(s.repo, 'a.md'), 'a2\n');
    s.git(['commit', '-q', '-am', 'primary moved on']);
    const later = s.git(['rev-parse', 'HEAD']);
    expect(buildPrivatePack(s.priv, privateCommit(s, later, 'b.md', 'b\n'), s.base)).toBeNull();
  });

  it('hands back to git (null) for an object whose content is not its name, a link, a pack or an alternates file', () => {
    const s = setup();
    const tip = privateCommit(s, s.base, 'b.md', 'b\n');
    expect(buildPrivatePack(s.priv, tip, s.base)).not.toBeNull();
    const blob = s.git(['rev-parse', `${tip}:b.md`], undefined, true);
    const other = privateCommit(s, s.base, 'x.md', 'x\n');
    const otherBlob = s.git(['rev-parse', `${other}:x.md`], undefined, true);
    const file = (id: string): string => join(s.priv, id.slice(0, 2), id.slice(2));
    renameSync(file(otherBlob), file(blob)); // `blob`'s name now holds other content
    expect(buildPrivatePack(s.priv, tip, s.base)).toBeNull();

    const t = setup();
    const tip2 = privateCommit(t, t.base, 'b.md', 'b\n');
    const blob2 = t.git(['rev-parse', `${tip2}:b.md`], undefined, true);
    renameSync(file2(t.priv, blob2), `${file2(t.priv, blob2)}.real`);
    symlinkSync(`${file2(t.priv, blob2)}.real`, file2(t.priv, blob2));
    expect(buildPrivatePack(t.priv, tip2, t.base)).toBeNull();

    const u = setup();
    const tip3 = privateCommit(u, u.base, 'b.md', 'b\n');
    mkdirSync(join(u.priv, 'pack'));
    writeFileSync(join(u.priv, 'pack', 'pack-x.pack'), 'PACK');
    expect(buildPrivatePack(u.priv, tip3, u.base)).toBeNull();

    const v = setup();
    const tip4 = privateCommit(v, v.base, 'b.md', 'b\n');
    mkdirSync(join(v.priv, 'info'));
    writeFileSync(join(v.priv, 'info', 'alternates'), '/elsewhere\n');
    expect(buildPrivatePack(v.priv, tip4, v.base)).toBeNull();
  });
});

function file2(priv: string, id: string): string {
  return join(priv, id.slice(0, 2), id.slice(2));
}
