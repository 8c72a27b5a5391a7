// A raw shell commit in a memory repository: `git add && git commit` of one changed system/ file, measured
// interleaved in the same run and repo (the order rotates every iteration) with
//   (a) gitmem's pre-commit hook, its daemon running (the hook asks it; no Node start),
//   (b) gitmem's pre-commit hook, no daemon (the hook finds none and starts Node),
//   (c) the reference's bash hook (bench/reference-pre-commit.sh, a re-implementation: the floor),
//   (d) `--no-verify` (no hook at all).
// Target: (a) <= (c). Sizes: 10 / 1,000 / 10,000 files (BENCH_HOOK_SIZES=10,1000,10000,50000 adds 50,000).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchEnv, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

const MAIN = new URL('../../dist/bin/gitmem.cjs', import.meta.url).pathname;
const REFERENCE = new URL('../reference-pre-commit.sh', import.meta.url).pathname;
const SIZES = (process.env.BENCH_HOOK_SIZES ?? '10,1000,10000').split(',').map(Number);

function commitOnce(repo, env, i, extra) {
  writeFileSync(join(repo, 'system', 'bench.md'), `---\ndescription: hook bench\n---\nedit ${i}\n`);
  const t0 = performance.now();
  execFileSync('git', ['add', '--', 'system/bench.md'], { cwd: repo, env, stdio: 'ignore' });
  const r = spawnSync('git', [...extra.pre, 'commit', '-q', ...extra.post, '-m', `hook bench ${i}`], {
    cwd: repo,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`commit failed (${extra.name}): ${r.stderr}`);
  return ms;
}

function waitFor(check, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return true;
    spawnSync('sleep', ['0.05']);
  }
  return false;
}

async function measure(size, iterations) {
  const home = tmpDir('gitmem-bench-hook-');
  const run = join(home, 'run');
  const noDaemonRun = join(home, 'run-none'); // a runtime dir no daemon listens in
  mkdirSync(run, { mode: 0o700 });
  mkdirSync(noDaemonRun, { mode: 0o700 });
  const base = { ...benchEnv(home), GITMEM_HOME: home };
  const env = { ...base, XDG_RUNTIME_DIR: run };
  const none = { ...base, XDG_RUNTIME_DIR: noDaemonRun }; // the hook looks there and finds nobody
  spawnSync(process.execPath, [MAIN, 'init', '--agent', 'bench'], {
    env: { ...none, GITMEM_DAEMON: '0' },
    stdio: 'ignore',
  });
  const repo = join(home, 'agents', 'bench', 'memory');
  populate(repo, size, env);
  const refHooks = join(home, 'reference-hooks');
  mkdirSync(refHooks);
  execFileSync('cp', [REFERENCE, join(refHooks, 'pre-commit')]);
  spawnSync(process.execPath, [MAIN, 'daemon', 'start'], { env, stdio: 'ignore' });
  const hookSocketUp = () =>
    readdirSync(join(run, `gitmem-${process.getuid()}`)).some((n) => /^hook-.*\.sock$/.test(n));
  if (!waitFor(hookSocketUp, 5000)) throw new Error('the daemon did not open its hook socket');
  const variants = [
    { key: 'daemon', env, pre: [], post: [], name: 'gitmem hook, daemon running' },
    { key: 'node', env: none, pre: [], post: [], name: 'gitmem hook, no daemon (Node)' },
    { key: 'ref', env, pre: ['-c', `core.hooksPath=${refHooks}`], post: [], name: "reference's bash hook" },
    { key: 'none', env, pre: [], post: ['--no-verify'], name: '--no-verify' },
  ];
  const samples = Object.fromEntries(variants.map((v) => [v.key, []]));
  const ratios = Object.fromEntries(variants.map((v) => [v.key, []]));
  let n = 0;
  for (let i = -2; i < iterations; i++) {
    const order = variants.map((_, k) => variants[(k + i + 2) % variants.length]);
    const t = {};
    for (const v of order) t[v.key] = commitOnce(repo, v.env, n++, v);
    if (i < 0) continue;
    for (const v of variants) {
      samples[v.key].push(t[v.key]);
      ratios[v.key].push(t[v.key] / t.ref);
    }
  }
  spawnSync(process.execPath, [MAIN, 'daemon', 'stop'], { env, stdio: 'ignore' });
  gitSync(repo, ['count-objects'], env); // the repo still answers
  rmSync(home, { recursive: true, force: true });
  const floor = stats(samples.ref);
  return variants.map((v) => {
    const s = stats(samples[v.key]);
    return {
      section: 'hook',
      name: `raw commit @${size} files: ${v.name}`,
      median_ms: round(s.median),
      p95_ms: round(s.p95),
      floor_name: "reference's bash hook",
      floor_median_ms: round(floor.median),
      ratio: round(stats(ratios[v.key]).median),
      target: v.key === 'daemon' ? '<= 1.0' : '-',
    };
  });
}

export async function bench({ iterations = 30 } = {}) {
  if (!existsSync(MAIN)) throw new Error('run `npm run build` first');
  const rows = [];
  for (const size of SIZES)
    rows.push(...(await measure(size, size >= 10000 ? Math.max(10, Math.round(iterations / 2)) : iterations)));
  return rows;
}
