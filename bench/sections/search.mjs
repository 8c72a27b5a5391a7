// Search: memory.search against `git grep -n -i <word>` in the same repository, measured in the same run and
// interleaved (A B, B A, …): a warm search, the first search after a write (the index follows the commit),
// and a full index build (the index removed first). Memories of 1,000 and 10,000 synthetic notes.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { benchEnv, execFileP, round, stats, tmpDir } from '../lib.mjs';
import { makeCorpus, queryWords, writeCorpus } from '../search-corpus.mjs';
import { promisify } from 'node:util';

const execFileChild = promisify(execFile);

/**
 * `pairs` interleaved pairs after `warmup` ones; `prepare(i)` runs untimed before each of our side's calls and
 * `check(result)` untimed after it.
 */
async function interleaved(pairs, floor, ours, { warmup = 2, prepare = async () => {}, check = () => {} } = {}) {
  const f = [];
  const o = [];
  const ratios = [];
  const timeFloor = async (i) => {
    const t0 = performance.now();
    await floor(i);
    return performance.now() - t0;
  };
  const timeOurs = async (i) => {
    await prepare(i);
    const t0 = performance.now();
    const result = await ours(i);
    const dt = performance.now() - t0;
    check(result);
    return dt;
  };
  for (let i = -warmup; i < pairs; i++) {
    const [a, b] = i % 2 === 0 ? [await timeFloor(i), await timeOurs(i)] : [0, await timeOurs(i)];
    const a2 = i % 2 === 0 ? a : await timeFloor(i);
    if (i < 0) continue;
    f.push(a2);
    o.push(b);
    ratios.push(b / a2);
  }
  return { floor: stats(f), ours: stats(o), ratio: stats(ratios).median };
}

/** CPU time (ms) of this process's finished children, from /proc (clock ticks of 10 ms); 0 where there is no /proc. */
function childCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/**
 * CPU time instead of wall time, for a machine too busy for wall times to mean much: our side's process
 * (every thread) plus its git children against `git grep`'s process, in interleaved pairs. gitmem's git runs
 * through its shell launcher, whose children this process does not reap: our side counts this process only. Children are
 * counted in 10 ms ticks, so this is coarse at 1,000 files.
 */
async function cpuPairs(pairs, floor, ours, prepare) {
  const f = [];
  const o = [];
  for (let i = 0; i < pairs; i++) {
    let c = childCpuMs();
    await floor();
    f.push(childCpuMs() - c);
    await prepare();
    c = childCpuMs();
    const u = process.cpuUsage();
    await ours();
    const d = process.cpuUsage(u);
    o.push((d.user + d.system) / 1000 + childCpuMs() - c);
  }
  return { floor: stats(f), ours: stats(o), ratio: stats(o).median / Math.max(1, stats(f).median) };
}

async function sizeRows(size, iterations) {
  const home = tmpDir('gitmem-bench-search-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  const { files, words } = makeCorpus(size);
  writeCorpus(memory.memoryDir, files);
  execFileSync('git', ['add', '-A'], { cwd: memory.memoryDir, env });
  execFileSync('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '-m', 'corpus'], {
    cwd: memory.memoryDir,
    env,
  });
  const word = queryWords(words).middling;
  const grep = async () => {
    await execFileP('git', ['grep', '-n', '-i', word], { cwd: memory.memoryDir, env, maxBuffer: 1 << 28 }).catch(
      (e) => {
        if (e.code !== 1) throw e;
      },
    );
  };
  const search = () => memory.search(word);
  const warm = await interleaved(iterations, grep, search);
  let n = 0;
  const write = async () => {
    const path = files[(n * 37) % files.length].path;
    n++;
    await memory.tool({
      command: 'insert',
      reason: 'bench write',
      file_path: path,
      insert_line: 4,
      insert_text: `edit ${n} ${word}`,
    });
  };
  // Each timed search follows an untimed write: the index moves to the new commit inside the timed call.
  const afterWrite = await interleaved(iterations, grep, search, { prepare: write });
  const dir = join(memory.memoryDir, '.git', 'gitmem', 'search');
  // A real full build: no index on disk before each timed search, one after it, hits found, and every build
  // answering exactly as the first (scores included: a build from scratch of one commit is deterministic).
  let expected = null;
  const removeIndex = async () => {
    rmSync(dir, { recursive: true, force: true });
    if (existsSync(dir)) throw new Error('bench: the index was not removed');
  };
  const built = (hits) => {
    if (!readdirSync(dir).some((f) => f.endsWith('.sqlite'))) throw new Error('bench: the build left no index file');
    if (hits.length === 0) throw new Error(`bench: a full build found no hit for ${word}`);
    expected ??= JSON.stringify(hits);
    if (JSON.stringify(hits) !== expected) throw new Error('bench: two full builds of one commit answered differently');
  };
  const builds = await interleaved(Math.max(5, Math.floor(iterations / 3)), grep, search, {
    warmup: 1,
    prepare: removeIndex,
    check: built,
  });
  // Forked here, not through the launcher: the floor's CPU time must be this process's child's to be counted.
  const grepChild = () =>
    execFileChild('git', ['grep', '-n', '-i', word], { cwd: memory.memoryDir, env, maxBuffer: 1 << 28 }).catch((e) => {
      if (e.code !== 1) throw e;
    });
  const cpu = await cpuPairs(5, grepChild, search, removeIndex);
  rmSync(home, { recursive: true, force: true });
  const row = (name, r, target) => ({
    section: 'search',
    name: `${name} @ ${size} files`,
    median_ms: round(r.ours.median),
    p95_ms: round(r.ours.p95),
    floor_name: 'git grep -n -i <word>',
    floor_median_ms: round(r.floor.median),
    ratio: round(r.ratio),
    target,
  });
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const loadRow = {
    section: 'search',
    name: `load average after the ${size}-file rows`,
    median_ms: '',
    p95_ms: '',
    floor_name: load,
    floor_median_ms: '',
    ratio: '',
    target: '',
  };
  return [
    row('warm search', warm, '<= 0.3x'),
    row('first search after a write', afterWrite, '<= 0.5x'),
    row('full index build + search', builds, '<= 3x'),
    { ...row('full index build + search, CPU time', cpu, ''), floor_name: 'git grep -n -i <word>, CPU time' },
    loadRow,
  ];
}

export async function bench({ iterations = 30 } = {}) {
  const rows = [];
  for (const size of [1000, 10000])
    rows.push(...(await sizeRows(size, size >= 10000 ? Math.max(12, Math.floor(iterations / 2)) : iterations)));
  return rows;
}
