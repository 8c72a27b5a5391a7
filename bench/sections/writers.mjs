// Many writers on one memory, through one real gitolite3 repository over SSH on loopback (issue 30): HOMES homes
// (machines) × AGENTS agents, WRITES acknowledged writes each, every writer in `sync.mode = writer-refs` with an
// integrator running (`integrateWriters` in a loop at RATE pushes a minute). Reports acknowledged writes lost and
// duplicated (must be 0), `git fsck --strict --no-dangling` (force-pushed writer refs leave dangling commits) of the server's repository, p50/p95 from acknowledgement (the
// writer's sync returned `pushed`) to the write being on the server's main, the integrator's pushes per minute and
// the writers' push retries. Then the same writers with plain `sync` (everyone pushes main): how many pushes lost
// the ref race. Full size: BENCH_WRITERS_HOMES=4 BENCH_WRITERS_AGENTS=5 BENCH_WRITERS_WRITES=50; the default is a
// bounded run (a minute or two) since the machine is shared. The plain baseline stops after BENCH_WRITERS_PLAIN_MINUTES
// (default 10) and counts the writes whose sync lost the race 20 times in a row as starved.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cloneMemory, createMemory, initMemory } from '../../dist/index.js';
import { createGitRunner, integrateWriters } from '../../dist/internals.js';
import { gitoliteMissing, startGitolite } from '../gitolite.mjs';
import { benchEnv, gitSync, round, stats, tmpDir } from '../lib.mjs';

const num = (name, dflt) => Number(process.env[name] ?? dflt);
const HOMES = num('BENCH_WRITERS_HOMES', 4);
const AGENTS = num('BENCH_WRITERS_AGENTS', 5);
const WRITES = num('BENCH_WRITERS_WRITES', 2);
const RATE = num('BENCH_WRITERS_RATE', 6);
// The plain-sync baseline stops after this many minutes: at full size its writers starve each other for an hour.
const PLAIN_MINUTES = num('BENCH_WRITERS_PLAIN_MINUTES', 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A runner that counts pushes the server refused because another push won the ref (non-ff or ref lock). */
function countingRunner(env, counter) {
  const inner = createGitRunner({ env });
  return {
    ...inner,
    run: async (args, opts) => {
      try {
        return await inner.run(args, opts);
      } catch (err) {
        if (
          args.includes('push') &&
          /non-fast-forward|fetch first|cannot lock ref|failed to update ref/i.test(
            `${err?.stderr ?? ''}${err?.message ?? ''}`,
          )
        )
          counter.lostRaces++;
        throw err;
      }
    },
  };
}

async function writersOf(gl, base, repo, mode, counter) {
  const writers = [];
  for (let h = 1; h <= HOMES; h++)
    for (let a = 1; a <= AGENTS; a++) {
      const home = tmpDir(`gitmem-bench-w-h${h}a${a}-`);
      if (mode === 'writer-refs')
        writeFileSync(join(home, 'config'), JSON.stringify({ sync: { mode, machine: `h${h}` } }));
      const env = gl.envFor(`h${h}`, base);
      const git = countingRunner(env, counter);
      await cloneMemory({ git, home, url: gl.url(repo), agentId: `a${a}` });
      writers.push({ id: `a${a}-h${h}`, memory: await createMemory({ home, agentId: `a${a}`, env, git }) });
    }
  return writers;
}

/**
 * Each writer writes and syncs WRITES times (a failed sync is tried again: the write is acknowledged once pushed).
 * With `until` (plain sync, the baseline) a writer stops at that time and a write whose sync kept losing the race
 * 20 times is counted as starved rather than failing the run: starvation is what the baseline shows.
 */
async function runWriters(writers, acks, counter, until = Infinity) {
  await Promise.all(
    writers.map(async (w) => {
      for (let k = 0; k < WRITES && Date.now() < until; k++) {
        const id = `${w.id}-${k}`;
        await w.memory.tool({
          command: 'create',
          reason: `bench ${id}`,
          file_path: `notes/${id}.md`,
          description: id,
          file_text: `${id}\n`,
        });
        let pushed;
        for (let attempt = 0; ; attempt++) {
          const r = await w.memory.sync();
          counter.retries += r.retries ?? 0;
          pushed = r.status === 'pushed' || r.status === 'clean';
          if (pushed) break;
          counter.failedSyncs++;
          if (attempt > 20 && until !== Infinity) {
            counter.starved = (counter.starved ?? 0) + 1;
            break;
          }
          if (attempt > 20) throw new Error(`${id}: ${r.summary}`);
          await sleep(200 + Math.random() * 300);
        }
        if (pushed) acks.set(id, Date.now());
      }
    }),
  );
}

async function writerRefsScenario(gl, base) {
  const integEnv = gl.envFor('integ', base);
  const git = createGitRunner({ env: integEnv });
  const home = tmpDir('gitmem-bench-integ-');
  const made = await initMemory({ home, agentId: 'team', env: integEnv, git });
  const integrator = await createMemory({ home, agentId: 'team', env: integEnv, git });
  await integrator.remote.set(gl.url('shared'));
  await integrator.sync();
  const counter = { retries: 0, lostRaces: 0, failedSyncs: 0 };
  const writers = await writersOf(gl, base, 'shared', 'writer-refs', counter);
  const acks = new Map();
  const onMain = new Map();
  let done = false;
  let pushes = 0;
  const t0 = Date.now();
  const writing = runWriters(writers, acks, counter).finally(() => (done = true));
  const deadline = () => Date.now() - t0 > 30 * 60_000;
  while (!deadline()) {
    const r = await integrateWriters({ git, memoryDir: made.memoryDir, pushesPerMinute: RATE });
    if (r.status === 'integrated') {
      pushes++;
      const now = Date.now();
      for (const f of gitSync(made.memoryDir, ['ls-tree', '--name-only', 'HEAD', 'notes/'], integEnv).split('\n'))
        if (f.endsWith('.md') && !onMain.has(f.slice(6, -3))) onMain.set(f.slice(6, -3), now);
    }
    if (done && [...acks.keys()].every((id) => onMain.has(id))) break;
    await sleep(500);
  }
  await writing;
  const minutes = (Date.now() - t0) / 60_000;
  const lost = [...acks.keys()].filter((id) => !onMain.has(id)).length;
  const bodies = gitSync(made.memoryDir, ['log', '--no-merges', '--format=%B%x00', 'HEAD'], integEnv);
  const commitsOf = (id) => bodies.split(`bench ${id}\n`).length - 1;
  const duplicated = [...acks.keys()].filter((id) => commitsOf(id) > 1).length;
  // The duplicate count means something only if each write's commit is found by its reason.
  if ([...acks.keys()].some((id) => commitsOf(id) === 0)) throw new Error('a write commit without its reason');
  const repoDir = join(gl.home, 'repositories', 'shared.git');
  const fsck = gitSync(repoDir, ['fsck', '--strict', '--no-dangling', '--no-progress'], integEnv);
  const delays = [...acks].filter(([id]) => onMain.has(id)).map(([id, at]) => Math.max(0, onMain.get(id) - at));
  const s = stats(delays);
  return {
    section: 'writers',
    name: `writer-refs ${HOMES}x${AGENTS}x${WRITES}: ack→main`,
    median_ms: round(s.median),
    p95_ms: round(s.p95),
    target: '0 lost, 0 duplicated, fsck clean',
    acked: acks.size,
    lost,
    duplicated,
    fsck_clean: fsck === '',
    pushes_per_minute: round(pushes / minutes),
    rate_limit: RATE,
    writer_retries: counter.retries,
    failed_syncs: counter.failedSyncs,
  };
}

async function plainScenario(gl, base) {
  const integEnv = gl.envFor('integ', base);
  const git = createGitRunner({ env: integEnv });
  const home = tmpDir('gitmem-bench-plain-');
  await initMemory({ home, agentId: 'team', env: integEnv, git });
  const seed = await createMemory({ home, agentId: 'team', env: integEnv, git });
  await seed.remote.set(gl.url('plain'));
  await seed.sync();
  const counter = { retries: 0, lostRaces: 0, failedSyncs: 0 };
  const writers = await writersOf(gl, base, 'plain', 'main', counter);
  const acks = new Map();
  const t0 = Date.now();
  await runWriters(writers, acks, counter, t0 + PLAIN_MINUTES * 60_000);
  return {
    section: 'writers',
    name: `plain sync ${HOMES}x${AGENTS}x${WRITES}: pushes that lost the ref race`,
    median_ms: round((Date.now() - t0) / Math.max(1, acks.size)),
    target: 'baseline',
    acked: acks.size,
    of: HOMES * AGENTS * WRITES,
    minutes_cap: PLAIN_MINUTES,
    lost_races: counter.lostRaces,
    failed_syncs: counter.failedSyncs,
    starved: counter.starved ?? 0,
  };
}

export async function bench() {
  const missing = gitoliteMissing();
  if (missing) {
    process.stderr.write(`bench: writers skipped: ${missing}\n`);
    return [];
  }
  const dir = tmpDir('gitmem-bench-gitolite-');
  const users = [...Array.from({ length: HOMES }, (_, i) => `h${i + 1}`), 'integ'];
  const conf = [
    'repo shared',
    ...users.filter((u) => u !== 'integ').map((u) => `    RW+ writers/a[0-9]+/${u}$ = ${u}`),
    '    RW  main$ = integ',
    '    R = @all',
    'repo plain',
    '    RW main$ = @all',
    '',
  ].join('\n');
  const gl = await startGitolite(dir, users, conf);
  const base = benchEnv(tmpDir('gitmem-bench-writers-home-'));
  try {
    const refs = await writerRefsScenario(gl, base);
    // Shown at once: the baseline after it runs for minutes and must not take this row with it if it fails.
    process.stderr.write(`bench: ${JSON.stringify(refs)}\n`);
    return [refs, await plainScenario(gl, base)];
  } finally {
    gl.stop();
  }
}
