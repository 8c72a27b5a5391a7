// Core write path: create / str_replace through the library vs raw `git add && git commit && git rev-parse`.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemory, initMemory } from '../../dist/index.js';
import { benchEnv, execFileP, gitSync, populate, round, timeIt, tmpDir } from '../lib.mjs';

async function floorRepo(size, env) {
  const dir = tmpDir('gitmem-bench-floor-');
  gitSync(dir, ['init', '-q', '-b', 'main'], env);
  // The floor repo gets the same repository settings gitmem's init gives a memory repo, so the comparison
  // measures the write path, not the configuration.
  gitSync(dir, ['config', 'core.untrackedCache', 'true'], env);
  gitSync(dir, ['config', 'core.splitIndex', 'true'], env);
  populate(dir, size, env);
  return dir;
}

async function floorWrite(dir, env, file, content) {
  writeFileSync(join(dir, file), content);
  await execFileP('git', ['-c', 'commit.gpgsign=false', 'add', '--', file], { cwd: dir, env });
  await execFileP('git', ['-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'floor write'], { cwd: dir, env });
  await execFileP('git', ['rev-parse', 'HEAD'], { cwd: dir, env });
}

async function sizeRows(size, iterations) {
  const home = tmpDir('gitmem-bench-home-');
  const env = benchEnv(home);
  await initMemory({ home, agentId: 'bench', env });
  const memory = await createMemory({ home, agentId: 'bench', env });
  populate(memory.memoryDir, size, env);
  const floorDir = await floorRepo(size, env);
  const desc = '---\ndescription: floor\n---\n';
  const floorCreate = await timeIt(iterations, (i) => floorWrite(floorDir, env, `new-${i + 10}.md`, `${desc}x${i}\n`));
  const create = await timeIt(iterations, (i) =>
    memory.tool({ command: 'create', reason: 'bench create', file_path: `notes/new-${i + 10}.md`, description: 'bench', file_text: `x${i}` }),
  );
  writeFileSync(join(floorDir, 'edit.md'), `${desc}v-1\n`);
  await memory.tool({ command: 'create', reason: 'seed', file_path: 'edit.md', description: 'edit', file_text: 'v-4' });
  const floorEdit = await timeIt(iterations, (i) => floorWrite(floorDir, env, 'edit.md', `${desc}v${i}\n`));
  let prev = -4;
  const replace = await timeIt(iterations, async (i) => {
    await memory.tool({ command: 'str_replace', reason: 'bench edit', file_path: 'edit.md', old_string: `v${prev}`, new_string: `v${i}` });
    prev = i;
  });
  const row = (name, m, floor, target) => ({
    section: 'core', name: `${name} @ ${size} files`, median_ms: round(m.median), p95_ms: round(m.p95),
    floor_name: 'git add+commit+rev-parse', floor_median_ms: round(floor.median), ratio: round(m.median / floor.median), target,
  });
  const target = size >= 10000 ? '<= 1.0x' : size >= 1000 ? '<= 1.25x' : '';
  return [row('tool create', create, floorCreate, target), row('tool str_replace', replace, floorEdit, target)];
}

function cliRow(iterations) {
  const home = tmpDir('gitmem-bench-cli-');
  const env = { ...benchEnv(home), GITMEM_HOME: home };
  const main = new URL('../../dist/bin/gitmem.cjs', import.meta.url).pathname;
  spawnSync(process.execPath, [main, 'init', '--agent', 'cli'], { env });
  const run = (args) => spawnSync(process.execPath, args, { env, stdio: 'ignore' });
  const time = (fn) => {
    const out = [];
    for (let i = -3; i < iterations; i++) {
      const t0 = performance.now();
      fn(i);
      if (i >= 0) out.push(performance.now() - t0);
    }
    out.sort((a, b) => a - b);
    return { median: out[Math.floor(out.length / 2)], p95: out[Math.floor(out.length * 0.95)] };
  };
  const nodeZero = time(() => run(['-e', '0']));
  const write = time((i) => run([main, 'memory', 'create', `notes/c${i + 3}.md`, '--description', 'c', '--text', 'x', '--reason', 'cli bench', '--agent', 'cli']));
  return {
    section: 'core', name: 'CLI write (process)', median_ms: round(write.median), p95_ms: round(write.p95),
    floor_name: 'node -e 0', floor_median_ms: round(nodeZero.median), ratio: round(write.median / nodeZero.median),
    target: `<= node -e 0 + 30 ms (overhead ${round(write.median - nodeZero.median)} ms)`,
  };
}

export async function bench({ iterations = 30 } = {}) {
  const rows = [];
  for (const size of [10, 1000, 10000]) rows.push(...(await sizeRows(size, size >= 10000 ? Math.max(10, Math.floor(iterations / 2)) : iterations)));
  rows.push(cliRow(Math.max(10, Math.floor(iterations / 2))));
  return rows;
}
