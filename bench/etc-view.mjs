// How much the etc view saves a sandbox start: `bwrap <argv> true` for a memory writer's policy, with a bind per
// /etc entry (etcViews: null) and with the view, interleaved, N runs each (default 80). Linux with bwrap only.
// Usage: npm run build && node bench/etc-view.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMemoryWriterPolicy, confineCommand } from '../dist/internals.js';
import { TMP_ROOT } from './lib.mjs';

const runs = Number(process.argv[2] ?? 80);
const home = mkdtempSync(join(TMP_ROOT, 'gitmem-etcbench-'));
const memoryDir = join(home, 'agents', 'a1', 'memory');
const worktreesDir = join(home, 'agents', 'a1', 'memory-worktrees');
mkdirSync(join(memoryDir, '.git', 'hooks'), { recursive: true });
mkdirSync(worktreesDir, { recursive: true });
writeFileSync(join(memoryDir, '.git', 'config'), '');
const policy = buildMemoryWriterPolicy({ gitmemHome: home, agentId: 'a1', memoryDir, worktreesDir });
const argvOf = (etcViews) => confineCommand({ command: ['true'], policy, env: process.env, ...(etcViews === null ? { etcViews } : {}) });

const time = (c) => {
  const t = process.hrtime.bigint();
  const r = spawnSync(c.argv[0], c.argv.slice(1), { env: c.env, stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`bwrap failed (${r.status}): ${c.argv.join(' ')}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const perEntry = argvOf(null);
argvOf(undefined); // a process's first sandbox gets per-entry binds; the view is written at its second
const view = argvOf(undefined);
if (!view.argv.includes('--lock-file')) throw new Error('no etc view here (no private runtime dir?)');
const count = (c) => c.argv.filter((a) => a.startsWith('--') && /bind|tmpfs/.test(a)).length;
for (let i = 0; i < 5; i++) {
  // warm-up
  time(perEntry);
  time(view);
}
const a = [];
const b = [];
for (let i = 0; i < runs; i++) {
  a.push(time(perEntry));
  b.push(time(view));
}
console.log(`per-entry binds: ${count(perEntry)} mounts, median ${median(a).toFixed(2)} ms`);
console.log(`etc view:        ${count(view)} mounts, median ${median(b).toFixed(2)} ms`);
console.log(`difference:      ${(median(b) - median(a)).toFixed(2)} ms over ${runs} interleaved runs each`);
rmSync(home, { recursive: true, force: true });
