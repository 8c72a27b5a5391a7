// The hooks a harness runs on every session and turn (`gitmem hook claude-code session-start | turn-end`),
// as the harness starts them (a process, its JSON on stdin), at 1,000 memory files, against `node -e 0`
// measured in the same run (interleaved per iteration): with the daemon running (a user's steady state)
// and with GITMEM_DAEMON=0 (every hook a full CLI start).
import { spawnSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, populate, round, stats, tmpDir } from '../lib.mjs';

const MAIN = new URL('../../dist/bin/gitmem.cjs', import.meta.url).pathname;
const SESSION = new URL('../../test/fixtures/harness/claude-code-session.jsonl', import.meta.url).pathname;
const FILES = 1_000;

function timed(args, env, input = '') {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, input, stdio: ['pipe', 'ignore', 'pipe'] });
  if (r.status !== 0 || (args[0] !== '-e' && String(r.stderr) !== ''))
    throw new Error(`${args.slice(1).join(' ')} failed: ${r.stderr}`);
  return performance.now() - t0;
}

function row(name, w, z, target) {
  return {
    section: 'harness',
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
  const home = tmpDir('gitmem-bench-harness-');
  const env = { ...benchEnv(home), GITMEM_HOME: home, XDG_RUNTIME_DIR: join(home, 'run') };
  const local = { ...env, GITMEM_DAEMON: '0' };
  spawnSync(process.execPath, [MAIN, 'init', '--agent', 'h'], { env: local });
  populate(join(home, 'agents', 'h', 'memory'), FILES, local);
  const transcript = join(home, 'session.jsonl');
  copyFileSync(SESSION, transcript);
  const start = [MAIN, 'hook', 'claude-code', 'session-start', '--agent', 'h'];
  const turn = [MAIN, 'hook', 'claude-code', 'turn-end', '--agent', 'h'];
  const startInput = JSON.stringify({
    session_id: 'bench',
    source: 'startup',
    cwd: home,
    hook_event_name: 'SessionStart',
  });
  const turnInput = JSON.stringify({
    session_id: 'bench',
    transcript_path: transcript,
    cwd: home,
    hook_event_name: 'Stop',
  });
  timed(start, local, startInput); // the one-time reflection notice
  spawnSync(process.execPath, [MAIN, 'daemon', 'start'], { env });
  const s = { z: [], d: [], l: [], t: [], tl: [] };
  const n = Math.max(20, iterations);
  for (let i = -3; i < n; i++) {
    const order = i % 2 === 0 ? ['z', 'd', 'l', 't', 'tl'] : ['tl', 't', 'l', 'd', 'z'];
    const t = {};
    for (const k of order) {
      if (k === 'z') t.z = timed(['-e', '0'], env);
      if (k === 'd') t.d = timed(start, env, startInput);
      if (k === 'l') t.l = timed(start, local, startInput);
      if (k === 't') t.t = timed(turn, env, turnInput);
      if (k === 'tl') t.tl = timed(turn, local, turnInput);
    }
    if (i >= 0) for (const k of Object.keys(s)) s[k].push(t[k]);
  }
  spawnSync(process.execPath, [MAIN, 'daemon', 'stop'], { env });
  rmSync(home, { recursive: true, force: true });
  const z = stats(s.z);
  return [
    row(`hook session-start, ${FILES} files, daemon running`, stats(s.d), z, '<= 150 ms'),
    row(`hook session-start, ${FILES} files, GITMEM_DAEMON=0`, stats(s.l), z, '-'),
    row(`hook turn-end (no model), daemon running`, stats(s.t), z, '-'),
    row(`hook turn-end (no model), GITMEM_DAEMON=0`, stats(s.tl), z, '-'),
  ];
}
