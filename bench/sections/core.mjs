// Core write path: create / str_replace through the library vs raw `git add && git commit && git rev-parse`
// on an identically configured repo with the same files. Samples are interleaved (A B, B A, …) so machine
// noise hits both sides alike; the ratio is the median of the per-pair ratios.
// BENCH_CORE_OFF=<name> adds a third side: the same writes with only that fast path off (setFastPaths).
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { fastPathEntries, resetFastPathEntries, setFastPaths } from '../../dist/fast-paths.js';
import { benchEnv, execFileP, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

async function floorRepo(size, env) {
  const dir = tmpDir('gitmem-bench-floor-');
  gitSync(dir, ['init', '-q', '-b', 'main'], env);
  // The same repository settings gitmem's init gives a memory repo, so the comparison measures the write path.
  gitSync(dir, ['config', 'core.untrackedCache', 'true'], env);
  gitSync(dir, ['config', 'core.splitIndex', 'true'], env);
  populate(dir, size, env);
  return dir;
}

async function floorWrite(dir, env, file, content) {
  writeFileSync(join(dir, file), content);
  await execFileP('git', ['-c', 'commit.gpgsign=false', 'add', '--', file], { cwd: dir, env });
  await execFileP('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'floor write'], { cwd: dir, env });
  await execFileP('git', ['rev-parse', 'HEAD'], { cwd: dir, env });
}

/**
 * Runs `pairs` interleaved rounds (after 3 warm-up ones) of the floor and each of our sides, the order rotating
 * from round to round; returns each side's stats and its median per-round ratio to the floor of that round.
 */
async function interleaved(pairs, floor, ...ours) {
  const sides = [floor, ...ours];
  const times = sides.map(() => []);
  for (let i = -3; i < pairs; i++) {
    const t = [];
    for (let k = 0; k < sides.length; k++) {
      const s = (k + i + 3) % sides.length;
      const t0 = performance.now();
      await sides[s](i + 3);
      t[s] = performance.now() - t0;
    }
    if (i >= 0) t.forEach((ms, s) => times[s].push(ms));
  }
  return times.slice(1).map((o) => ({
    floor: stats(times[0]),
    ours: stats(o),
    ratio: stats(o.map((ms, j) => ms / times[0][j])).median,
  }));
}

/** A memory of `size` files whose writes run with every fast path on except `except` (the on side: none). */
async function toolSide(size, except) {
  const home = tmpDir('gitmem-bench-home-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-1' });
  let prev = -1;
  return {
    home,
    create: async (i) => {
      setFastPaths(true, except);
      const call = { command: 'create', reason: 'bench create', file_path: `notes/new-${i}.md`, description: 'bench' };
      await memory.tool({ ...call, file_text: `x${i}` });
    },
    str_replace: async (i) => {
      setFastPaths(true, except);
      const edit = { file_path: 'edit.md', old_string: `v${prev}\n`, new_string: `v${i}\n` };
      await memory.tool({ command: 'str_replace', reason: 'bench edit', ...edit });
      prev = i;
    },
  };
}

/**
 * The tool rows at one size against the floor; with `off` (a fast path's name) the same writes with only that
 * fast path off run in the same rounds, against the same floor (does a target still hold without it?).
 */
async function sizeRows(size, pairs, off) {
  const sides = [await toolSide(size, [])];
  if (off) sides.push(await toolSide(size, [off]));
  resetFastPathEntries();
  const env = benchEnv(sides[0].home);
  const floorDir = await floorRepo(size, env);
  const desc = '---\ndescription: floor\n---\n';
  const create = await interleaved(
    pairs,
    (i) => floorWrite(floorDir, env, `new-${i}.md`, `${desc}x${i}\n`),
    ...sides.map((s) => s.create),
  );
  writeFileSync(join(floorDir, 'edit.md'), `${desc}v-1\n`);
  const replace = await interleaved(
    pairs,
    (i) => floorWrite(floorDir, env, 'edit.md', `${desc}v${i}\n`),
    ...sides.map((s) => s.str_replace),
  );
  setFastPaths(true);
  // Entered by the on side only; 0: it took the plain path too (below ~5,000 files), the rows differ by noise.
  const entered = off ? fastPathEntries(off) : undefined;
  if (off) process.stderr.write(`bench: core @ ${size}: ${off} entered ${entered} times\n`);
  for (const dir of [...sides.map((s) => s.home), floorDir]) rmSync(dir, { recursive: true, force: true });
  const target = size >= 50000 ? '<= 0.5x' : size >= 10000 ? '<= 1.0x' : size >= 1000 ? '<= 1.25x' : '';
  const row = (name, r) => ({
    section: 'core',
    name: `${name} @ ${size} files`,
    median_ms: round(r.ours.median),
    p95_ms: round(r.ours.p95),
    floor_name: 'git add+commit+rev-parse',
    floor_median_ms: round(r.floor.median),
    ratio: round(r.ratio),
    target,
    load: loadavg().map(round).join(' '),
  });
  const rows = [row('tool create', create[0]), row('tool str_replace', replace[0])];
  if (off) rows.push(row(`tool create, ${off} off`, create[1]), row(`tool str_replace, ${off} off`, replace[1]));
  return rows;
}

// BENCH_CORE_SIZES=1000,10000 picks the sizes (default 10 to 50,000 files; the 50,000 row has its own target).
// BENCH_CORE_OFF=<fast path> adds, in the same rounds, the tool rows with only that fast path off.
export async function bench({ iterations = 30 } = {}) {
  const sizes = (process.env.BENCH_CORE_SIZES ?? '10,1000,10000,50000').split(',').map(Number);
  const off = process.env.BENCH_CORE_OFF || undefined;
  const rows = [];
  for (const size of sizes)
    rows.push(...(await sizeRows(size, size >= 10000 ? Math.max(16, iterations) : iterations + 10, off)));
  return rows;
}
