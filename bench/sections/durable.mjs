// Durable writes: a memory write with fsync on (the default) against the same write with GITMEM_FSYNC=0 on an
// identical memory, interleaved in the same run — on the real disk (os.tmpdir(), where fsync costs what it
// costs) and on /dev/shm (tmpfs: the syscalls only), at 10, 1,000 and 10,000 files. Target: at most +4 ms per
// write. BENCH_DURABLE_SIZES=10,1000 picks the sizes (default all three).
// Each memory is packed before the writes are timed (populate), as a long-lived one is: a detached
// `gc --auto` repacking 10,000 loose objects meanwhile is what a fsync waits behind and an unsynced write does
// not (measured: +8–13 ms at 10,000 files).
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { benchEnv, interleavedPairs, populate, round, TMP_ROOT, tmpDir } from '../lib.mjs';

async function openMemory(root, fsync, size) {
  const home = join(root, `home-${fsync}`);
  const env = { ...benchEnv(home), GITMEM_FSYNC: fsync };
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env); // packed before anything is timed (see lib.mjs)
  return memory;
}

async function rows(where, root, size, pairs) {
  const on = await openMemory(root, '1', size);
  const off = await openMemory(root, '0', size);
  const write = (m, tag) => (i) =>
    m.tool({
      command: 'create',
      reason: 'bench durable',
      file_path: `notes/${tag}-${i + 10}.md`,
      description: 'bench',
      file_text: `x${i}`,
    });
  const r = await interleavedPairs(pairs, write(off, 'off'), write(on, 'on'), { warmup: 3 });
  return {
    section: 'durable',
    name: `tool create, fsync on (${where}) @ ${size} files: +${round(r.delta)} ms`,
    median_ms: round(r.ours.median),
    p95_ms: round(r.ours.p95),
    floor_name: 'the same write, GITMEM_FSYNC=0',
    floor_median_ms: round(r.floor.median),
    ratio: round(r.ratio),
    target: '<= +4 ms',
  };
}

export async function bench({ iterations = 30 } = {}) {
  const out = [];
  const sizes = (process.env.BENCH_DURABLE_SIZES ?? '10,1000,10000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  for (const size of sizes) {
    const disk = mkdtempSync(join(tmpdir(), 'gitmem-bench-durable-'));
    try {
      out.push(await rows(`disk ${tmpdir()}`, disk, size, iterations));
    } finally {
      rmSync(disk, { recursive: true, force: true });
    }
    if (TMP_ROOT !== tmpdir())
      out.push(await rows(`tmpfs ${TMP_ROOT}`, tmpDir('gitmem-bench-durable-'), size, iterations));
  }
  return out;
}
