// Background writer cycle, as `memory.runWorker({ command })` (and `gitmem worker run --command`) does it: create a private worktree → start the
// body (a shell command) in the sandbox, which writes one memory file and commits it with plain git → import
// and merge back through the validator → cleanup. In a real memory repo (gitmem's init: hooks installed) of
// 1,000 and 10,000 files, against one raw `git add && git commit --no-verify` (what one memory write costs)
// measured in the same run and repo. Twice: the body commits `--no-verify`, and through the pre-commit hook.
// Also the operation lease alone (acquire + release, uncontended). Target: cycle <= 3x one write, interleaved.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory, withMemoryOperation } from '../../dist/internals.js';
import { benchEnv, execFileP, gitSync, interleavedPairs, populate, round, timeIt, tmpDir } from '../lib.mjs';

function rawWrite(dir, env, file, content) {
  writeFileSync(join(dir, file), content);
  return execFileP('git', ['add', '--', file], { cwd: dir, env }).then(() =>
    execFileP('git', ['commit', '-q', '--no-verify', '-m', 'raw write'], { cwd: dir, env }),
  );
}

/** The body: one valid memory file (frontmatter and all: merges are validated), added and committed from the shell. */
function bodyCommand(file, i, verify) {
  const text = `---\\ndescription: worker note ${i}\\n---\\nworker ${i}\\n`;
  return `mkdir -p notes && printf -- '${text}' > ${file} && git add -- ${file} && git commit -q ${verify ? '' : '--no-verify '}-m 'worker write ${i}'`;
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
  const env = { ...benchEnv(home), GITMEM_HOME: home };
  const { memoryDir: repo } = await initMemory({ home, agentId: 'bench', env });
  if (!existsSync(join(repo, '.git', 'hooks', 'pre-commit'))) throw new Error('the bench repo has no pre-commit hook');
  populate(repo, size, env);
  // The handle, as a harness uses it (`memory.runWorker`, what `gitmem worker run` does): its git runner and all.
  const memory = await createMemory({ home, agentId: 'bench', env });
  let n = 0;
  const cycle = (verify) => async () => {
    const i = n++;
    const file = `notes/worker-${i}.md`;
    let stderr = '';
    const command = bodyCommand(file, i, verify);
    const out = await memory.runWorker({ command, onOutput: (r) => (stderr = r.stderr) });
    if (out.status !== 'merged')
      throw new Error(`worker cycle ended ${out.status}: ${out.error ?? out.problems?.join('; ') ?? stderr}`);
  };
  // The floor (one raw write) and each cycle are measured in interleaved pairs in the same repo, so drift in a
  // noisy machine hits both; the ratio is the median of the per-pair ratios.
  const raw = (i) => rawWrite(repo, env, `raw-${n}-${i + 10}.md`, `---\ndescription: raw ${i}\n---\nraw ${i}\n`);
  const plain = await interleavedPairs(iterations, raw, cycle(false));
  const hooked = await interleavedPairs(iterations, raw, cycle(true));
  // Every cycle's file landed: the bodies really committed memory files that passed the validator.
  const landed = gitSync(repo, ['ls-tree', '--name-only', 'HEAD', 'notes/'], env).split('\n').filter(Boolean).length;
  if (landed !== n) throw new Error(`${landed} of ${n} worker files landed`);
  const row = (name, m, floor, ratio) => ({
    section: 'worker',
    name: `${name} @ ${size} files`,
    median_ms: round(m.median),
    p95_ms: round(m.p95),
    floor_name: 'git add+commit --no-verify (one write), interleaved',
    floor_median_ms: round(floor.median),
    ratio: round(ratio),
    target: '<= 3x',
  });
  const rows = [
    row('worker cycle, body commits --no-verify', plain.ours, plain.floor, plain.ratio),
    row('worker cycle, body commits through the hook', hooked.ours, hooked.floor, hooked.ratio),
  ];
  if (size === 1000) {
    const lease = await timeIt(Math.max(iterations, 200), () => withMemoryOperation(repo, () => undefined));
    rows.push({
      ...row('lease acquire+release (uncontended)', lease, lease, 1),
      name: 'lease acquire+release (uncontended)',
      floor_name: '',
      floor_median_ms: '',
      ratio: '',
      target: '~1 ms',
    });
  }
  return rows;
}

export async function bench({ iterations }) {
  const n = Math.min(iterations, 20);
  return [...(await sizeRows(1000, n)), ...(await sizeRows(10000, n))];
}
