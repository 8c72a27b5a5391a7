// Background writer cycle: create a private worktree → one commit (into its private object directory, as a
// confined writer does) → import (pack → unpack, ancestry) → merge back → cleanup, in repos of 1,000 and
// 10,000 files, against one raw `git add && git commit` write measured in the same run and repo.
// Also the operation lease alone (acquire + release, uncontended). Target: cycle <= 3x one write, interleaved.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createGitRunner, runMemoryWorker, withMemoryOperation } from '../../dist/internals.js';
import { benchEnv, execFileP, gitSync, interleavedPairs, populate, round, timeIt, tmpDir } from '../lib.mjs';

function rawWrite(dir, env, file, content) {
  writeFileSync(join(dir, file), content);
  return execFileP('git', ['-c', 'commit.gpgsign=false', 'add', '--', file], { cwd: dir, env }).then(() =>
    execFileP('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'raw write'], { cwd: dir, env }),
  );
}

async function sizeRows(size, iterations) {
  const home = tmpDir('gitmem-bench-worker-');
  try {
    return await measure(home, size, iterations);
  } finally {
    rmSync(home, { recursive: true, force: true }); // ~25 MB at 10,000 files
  }
}

async function measure(home, size, iterations) {
  const env = benchEnv(home);
  const repo = join(home, 'agents', 'bench', 'memory');
  gitSync(home, ['init', '-q', '-b', 'main', repo], env);
  writeFileSync(join(repo, 'README.md'), 'bench\n');
  populate(repo, size, env);
  const git = createGitRunner({ env });
  // The floor (one raw write) and the cycle are measured in interleaved pairs in the same repo, so drift in a
  // noisy machine hits both; the ratio is the median of the per-pair ratios. The repo is plain git (no gitmem
  // hook), so neither side pays the pre-commit hook.
  const cycleOnce = async (i) => {
    const out = await runMemoryWorker({ memoryDir: repo }, async (ctx) => {
      const wenv = { ...env, ...ctx.gitEnv };
      // A memory file (frontmatter and all): merges are validated, a file without one ends `rejected`.
      writeFileSync(join(ctx.worktreeDir, `worker-${i + 10}.md`), `---\ndescription: worker note ${i}\n---\nworker ${i}\n`);
      await execFileP('git', ['-c', 'commit.gpgsign=false', 'add', '--', `worker-${i + 10}.md`], { cwd: ctx.worktreeDir, env: wenv });
      await execFileP('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'worker write'], { cwd: ctx.worktreeDir, env: wenv });
    }, { git });
    if (out.status !== 'merged') throw new Error(`worker cycle ended ${out.status}`);
  };
  const pairs = await interleavedPairs(iterations, (i) => rawWrite(repo, env, `raw-${i + 10}.md`, `raw ${i}\n`), cycleOnce);
  const floor = pairs.floor;
  const cycle = pairs.ours;
  const row = (name, m, target, ratio = m.median / floor.median) => ({
    section: 'worker', name: `${name} @ ${size} files`, median_ms: round(m.median), p95_ms: round(m.p95),
    floor_name: 'git add+commit (one write), interleaved', floor_median_ms: round(floor.median), ratio: round(ratio), target,
  });
  const rows = [row('worker cycle (create→commit→merge→cleanup)', cycle, '<= 3x', pairs.ratio)];
  if (size === 1000) {
    const lease = await timeIt(Math.max(iterations, 200), () => withMemoryOperation(repo, () => undefined));
    rows.push({ ...row('lease acquire+release (uncontended)', lease, '~1 ms'), name: 'lease acquire+release (uncontended)' });
  }
  return rows;
}

export async function bench({ iterations }) {
  const n = Math.min(iterations, 20);
  return [...(await sizeRows(1000, n)), ...(await sizeRows(10000, n))];
}
