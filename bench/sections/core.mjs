// Core write path: create / str_replace through the library vs raw `git add && git commit && git rev-parse`
// on an identically configured repo with the same files. Samples are interleaved (A B, B A, …) so machine
// noise hits both sides alike; the ratio is the median of the per-pair ratios.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
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

/** Runs `pairs` interleaved pairs (after 3 warm-up pairs); returns both sides' stats and the median ratio. */
async function interleaved(pairs, floor, ours) {
  const f = [];
  const o = [];
  const ratios = [];
  for (let i = -3; i < pairs; i++) {
    const time = async (fn) => {
      const t0 = performance.now();
      await fn(i + 3);
      return performance.now() - t0;
    };
    const [a, b] = i % 2 === 0 ? [await time(floor), await time(ours)] : [0, 0];
    const [d, c] = i % 2 !== 0 ? [await time(ours), await time(floor)] : [b, a];
    if (i < 0) continue;
    f.push(c);
    o.push(d);
    ratios.push(d / c);
  }
  return { floor: stats(f), ours: stats(o), ratio: stats(ratios).median };
}

async function sizeRows(size, pairs) {
  const home = tmpDir('gitmem-bench-home-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env);
  const floorDir = await floorRepo(size, env);
  const desc = '---\ndescription: floor\n---\n';
  const create = await interleaved(
    pairs,
    (i) => floorWrite(floorDir, env, `new-${i}.md`, `${desc}x${i}\n`),
    (i) =>
      memory.tool({
        command: 'create',
        reason: 'bench create',
        file_path: `notes/new-${i}.md`,
        description: 'bench',
        file_text: `x${i}`,
      }),
  );
  writeFileSync(join(floorDir, 'edit.md'), `${desc}v-1\n`);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-1' });
  let prev = -1;
  const replace = await interleaved(
    pairs,
    (i) => floorWrite(floorDir, env, 'edit.md', `${desc}v${i}\n`),
    async (i) => {
      await memory.tool({
        command: 'str_replace',
        reason: 'bench edit',
        file_path: 'edit.md',
        old_string: `v${prev}\n`,
        new_string: `v${i}\n`,
      });
      prev = i;
    },
  );
  rmSync(home, { recursive: true, force: true });
  rmSync(floorDir, { recursive: true, force: true });
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
  });
  return [row('tool create', create), row('tool str_replace', replace)];
}

// BENCH_CORE_SIZES=1000,10000 picks the sizes (default 10 to 50,000 files; the 50,000 row has its own target).
export async function bench({ iterations = 30 } = {}) {
  const sizes = (process.env.BENCH_CORE_SIZES ?? '10,1000,10000,50000').split(',').map(Number);
  const rows = [];
  for (const size of sizes)
    rows.push(...(await sizeRows(size, size >= 10000 ? Math.max(16, iterations) : iterations + 10)));
  return rows;
}
