// Each fast path weighed alone: the operation it serves with every fast path on, against the same operation
// with only that one off (setFastPaths(true, [name])), in two identically populated memories, interleaved
// (alternating which side runs first). The gain is 1 - on/off: a fast path earns its place at >= 10% of its
// operation at a size users have (docs/performance.md#fast-paths). The streamed launcher jobs only matter from
// a big heap, so that row runs in child processes holding 500 MB, as the heap section does.
// BENCH_EACH=watcher,objectReads picks the mechanisms; BENCH_EACH_OPS their operations (by name, e.g.
// 'str_replace,search after a write'); BENCH_EACH_ROUNDS the rounds (default 16).
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createMemory, initMemory } from '../../dist/index.js';
import { setFastPaths } from '../../dist/fast-paths.js';
import { benchEnv, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

const run = promisify(execFile);
const DIST = new URL('../../dist/', import.meta.url).pathname;

/** Which operation each mechanism serves, and at which sizes users have it. */
const PLAN = {
  watcher: { op: 'str_replace', sizes: [1000, 10000] },
  writerPack: { op: 'worker cycle', sizes: [1000, 10000] },
  // The jobs it streams are a sandboxed command's (held input, capped output): a command worker's cycle.
  streamedJobs: { op: 'command worker cycle from a 500 MB heap', sizes: [0] },
  // Refs, loose objects and trees read without git: every operation that reads them, each after a write (the
  // write path, hooks and merges ask git: there they bought 4-9%, under the rule), and sync's refs.
  objectReads: {
    ops: [
      'search after a write',
      'prompt after a write',
      'read after a write',
      'sync round trip with a commit each way',
      'post-turn sync with nothing to push',
    ],
    sizes: [1000, 10000],
  },
};

async function memoryAt(size, except) {
  const home = tmpDir('gitmem-bench-each-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-1' });
  let prev = -1;
  let peer;
  // A bare remote and a peer clone, made the first time a sync runs (untimed).
  const peerOnce = () => {
    if (peer) return peer;
    const remote = join(home, 'remote.git');
    gitSync(home, ['init', '-q', '--bare', '-b', 'main', remote], env);
    gitSync(memory.memoryDir, ['remote', 'add', 'origin', remote], env);
    gitSync(memory.memoryDir, ['push', '-q', '-u', 'origin', 'main'], env);
    peer = join(home, 'peer');
    gitSync(home, ['clone', '-q', remote, peer], env);
    return peer;
  };
  return {
    str_replace: async (i) => {
      setFastPaths(true, except);
      const edit = { file_path: 'edit.md', old_string: `v${prev}\n`, new_string: `v${i}\n` };
      await memory.tool({ command: 'str_replace', reason: 'bench edit', ...edit });
      prev = i;
    },
    // The worker section's cycle (the operation its target is set on): a sandboxed shell body commits through the hook.
    'worker cycle': async (i) => {
      setFastPaths(true, except);
      const text = `---\\ndescription: w\\n---\\nw${i}\\n`;
      const file = `notes/w${i}.md`;
      const command = `mkdir -p notes && printf -- '${text}' > ${file} && git add -- ${file} && git commit -q -m 'w ${i}'`;
      const out = await memory.runWorker({ command });
      if (out.status !== 'merged') throw new Error(JSON.stringify(out));
    },
    // The reads time themselves: each follows an untimed write, so its snapshot or index must move by a commit.
    'search after a write': (i) => afterWrite(i, () => memory.search(`content ${i % 97}`)),
    'prompt after a write': (i) => afterWrite(i, () => memory.compilePrompt()),
    'read after a write': (i) => afterWrite(i, () => memory.read('edit.md')),
    // One commit comes in from the peer and one goes out (a tool write), both untimed; then the sync is timed.
    'sync round trip with a commit each way': (i) => {
      const dir = peerOnce();
      gitSync(dir, ['pull', '-q', '--rebase', 'origin', 'main'], env);
      writeFileSync(join(dir, `peer-${i}.md`), `---\ndescription: peer\n---\npeer ${i}\n`);
      gitSync(dir, ['add', '--', `peer-${i}.md`], env);
      gitSync(dir, ['commit', '-q', '--no-verify', '-m', `peer ${i}`], env);
      gitSync(dir, ['push', '-q', 'origin', 'main'], env);
      return afterWrite(i, async () => {
        const r = await memory.sync();
        if (r.status !== 'pushed') throw new Error(`sync ended ${r.status}: ${r.summary}`);
      });
    },
    'post-turn sync with nothing to push': async () => {
      peerOnce();
      setFastPaths(true, except);
      const t0 = performance.now();
      const r = await memory.syncAfterTurn();
      if (r.status !== 'clean') throw new Error(`post-turn sync ended ${r.status}: ${r.summary}`);
      return [performance.now() - t0];
    },
  };
  async function afterWrite(i, read) {
    setFastPaths(true, except);
    const edit = { file_path: 'edit.md', old_string: `v${prev}\n`, new_string: `v${i}\n` };
    await memory.tool({ command: 'str_replace', reason: 'bench edit', ...edit });
    prev = i;
    const t0 = performance.now();
    await read();
    return [performance.now() - t0];
  }
}

// argv: internals.js, fast-paths.js, home, except ('' or a name), writes
const HEAP_CHILD = `
const [internals, seam, home, except, n] = process.argv.slice(1);
const g = await import(internals);
const { setFastPaths } = await import(seam);
const ballast = [];
for (let i = 0; i < 500; i++) ballast.push(new Float64Array(131072).fill(i)); // ~1 MB each, live
await g.initMemory({ home, agentId: 'bench' });
const m = await g.createMemory({ home, agentId: 'bench' });
const times = [];
for (let i = -3; i < Number(n); i++) {
  setFastPaths(true, except ? [except] : []);
  const t0 = performance.now();
  const file = 'notes/n' + (i + 3) + '.md';
  const command = "mkdir -p notes && printf -- '---\\ndescription: b\\n---\\nx\\n' > " + file + ' && git add -- ' + file + ' && git commit -q -m w';
  const out = await m.runWorker({ command });
  if (out.status !== 'merged') throw new Error(JSON.stringify(out));
  if (i >= 0) times.push(performance.now() - t0);
}
globalThis.keep = ballast.length;
console.log(JSON.stringify(times));
`;

async function heapSide(except, writes) {
  const home = tmpDir('gitmem-bench-each-heap-');
  const args = ['--max-old-space-size=4096', '--input-type=module', '-e', HEAP_CHILD];
  args.push(join(DIST, 'internals.js'), join(DIST, 'fast-paths.js'), home, except, String(writes));
  const { stdout } = await run(process.execPath, args, { env: benchEnv(home), maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

/** Interleaved rounds of `on` and `off`; each side is a function of the round returning its times. */
async function interleave(rounds, on, off) {
  const samples = { on: [], off: [] };
  for (let r = -4; r < rounds; r++) {
    const order = r % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    const t = {};
    for (const n of order) t[n] = await (n === 'on' ? on : off)(r + 4);
    if (r >= 0) for (const n of order) samples[n].push(...t[n]);
  }
  return samples;
}

const timed = (fn) => async (i) => {
  const t0 = performance.now();
  await fn(i);
  return [performance.now() - t0];
};

// One pair of memories per mechanism and size, whichever of its operations runs on them.
const made = new Map();
async function memoryFor(size, except) {
  const key = `${size}|${except.join(',')}`;
  if (!made.has(key)) made.set(key, await memoryAt(size, except));
  return made.get(key);
}

const SELF_TIMED = new Set([
  'search after a write',
  'prompt after a write',
  'read after a write',
  'sync round trip with a commit each way',
  'post-turn sync with nothing to push',
]);

async function rowOf(name, op, size, rounds) {
  let samples;
  if (name === 'streamedJobs') {
    samples = await interleave(
      Math.max(4, rounds / 4),
      () => heapSide('', 5),
      () => heapSide(name, 5),
    );
  } else {
    const [on, off] = [await memoryFor(size, []), await memoryFor(size, [name])];
    const side = (m) => (SELF_TIMED.has(op) ? m[op] : timed(m[op]));
    samples = await interleave(rounds, side(on), side(off));
  }
  const [on, off] = [stats(samples.on), stats(samples.off)];
  const gain = 1 - on.median / off.median;
  return {
    section: 'fast-path-each',
    name: `${name}: ${op}${size ? ` @ ${size} files` : ''} (gain ${round(gain * 100)}%)`,
    median_ms: round(on.median),
    p95_ms: round(on.p95),
    floor_name: `the same, only ${name} off`,
    floor_median_ms: round(off.median),
    ratio: round(on.median / off.median),
    target: '<= 0.9x to be kept',
    load: loadavg().map(round).join(' '),
  };
}

export async function bench() {
  const names = (process.env.BENCH_EACH ?? Object.keys(PLAN).join(',')).split(',');
  const rounds = Number(process.env.BENCH_EACH_ROUNDS ?? 16);
  const rows = [];
  const ops = process.env.BENCH_EACH_OPS?.split(',');
  for (const name of names)
    for (const op of PLAN[name].ops ?? [PLAN[name].op])
      if (!ops || ops.includes(op)) for (const size of PLAN[name].sizes) rows.push(await rowOf(name, op, size, rounds));
  setFastPaths(true);
  return rows;
}
