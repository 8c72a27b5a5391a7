// One CLI write as a process, against `node -e 0` measured in the same run (interleaved per iteration):
//   - with the daemon running (what a second and later call costs; the target row),
//   - with GITMEM_DAEMON=0 (every call a full CLI start),
//   - the first call for a home (no daemon yet: runs locally and starts one).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { benchEnv, round, stats, tmpDir } from '../lib.mjs';

const MAIN = new URL('../../dist/bin/gitmem.cjs', import.meta.url).pathname;

function timed(args, env) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0 && args[0] !== '-e') throw new Error(`gitmem ${args.slice(1).join(' ')} failed: ${r.stderr}`);
  return performance.now() - t0;
}

function row(name, w, z, target) {
  return {
    section: 'cli',
    name,
    median_ms: round(w.median),
    p95_ms: round(w.p95),
    floor_name: 'node -e 0',
    floor_median_ms: round(z.median),
    ratio: round(w.median / z.median),
    target: `${target} (overhead ${round(w.median - z.median)} ms)`,
  };
}

export async function bench({ iterations = 30 } = {}) {
  const home = tmpDir('gitmem-bench-cli-');
  const env = { ...benchEnv(home), GITMEM_HOME: home, XDG_RUNTIME_DIR: join(home, 'run') };
  const local = { ...env, GITMEM_DAEMON: '0' };
  spawnSync(process.execPath, [MAIN, 'init', '--agent', 'cli'], { env: local });
  spawnSync(process.execPath, [MAIN, 'daemon', 'start'], { env });
  const write = (tag) => [
    MAIN,
    'memory',
    'create',
    `notes/${tag}.md`,
    '--description',
    'c',
    '--text',
    'x',
    '--reason',
    'cli bench',
    '--agent',
    'cli',
  ];
  const zero = [];
  const viaDaemon = [];
  const viaProcess = [];
  const n = Math.max(20, iterations * 2);
  for (let i = -3; i < n; i++) {
    const order = i % 2 === 0 ? ['z', 'd', 'l'] : ['l', 'd', 'z'];
    const t = {};
    for (const k of order) {
      if (k === 'z') t.z = timed(['-e', '0'], env);
      if (k === 'd') t.d = timed(write(`d${i + 3}`), env);
      if (k === 'l') t.l = timed(write(`l${i + 3}`), local);
    }
    if (i < 0) continue;
    zero.push(t.z);
    viaDaemon.push(t.d);
    viaProcess.push(t.l);
  }
  const cold = [];
  const coldZero = [];
  for (let i = 0; i < 5; i++) {
    spawnSync(process.execPath, [MAIN, 'daemon', 'stop'], { env });
    coldZero.push(timed(['-e', '0'], env));
    cold.push(timed(write(`c${i}`), env));
    spawnSync(process.execPath, [MAIN, 'daemon', 'start'], { env }); // waits until it answers
  }
  spawnSync(process.execPath, [MAIN, 'daemon', 'stop'], { env });
  rmSync(home, { recursive: true, force: true });
  const z = stats(zero);
  return [
    row('CLI write (process), daemon running', stats(viaDaemon), z, '<= node -e 0 + 30 ms'),
    row('CLI write (process), GITMEM_DAEMON=0', stats(viaProcess), z, '-'),
    row('CLI write (process), first call: starts the daemon', stats(cold), stats(coldZero), '-'),
  ];
}
