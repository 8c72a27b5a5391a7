// The strict readers beside git's own checks: seeded hostile trees and commits are stored as they are
// (`hash-object --literally`) and `git fsck --strict` judges every one; whatever the strict readers accept
// must draw no complaint from fsck. So the import that skips `unpack-objects --strict` for accepted objects
// (worktree/import-direct.ts) lets in nothing git would have refused. GITMEM_FUZZ_SEED changes the seed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStrictCommit, parseStrictTree } from '../../../src/git/strict-objects.js';
import { rng } from '../../helpers/rng.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const SEED = Number(process.env['GITMEM_FUZZ_SEED'] ?? 20261202);
const CASES = 400;

let repo: string;
let env: Record<string, string>;
let blob: string;
let emptyTree: string;

beforeAll(() => {
  const home = makeTmpDir();
  env = hermeticGitEnv(home);
  repo = join(home, 'repo');
  git(home, ['init', '-q', repo], env);
  blob = execFileSync('git', ['hash-object', '-w', '--stdin'], {
    cwd: repo,
    env,
    input: 'x\n',
    encoding: 'utf8',
  }).trim();
  emptyTree = execFileSync('git', ['hash-object', '-w', '-t', 'tree', '--stdin'], {
    cwd: repo,
    env,
    input: '',
    encoding: 'utf8',
  }).trim();
});

afterAll(() => cleanupTmp());

const PLAIN = ['a', 'a.md', 'b', 'notes', 'Zeta', 'x y', 'a-b', 'a.b', '.hidden', 'a~b'];
const NAMES = [
  ...PLAIN,
  '.git',
  '.GIT',
  '.Git',
  '.git.',
  '.git ',
  'git~1',
  'GIT~1',
  '.gitmodules',
  '.GITMODULES',
  '.gitmodules.',
  'gitmod~1',
  '.gitattributes',
  '.gitignore',
  '..',
  '.',
  '',
  'a/b',
  'a\\b',
  'x:y',
  '.git::$INDEX_ALLOCATION',
  'tail.',
  'tail ',
  'a\tb',
  'a\nb',
  '\u00e9t\u00e9',
  '.g\u200cit',
  'con',
  'nul.md',
  '~',
  'a~b',
];
const MODES = [
  '100644',
  '100644',
  '100644',
  '100755',
  '120000',
  '40000',
  '40000',
  '040000',
  '160000',
  '100664',
  '644',
  '0100644',
];

/** One candidate tree: a few entries with hostile names and modes, in git order most of the time. */
function candidateTree(r: () => number): Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const entries = Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
    const mode = r() < 0.6 ? pick(['100644', '40000']) : pick(MODES);
    return {
      mode,
      name: Buffer.from(r() < 0.6 ? pick(PLAIN) : pick(NAMES), 'utf8'),
      id: mode.endsWith('40000') ? emptyTree : blob,
    };
  });
  const key = (e: { mode: string; name: Buffer }): Buffer =>
    e.mode.endsWith('40000') ? Buffer.concat([e.name, Buffer.from('/')]) : e.name;
  if (r() < 0.8) entries.sort((x, y) => Buffer.compare(key(x), key(y)));
  return Buffer.concat(
    entries.flatMap((e) => [Buffer.from(`${e.mode} `), e.name, Buffer.from([0]), Buffer.from(e.id, 'hex')]),
  );
}

const IDENTS = [
  'A U Thor <a@example.com> 1700000000 +0100',
  ' <a@x> 0 -0000',
  '<a@x> 1 +0000',
  'A<a@x> 1 +0000',
  'A <a@x>1 +0000',
  'A <a@x> 01 +0000',
  'A <a@x> 1 +000',
  'A <a@x> 1 0000',
  'A <a<b@x> 1 +0000',
  'A <a@x> 99999999999999999999 +0000',
  'A <a@x> 1 +0000 ',
  'A > <a@x> 1 +0000',
  'A <> 1 +0000',
];

/** One candidate commit: the usual header or one of its hostile variations. */
function candidateCommit(r: () => number): Buffer {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const ident = (): string => (r() < 0.75 ? (IDENTS[0] as string) : pick(IDENTS));
  const lines = [`tree ${r() < 0.8 ? emptyTree : pick([emptyTree.toUpperCase(), '0'.repeat(40), emptyTree.slice(1)])}`];
  for (let n = Math.floor(r() * 3); n > 0; n--) lines.push(`parent ${pick([emptyTree, blob])}`);
  if (r() < 0.9) lines.push(`author ${ident()}`);
  if (r() < 0.1) lines.push(`author ${ident()}`);
  if (r() < 0.9) lines.push(`committer ${ident()}`);
  if (r() < 0.1) lines.push(pick(['encoding ISO-8859-1', 'gpgsig x', `parent ${blob}`, 'mergetag x']));
  if (r() < 0.1) lines.splice(1 + Math.floor(r() * lines.length), 0, lines[0] as string);
  return Buffer.from(`${lines.join('\n')}${r() < 0.95 ? '\n\n' : '\n'}message\n`, 'latin1');
}

/** Stores each body as it is and returns the ids; then the objects fsck complains about, by id. */
function storeAndJudge(type: 'tree' | 'commit', bodies: Buffer[]): { ids: string[]; complained: Set<string> } {
  const dir = join(repo, '..', `bodies-${type}`);
  mkdirSync(dir, { recursive: true });
  const files = bodies.map((b, i) => {
    const f = join(dir, String(i));
    writeFileSync(f, b);
    return f;
  });
  const ids = execFileSync('git', ['hash-object', '--literally', '-w', '-t', type, ...files], {
    cwd: repo,
    env,
    encoding: 'utf8',
  })
    .trim()
    .split('\n');
  // fsck exits non-zero when it complains: its messages are read either way.
  const fsck = spawnSync('git', ['fsck', '--strict', '--no-dangling', '--no-progress'], {
    cwd: repo,
    env,
    encoding: 'utf8',
  });
  const out = `${fsck.stdout}\n${fsck.stderr}`;
  const complained = new Set(
    [...out.matchAll(/(?:error|warning) in (?:tree|commit) ([0-9a-f]{40})/g)].map((m) => m[1] as string),
  );
  return { ids, complained };
}

const KINDS = [
  { type: 'tree' as const, seed: SEED, candidate: candidateTree, accepts: (b: Buffer) => parseStrictTree(b) !== null },
  {
    type: 'commit' as const,
    seed: SEED + 1,
    candidate: candidateCommit,
    accepts: (b: Buffer) => parseStrictCommit(b) !== null,
  },
];

describe('the strict readers accept nothing git fsck --strict objects to', () => {
  it.each(KINDS)(`$type: ${CASES} seeded candidates`, ({ type, seed, candidate, accepts }) => {
    const r = rng(seed);
    const bodies = Array.from({ length: CASES }, () => candidate(r));
    const { ids, complained } = storeAndJudge(type, bodies);
    const accepted = ids.filter((_, i) => accepts(bodies[i] as Buffer));
    expect(accepted.filter((id) => complained.has(id))).toEqual([]);
    // The run means something: both sides of the line were met.
    expect(accepted.length).toBeGreaterThan(20);
    expect(complained.size).toBeGreaterThan(50);
  });
});
