// `npm run demo`: the main job on a throwaway home — create an agent, write memory through the tool,
// show the history, the tree and the compiled system prompt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const home = mkdtempSync(join(tmpdir(), 'gitmem-demo-'));
const main = new URL('../dist/bin/gitmem.cjs', import.meta.url).pathname;
const env = { ...process.env, GITMEM_HOME: home };
const steps = [
  ['init', '--agent', 'demo', '--name', 'Demo'],
  [
    'memory',
    'create',
    'system/project.md',
    '--description',
    'What we are building',
    '--text',
    'A memory that is a git repository.',
    '--reason',
    'Record the project goal',
    '--agent',
    'demo',
  ],
  [
    'memory',
    'create',
    'notes/ideas.md',
    '--description',
    'Ideas to try later',
    '--text=- sync across machines',
    '--reason',
    'Keep ideas out of the prompt',
    '--agent',
    'demo',
  ],
  [
    'memory',
    'str-replace',
    'system/project.md',
    '--old',
    'git repository',
    '--new',
    'real git repository',
    '--reason',
    'Be precise',
    '--agent',
    'demo',
  ],
  ['log', '--agent', 'demo'],
  ['tree', '--agent', 'demo'],
  ['prompt', '--agent', 'demo'],
];
let code = 0;
for (const args of steps) {
  process.stdout.write(`\n$ gitmem ${args.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}\n`);
  const r = spawnSync(process.execPath, [main, ...args], { env, stdio: 'inherit' });
  if (r.status !== 0) {
    code = r.status ?? 1;
    break;
  }
}
rmSync(home, { recursive: true, force: true });
process.exitCode = code;
