// What the markdown merge costs a background writer's merge, in a repo of 1,000 files: the checkout and a
// branch both edited one memory file — far apart (git's line merge finishes it: no markdown merge) or both
// appending a bullet at the end (git's line merge conflicts: merge-tree, then the markdown merge in-process).
// Also a `git merge` run by hand of the same two shapes: the second starts the merge driver's Node process.
// Setup of each sample (two commits) is not timed.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner, initMemory, mergeIntoCheckout } from '../../dist/internals.js';
import { benchEnv, gitSync, populate, round, stats, tmpDir } from '../lib.mjs';

const FILE = 'notes/work.md';
const BULLETS = Array.from({ length: 20 }, (_, i) => `- item ${i}`);

function edit(repo, change) {
  const path = join(repo, FILE);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

/** Branch `w<i>` and main each get one commit on FILE: `far` edits bullets 2 and 18, else both append one. */
function diverge(repo, env, i, far) {
  const commit = (msg) => gitSync(repo, ['commit', '-q', '--no-verify', '-am', msg], env);
  gitSync(repo, ['checkout', '-q', '-b', `w${i}`], env);
  edit(repo, (t) => (far ? t.replace(/^- item 18( .*)?$/m, `- item 18 (worker ${i})`) : `${t}- worker ${i}\n`));
  commit('worker edit');
  gitSync(repo, ['checkout', '-q', 'main'], env);
  edit(repo, (t) => (far ? t.replace(/^- item 2( .*)?$/m, `- item 2 (primary ${i})`) : `${t}- primary ${i}\n`));
  commit('primary edit');
}

async function sample(iterations, setup, run) {
  for (let i = 0; i < 3; i++) await run(setup(-1 - i));
  const out = [];
  for (let i = 0; i < iterations; i++) {
    const arg = setup(i);
    const t0 = performance.now();
    await run(arg);
    out.push(performance.now() - t0);
  }
  return stats(out);
}

async function measure(home, iterations) {
  const env = benchEnv(home);
  const { memoryDir: repo } = await initMemory({ home, agentId: 'bench', env });
  populate(repo, 1000, env);
  mkdirSync(join(repo, 'notes'));
  writeFileSync(join(repo, FILE), `---\ndescription: Work notes\n---\n# Work\n\n${BULLETS.join('\n')}\n`);
  gitSync(repo, ['add', '-A'], env);
  gitSync(repo, ['commit', '-q', '--no-verify', '-m', 'work notes'], env);
  const git = createGitRunner({ env });
  let n = 0;
  const worker = (far) =>
    sample(
      iterations,
      () => (diverge(repo, env, n, far), `w${n++}`),
      async (branch) => {
        const r = await mergeIntoCheckout({ memoryDir: repo, branch, message: `merge(memory): ${branch}`, git });
        if (r.status !== 'merged') throw new Error(`merge ended ${r.status}`);
      },
    );
  const byHand = (far) =>
    sample(
      iterations,
      () => (diverge(repo, env, n, far), `w${n++}`),
      (branch) => void gitSync(repo, ['merge', '-q', '--no-edit', branch], env),
    );
  const lineOnly = await worker(true);
  const markdown = await worker(false);
  const handLine = await byHand(true);
  const handDriver = await byHand(false);
  const row = (name, m, floorName, floor) => ({
    section: 'merge',
    name: `${name} @ 1000 files`,
    median_ms: round(m.median),
    p95_ms: round(m.p95),
    floor_name: floorName,
    floor_median_ms: round(floor.median),
    ratio: round(m.median / floor.median),
    target: '',
  });
  return [
    row('worker merge, git line merge only', lineOnly, 'same', lineOnly),
    row('worker merge that needs the markdown merge', markdown, 'worker merge, line merge only', lineOnly),
    row('git merge by hand, line merge only', handLine, 'same', handLine),
    row('git merge by hand through the merge driver', handDriver, 'git merge by hand, line merge only', handLine),
  ];
}

export async function bench({ iterations }) {
  const home = tmpDir('gitmem-bench-merge-');
  try {
    return await measure(home, Math.min(iterations, 20));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
