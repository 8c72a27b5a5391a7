// Sync round trip against a bare remote by path: `syncMemory` (fetch → rebase → push) vs the raw floor
// `git pull --rebase && git push`, each iteration with one incoming commit from a peer and one local
// commit (set up untimed). Also the post-turn push of one commit vs raw `git push`, and the post-turn
// check when there is nothing to push vs `git status --porcelain` alone. Target: round trip <= 1.2x.
//
// This machine is noisy (2 cores, other jobs), so floor and gitmem run interleaved on the SAME repos:
// A B, B A, A B, … Each adjacent pair gives one ratio; the row reports the median of those ratios, so
// drift and bursts of load hit both sides alike instead of landing on whichever ran second.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner, syncAfterTurn, syncMemory } from '../../dist/internals.js';
import { benchEnv, execFileP, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

const G = ['-c', 'commit.gpgsign=false'];

function commitFile(dir, env, file, text) {
  writeFileSync(join(dir, file), `---\ndescription: ${file}\n---\n${text}\n`);
  gitSync(dir, ['add', '--', file], env);
  gitSync(dir, ['commit', '-q', '--no-verify', '-m', text], env);
}

const made = [];

/** A bare remote seeded with `files` files, a working clone and a peer clone. */
function setup(env, files) {
  const base = tmpDir('gitmem-bench-sync-');
  made.push(base);
  const remote = join(base, 'remote.git');
  gitSync(base, ['init', '-q', '--bare', '-b', 'main', remote], env);
  const seed = join(base, 'seed');
  gitSync(base, ['init', '-q', '-b', 'main', seed], env);
  populate(seed, files, env);
  gitSync(seed, ['push', '-q', remote, 'main'], env);
  const clone = (name) => {
    const dir = join(base, name);
    gitSync(base, ['clone', '-q', remote, dir], env);
    return dir;
  };
  return { local: clone('local'), peer: clone('peer') };
}

const median = (xs) => stats(xs).median;

/**
 * Runs `pairs` pairs of (floor, ours), alternating which goes first, each sample after an untimed
 * `prepare`. Returns both sides' stats and the median of the per-pair ratios ours/floor.
 */
async function interleaved(pairs, prepare, floor, ours, warmupPairs = 4) {
  const samples = { floor: [], ours: [] };
  const ratios = [];
  const once = async (fn) => {
    await prepare();
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  for (let i = -warmupPairs; i < pairs; i++) {
    const floorFirst = i % 2 === 0;
    const a = await once(floorFirst ? floor : ours);
    const b = await once(floorFirst ? ours : floor);
    const [f, o] = floorFirst ? [a, b] : [b, a];
    if (i < 0) continue;
    samples.floor.push(f);
    samples.ours.push(o);
    ratios.push(o / f);
  }
  return { floor: stats(samples.floor), ours: stats(samples.ours), ratio: median(ratios) };
}

function roundTrip(env, git, pairs) {
  const { local, peer } = setup(env, 100);
  let n = 0;
  const prepare = async () => {
    n++;
    gitSync(peer, ['pull', '-q', '--rebase', 'origin', 'main'], env);
    commitFile(peer, env, `peer-${n}.md`, `peer ${n}`);
    gitSync(peer, ['push', '-q', 'origin', 'main'], env);
    commitFile(local, env, `local-${n}.md`, `local ${n}`);
  };
  const floor = async () => {
    await execFileP('git', [...G, 'pull', '-q', '--rebase', 'origin', 'main'], { cwd: local, env });
    await execFileP('git', [...G, 'push', '-q', 'origin', 'main'], { cwd: local, env });
  };
  const ours = async () => {
    const r = await syncMemory({ git, memoryDir: local });
    if (r.status !== 'pushed') throw new Error(`sync ended ${r.status}: ${r.summary}`);
  };
  return interleaved(pairs, prepare, floor, ours);
}

function pushOne(env, git, pairs) {
  const { local } = setup(env, 100);
  let n = 0;
  const prepare = async () => commitFile(local, env, `p-${++n}.md`, `p ${n}`);
  const floor = () => execFileP('git', [...G, 'push', '-q', 'origin', 'main'], { cwd: local, env });
  const ours = async () => {
    const r = await syncAfterTurn({ git, memoryDir: local });
    if (r.status !== 'pushed') throw new Error(`post-turn sync ended ${r.status}: ${r.summary}`);
  };
  return interleaved(pairs, prepare, floor, ours);
}

function nothingToPush(env, git, pairs) {
  const { local } = setup(env, 100);
  const floor = () => execFileP('git', ['status', '--porcelain'], { cwd: local, env });
  const ours = async () => {
    const r = await syncAfterTurn({ git, memoryDir: local });
    if (r.status !== 'clean') throw new Error(`post-turn sync ended ${r.status}`);
  };
  return interleaved(pairs, async () => undefined, floor, ours);
}

export async function bench({ iterations }) {
  const home = tmpDir('gitmem-bench-sync-home-');
  made.push(home);
  try {
    return await measure(iterations, home);
  } finally {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(iterations, home) {
  const env = benchEnv(home);
  const git = createGitRunner({ env });
  const row = (name, m, floorName, target) => ({
    section: 'sync',
    name,
    median_ms: round(m.ours.median),
    p95_ms: round(m.ours.p95),
    floor_name: floorName,
    floor_median_ms: round(m.floor.median),
    ratio: round(m.ratio),
    target,
  });
  // The headline row gets more pairs than the others: it is the one with a target.
  const rt = await roundTrip(env, git, iterations + 10);
  const push = await pushOne(env, git, iterations);
  const idle = await nothingToPush(env, git, iterations);
  return [
    row('sync round trip (1 in, 1 out; bare by path)', rt, 'git pull --rebase && git push', '<= 1.2x'),
    row('post-turn sync, 1 commit to push', push, 'git push', ''),
    row('post-turn sync, nothing to push', idle, 'git status --porcelain', ''),
  ];
}
