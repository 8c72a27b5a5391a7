// The write path's cost of secret scanning and of the system/ budget check. Both sides write through the same
// tool code on the same repository, interleaved (A B, B A, …); they differ only in the one thing measured:
// - scanning: the same str_replace / create with the scan on vs off (target: <= 1.10x);
// - budget: a write that grows system/ (one extra `ls-tree -l` of HEAD's system/) vs the same write outside it.
// The scan alone on a typical change (a 3 KB file gaining one line) is timed in-process too.
import { join } from 'node:path';
import { createGitRunner, initMemory, scanText } from '../../dist/internals.js';
import { withMemoryOperation } from '../../dist/git/lease.js';
import { runMemoryTool } from '../../dist/memfs/tool.js';
import { addedText } from '../../dist/blocks/secrets.js';
import { benchEnv, populate, round, stats, tmpDir } from '../lib.mjs';

async function interleaved(pairs, base, ours) {
  const b = [];
  const o = [];
  const ratios = [];
  for (let i = -3; i < pairs; i++) {
    const time = async (fn) => {
      const t0 = performance.now();
      await fn(i + 3);
      return performance.now() - t0;
    };
    let tb;
    let to;
    if (i % 2 === 0) {
      tb = await time(base);
      to = await time(ours);
    } else {
      to = await time(ours);
      tb = await time(base);
    }
    if (i < 0) continue;
    b.push(tb);
    o.push(to);
    ratios.push(to / tb);
  }
  return { base: stats(b), ours: stats(o), ratio: stats(ratios).median };
}

const NOTE = Array.from(
  { length: 40 },
  (_, i) => `- item ${i}: prefers pnpm and short answers; the api key lives in 1Password, token budget 8000`,
).join('\n');

export async function bench({ iterations = 30 } = {}) {
  const home = tmpDir('gitmem-bench-secrets-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memoryDir = join(home, 'agents', 'bench', 'memory');
  populate(memoryDir, 1000, env);
  const git = createGitRunner({ env });
  const deps = {
    git,
    memoryDir,
    author: { name: 'bench', email: 'bench@gitmem.local' },
    lease: (fn) => withMemoryOperation(memoryDir, fn, { purpose: 'bench' }),
  };
  const off = { ...deps, skipSecretScan: true };
  for (const f of ['notes/a.md', 'notes/b.md', 'system/s.md'])
    await runMemoryTool(deps, {
      command: 'create',
      reason: 'seed',
      file_path: f,
      description: 'seed',
      file_text: `${NOTE}\nend\n`,
    });
  const edit = (d, file) => async (i) =>
    runMemoryTool(d, {
      command: 'str_replace',
      reason: 'bench',
      file_path: file,
      old_string: 'end\n',
      new_string: `- learned ${i}\nend\n`,
    });
  const pairs = iterations + 10;
  // Scan on vs off: each side edits its own file, so both do the same work on every round.
  const replace = await interleaved(pairs, edit(off, 'notes/a.md'), edit(deps, 'notes/b.md'));
  const create = await interleaved(
    pairs,
    (i) =>
      runMemoryTool(off, {
        command: 'create',
        reason: 'bench',
        file_path: `notes/off-${i}.md`,
        description: 'd',
        file_text: `${NOTE}\n${i}\n`,
      }),
    (i) =>
      runMemoryTool(deps, {
        command: 'create',
        reason: 'bench',
        file_path: `notes/on-${i}.md`,
        description: 'd',
        file_text: `${NOTE}\n${i}\n`,
      }),
  );
  const budget = await interleaved(pairs, edit(deps, 'notes/a.md'), edit(deps, 'system/s.md'));
  const before = `---\ndescription: d\n---\n${NOTE}\nend\n`;
  const scans = [];
  for (let i = -200; i < 2000; i++) {
    const t0 = performance.now();
    scanText(addedText(before, before.replace('end\n', `- learned ${i}\nend\n`)));
    if (i >= 0) scans.push(performance.now() - t0);
  }
  const scan = stats(scans);
  const row = (name, r, floor, target) => ({
    section: 'secrets',
    name,
    median_ms: round(r.ours.median),
    p95_ms: round(r.ours.p95),
    floor_name: floor,
    floor_median_ms: round(r.base.median),
    ratio: round(r.ratio),
    target,
  });
  return [
    row('str_replace, secret scan on @ 1000 files', replace, 'same, scan off', '<= 1.10x'),
    row('create 3 KB, secret scan on @ 1000 files', create, 'same, scan off', '<= 1.10x'),
    row('str_replace growing system/ (budget check)', budget, 'same outside system/', ''),
    {
      section: 'secrets',
      name: 'scan of a 3 KB change (in-process)',
      median_ms: round(scan.median * 1000) / 1000,
      p95_ms: round(scan.p95 * 1000) / 1000,
      floor_name: '',
      floor_median_ms: '',
      ratio: '',
      target: '',
    },
  ];
}
