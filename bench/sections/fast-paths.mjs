// The fast paths (src/fast-paths.ts) against their plain git paths: the same tool write (str_replace) in two
// identically populated memories, one opened as a user's process opens it, one with GITMEM_FAST_PATHS=0,
// interleaved (alternating which runs first) in the same run; each reports the median per-round ratio and the
// load average. The switch is per process and set when a memory is opened, so it is set again before each side.
// BENCH_FAST_SIZES=1000 picks the sizes (default 1,000 and 10,000).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { setFastPaths } from '../../dist/fast-paths.js';
import { benchEnv, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

async function writerAt(size, fast) {
  const home = tmpDir('gitmem-bench-fast-');
  const env = { ...benchEnv(home), ...(fast ? {} : { GITMEM_FAST_PATHS: '0' }) };
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env);
  gitSync(memory.memoryDir, ['repack', '-adq'], env);
  gitSync(memory.memoryDir, ['prune-packed'], env);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-1' });
  let prev = -1;
  const cycle = async (i) => {
    setFastPaths(fast);
    // One background writer's cycle: a private worktree, one commit with the writer's git environment, the import and merge.
    await memory.runWorker({
      description: 'bench',
      body: async (ctx) => {
        mkdirSync(join(ctx.worktreeDir, 'notes'), { recursive: true });
        writeFileSync(join(ctx.worktreeDir, 'notes', `w${i}.md`), `---\ndescription: w\n---\nw${i}\n`);
        const o = { cwd: ctx.worktreeDir, env: { ...env, ...ctx.gitEnv } };
        execFileSync('git', ['add', '-A'], o);
        execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', `w${i}`], o);
      },
    });
  };
  const write = async (i) => {
    setFastPaths(fast);
    await memory.tool({
      command: 'str_replace',
      reason: 'bench edit',
      file_path: 'edit.md',
      old_string: `v${prev}\n`,
      new_string: `v${i}\n`,
    });
    prev = i;
  };
  return { write, cycle };
}

async function sizeRows(size, rounds) {
  const memories = { fast: await writerAt(size, true), plain: await writerAt(size, false) };
  return [
    await rowOf(size, rounds, 'str_replace', (n) => memories[n].write),
    await rowOf(size, rounds, 'worker cycle', (n) => memories[n].cycle),
  ];
}

async function rowOf(size, rounds, what, side) {
  const sides = { fast: side('fast'), plain: side('plain') };
  const samples = { fast: [], plain: [] };
  const warmup = 4; // the watcher starts at the second write and takes its baseline at the next
  for (let r = -warmup; r < rounds; r++) {
    const order = r % 2 === 0 ? ['fast', 'plain'] : ['plain', 'fast'];
    const t = {};
    for (const n of order) {
      const t0 = performance.now();
      await sides[n](r + warmup);
      t[n] = performance.now() - t0;
    }
    if (r >= 0) for (const n of order) samples[n].push(t[n]);
  }
  const fast = stats(samples.fast);
  const ratios = samples.fast.map((x, k) => x / samples.plain[k]);
  return {
    section: 'fast-paths',
    name: `${what}, fast paths on @ ${size} files`,
    median_ms: round(fast.median),
    p95_ms: round(fast.p95),
    floor_name: 'the same write, GITMEM_FAST_PATHS=0',
    floor_median_ms: round(stats(samples.plain).median),
    ratio: round(stats(ratios).median),
    target: '',
    load: loadavg().map(round).join(' '),
  };
}

export async function bench({ iterations = 30 } = {}) {
  const sizes = (process.env.BENCH_FAST_SIZES ?? '1000,10000').split(',').map(Number);
  const rows = [];
  for (const size of sizes) rows.push(...(await sizeRows(size, Math.max(12, iterations))));
  setFastPaths(true);
  return rows;
}
