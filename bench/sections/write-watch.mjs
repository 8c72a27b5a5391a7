// A memory write (str_replace) with the work-tree watcher (the default: it runs from the second write on,
// in repos of ~5,000 files or more) and without it (watchWorkTree: false), next to the raw-git floor
// (`git add && git commit && git rev-parse`) on an identically populated repo. The three sides run in
// rotating order each round, so machine noise hits them alike; each ratio is the median of per-round ratios.
// BENCH_WATCH_SIZES=10,1000 picks the sizes (default 10, 1,000, 10,000, 50,000).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { benchEnv, execFileP, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

const DESC = '---\ndescription: floor\n---\n';

async function memoryAt(size, watchWorkTree) {
  const home = tmpDir('gitmem-bench-watch-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env, watchWorkTree });
  populate(memory.memoryDir, size, env);
  gitSync(memory.memoryDir, ['repack', '-adq'], env);
  gitSync(memory.memoryDir, ['prune-packed'], env);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-1' });
  let prev = -1;
  return async (i) => {
    await memory.tool({
      command: 'str_replace',
      reason: 'bench edit',
      file_path: 'edit.md',
      old_string: `v${prev}\n`,
      new_string: `v${i}\n`,
    });
    prev = i;
  };
}

function floorAt(size, env) {
  const dir = tmpDir('gitmem-bench-watch-floor-');
  gitSync(dir, ['init', '-q', '-b', 'main'], env);
  gitSync(dir, ['config', 'core.untrackedCache', 'true'], env);
  gitSync(dir, ['config', 'core.splitIndex', 'true'], env);
  populate(dir, size, env);
  gitSync(dir, ['repack', '-adq'], env);
  gitSync(dir, ['prune-packed'], env);
  return async (i) => {
    writeFileSync(join(dir, 'edit.md'), `${DESC}v${i}\n`);
    await execFileP('git', ['-c', 'commit.gpgsign=false', 'add', '--', 'edit.md'], { cwd: dir, env });
    await execFileP('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'floor write'], { cwd: dir, env });
    await execFileP('git', ['rev-parse', 'HEAD'], { cwd: dir, env });
  };
}

async function sizeRows(size, rounds) {
  const env = benchEnv(tmpDir('gitmem-bench-watch-env-'));
  const sides = { floor: floorAt(size, env), watched: await memoryAt(size, true), plain: await memoryAt(size, false) };
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  const warmup = 4; // the watcher starts at the second write and takes its baseline at the next
  for (let r = -warmup; r < rounds; r++) {
    const order = names.map((_, k) => names[(k + r + warmup) % names.length]);
    const t = {};
    for (const n of order) {
      const t0 = performance.now();
      await sides[n](r + warmup);
      t[n] = performance.now() - t0;
    }
    if (r >= 0) for (const n of names) samples[n].push(t[n]);
  }
  const floor = stats(samples.floor);
  const row = (name, key, target) => {
    const s = stats(samples[key]);
    const ratios = samples[key].map((x, k) => x / samples.floor[k]);
    return {
      section: 'write-watch',
      name: `${name} @ ${size} files`,
      median_ms: round(s.median),
      p95_ms: round(s.p95),
      floor_name: 'git add+commit+rev-parse',
      floor_median_ms: round(floor.median),
      ratio: round(stats(ratios).median),
      target,
    };
  };
  return [
    row('str_replace, watcher (default)', 'watched', size >= 50000 ? '<= 0.3x' : size <= 10 ? '= unwatched' : ''),
    row('str_replace, watchWorkTree: false', 'plain', ''),
  ];
}

export async function bench({ iterations = 30 } = {}) {
  const sizes = (process.env.BENCH_WATCH_SIZES ?? '10,1000,10000,50000').split(',').map(Number);
  const rows = [];
  for (const size of sizes) {
    rows.push(...(await sizeRows(size, Math.max(12, iterations))));
    rmSync(tmpDir('gitmem-bench-watch-done-'), { recursive: true, force: true });
  }
  return rows;
}
