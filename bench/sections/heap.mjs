// Spawning independent of the caller's heap: a memory write (create) from a process holding ~500 MB of live
// objects vs the same write from a fresh process, both with the library's default launcher (resident
// shells, no fork of the caller), and the big-heap write with a plain spawn (what a fork of the heap costs)
// for contrast. Each side runs in its own child process; the rounds alternate, so noise hits both.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { benchEnv, round, stats, tmpDir } from '../lib.mjs';

const run = promisify(execFile);
const DIST = new URL('../../dist/', import.meta.url).pathname;
const HEAP_MB = 500;

// argv: internals.js, home, agent, ballast MB, launcher ('default' | 'spawn'), writes, op ('write' | 'worker')
const CHILD = `
const [internals, home, agentId, mb, launcher, n, op] = process.argv.slice(1);
const g = await import(internals);
const ballast = [];
for (let i = 0; i < Number(mb); i++) ballast.push(new Float64Array(131072).fill(i)); // ~1 MB each, live
await g.initMemory({ home, agentId });
const m = await g.createMemory({ home, agentId, ...(launcher === 'spawn' ? { launch: g.runProcess } : {}) });
const times = [];
for (let i = -3; i < Number(n); i++) {
  const t0 = performance.now();
  const file = 'notes/n' + (i + 3) + '.md';
  if (op === 'worker') {
    // a sandboxed shell-committing body, through the hook (the sandbox starts from a launcher shell too)
    const command = "mkdir -p notes && printf -- '---\\\\ndescription: b\\\\n---\\\\nx\\\\n' > " + file + ' && git add -- ' + file + " && git commit -q -m w";
    const out = await m.runWorker({ command });
    if (out.status !== 'merged') throw new Error(JSON.stringify(out));
  } else await m.tool({ command: 'create', reason: 'bench', file_path: file, description: 'b', file_text: 'x' + i });
  if (i >= 0) times.push(performance.now() - t0);
}
globalThis.keep = ballast.length;
console.log(JSON.stringify(times));
`;

async function side(kind, mb, launcher, writes, round_, op = 'write') {
  const home = tmpDir('gitmem-bench-heap-');
  const env = benchEnv(home);
  const { stdout } = await run(
    process.execPath,
    [
      '--max-old-space-size=4096',
      '--input-type=module',
      '-e',
      CHILD,
      join(DIST, 'internals.js'),
      home,
      `${kind}-${round_}`,
      String(mb),
      launcher,
      String(writes),
      op,
    ],
    { env, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

export async function bench({ iterations }) {
  const rounds = 4;
  const writes = Math.max(5, Math.round(iterations / rounds));
  const fresh = [];
  const big = [];
  const bigSpawn = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['fresh', 'big', 'spawn'] : ['spawn', 'big', 'fresh'];
    for (const which of order) {
      if (which === 'fresh') fresh.push(...(await side('fresh', 0, 'default', writes, r)));
      if (which === 'big') big.push(...(await side('big', HEAP_MB, 'default', writes, r)));
      if (which === 'spawn') bigSpawn.push(...(await side('spawn', HEAP_MB, 'spawn', writes, r)));
    }
  }
  // A worker cycle too: its sandbox used to be a fork of the caller.
  const [wFresh, wBig] = [[], []];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ['fresh', 'big'] : ['big', 'fresh'];
    for (const which of order)
      (which === 'fresh' ? wFresh : wBig).push(
        ...(await side(`w${which}`, which === 'big' ? HEAP_MB : 0, 'default', writes, r, 'worker')),
      );
  }
  const f = stats(fresh);
  const row = (name, s, target) => ({
    section: 'heap',
    name,
    median_ms: round(s.median),
    p95_ms: round(s.p95),
    floor_name: 'same write, fresh process',
    floor_median_ms: round(f.median),
    ratio: round(s.median / f.median),
    target,
  });
  const wf = stats(wFresh);
  const worker = {
    section: 'heap',
    name: `worker cycle from a ${HEAP_MB} MB heap (default launcher)`,
    median_ms: round(stats(wBig).median),
    p95_ms: round(stats(wBig).p95),
    floor_name: 'same cycle, fresh process',
    floor_median_ms: round(wf.median),
    ratio: round(stats(wBig).median / wf.median),
    target: '<= 1.2x',
  };
  return [
    row(`write from a ${HEAP_MB} MB heap (default launcher)`, stats(big), '<= 1.2x'),
    row(`write from a ${HEAP_MB} MB heap (plain spawn)`, stats(bigSpawn), ''),
    worker,
  ];
}
