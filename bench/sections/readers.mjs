// Readers of big memories: `cloneMemory` of a 50,000-file memory (a few commits of history) over a loopback
// `git daemon` (git:// on 127.0.0.1, uploadpack.allowFilter on): full, `--partial` (blob-less) and
// `--partial --scope <one directory of 100 files>`, each against a raw full `git clone` of the same remote (the
// floor: gitmem's clone also validates what it checks out). Then the first read of a blob the scoped clone
// never fetched (git fetches it) against the same read in the full clone. One sample per row: at 50,000 files a
// clone is seconds, and the machine is shared (BENCH_READERS_FILES makes it smaller). Sizes go to stderr.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { cloneMemory, createMemory, createGitRunner } from '../../dist/internals.js';
import { benchEnv, fastImportEdit, fastImportRepo, gitSync, round, tmpDir } from '../lib.mjs';

const FILES = Number(process.env.BENCH_READERS_FILES ?? 50_000);
const SCOPE = 'bulk/d7';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A `git daemon` serving `base` on 127.0.0.1; resolves once a `ls-remote` answers. */
async function startDaemon(base, env) {
  const port = await freePort();
  const child = spawn(
    'git',
    ['daemon', '--reuseaddr', '--listen=127.0.0.1', `--port=${port}`, '--export-all', `--base-path=${base}`, base],
    { env, stdio: 'ignore' },
  );
  const url = `git://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      execFileSync('git', ['ls-remote', `${url}/remote.git`], { env, stdio: 'ignore' });
      return { url, stop: () => child.kill('SIGTERM') };
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  child.kill('SIGTERM');
  throw new Error('git daemon did not answer on 127.0.0.1');
}

const du = (dir) => Number(execFileSync('du', ['-sk', dir]).toString().split('\t')[0]) / 1024;

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export async function bench() {
  const home = tmpDir('gitmem-bench-readers-home-');
  const env = benchEnv(home);
  const git = createGitRunner({ env });
  const base = tmpDir('gitmem-bench-readers-');
  const seed = join(base, 'seed');
  fastImportRepo(seed, FILES, env);
  for (let i = 0; i < 3; i++)
    fastImportEdit(seed, `bulk/d${i}/f${i * 100}.md`, `---\ndescription: edit ${i}\n---\nv${i}\n`, env);
  const remote = join(base, 'remote.git');
  gitSync(base, ['clone', '-q', '--bare', seed, remote], env);
  gitSync(remote, ['config', 'uploadpack.allowFilter', 'true'], env);
  gitSync(remote, ['config', 'uploadpack.allowAnySHA1InWant', 'true'], env);
  const daemon = await startDaemon(base, env);
  try {
    const url = `${daemon.url}/remote.git`;
    const raw = await timed(() => gitSync(base, ['clone', '-q', url, join(base, 'raw')], env));
    const clone = (agentId, extra) =>
      timed(() => cloneMemory({ git, home, url, agentId, retry: { attempts: 1, baseDelayMs: 1 }, ...extra }));
    const full = await clone('full', {});
    const partial = await clone('partial', { partial: true });
    const scoped = await clone('scoped', { partial: true, scope: SCOPE });
    const unfetched = 'bulk/d3/f321.md';
    const readIn = async (agentId) => {
      const memory = await createMemory({ home, agentId, env, git });
      return timed(() => memory.read(unfetched));
    };
    const fullRead = await readIn('full');
    const lazyRead = await readIn('scoped');
    for (const [name, dir] of [
      ['raw git clone', join(base, 'raw')],
      ['full', full.value.memoryDir],
      ['partial', partial.value.memoryDir],
      ['scoped', scoped.value.memoryDir],
    ])
      process.stderr.write(`bench: readers: ${name} clone: ${round(du(dir))} MiB on disk\n`);
    const row = (name, ms, floorName, floorMs) => ({
      section: 'readers',
      name,
      median_ms: round(ms),
      p95_ms: round(ms),
      floor_name: floorName,
      floor_median_ms: round(floorMs),
      ratio: round(ms / floorMs),
      target: '',
    });
    const n = FILES.toLocaleString('en');
    return [
      row(`clone ${n} files, full (validated)`, full.ms, 'git clone (full, git://)', raw.ms),
      row(`clone ${n} files, --partial`, partial.ms, 'git clone (full, git://)', raw.ms),
      row(`clone ${n} files, --partial --scope (100 files)`, scoped.ms, 'git clone (full, git://)', raw.ms),
      row('first read of an unfetched blob (scoped)', lazyRead.ms, 'the same read, full clone', fullRead.ms),
    ];
  } finally {
    daemon.stop();
  }
}
