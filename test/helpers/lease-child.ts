// A separate process that takes the memory operation lease, for the cross-process lease tests.
// Usage: node --import tsx lease-child.ts <mode> <repoDir> [count] [tag]
//   hold        take the lease, create git's index.lock as if mid-commit, print READY, then wait forever
//   write       <count> lease-guarded writes: write a file, git add, git commit (prints DONE)
//   stall       take the lease, print READY, then block the event loop for <count> ms (no heartbeat), exit
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withMemoryOperation } from '../../src/git/lease.js';
import { createGitRunner } from '../../src/git/runner.js';

const [mode, repoDir = '', countArg = '1', tag = 'p'] = process.argv.slice(2);
const git = createGitRunner({ env: process.env });

async function main(): Promise<void> {
  if (mode === 'hold') {
    await withMemoryOperation(
      repoDir,
      async () => {
        writeFileSync(join(repoDir, '.git', 'index.lock'), '');
        process.stdout.write('READY\n');
        setInterval(() => undefined, 1_000); // keep the process alive while holding
        await new Promise(() => undefined);
      },
      { purpose: 'child hold' },
    );
    return;
  }
  if (mode === 'stall') {
    await withMemoryOperation(
      repoDir,
      () => {
        process.stdout.write('READY\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(countArg)); // a long synchronous step
      },
      { purpose: 'child stall', heartbeatMs: 50 },
    );
    return;
  }
  const count = Number(countArg);
  mkdirSync(join(repoDir, 'writes', tag), { recursive: true });
  for (let i = 0; i < count; i++) {
    await withMemoryOperation(
      repoDir,
      async () => {
        const rel = `writes/${tag}/${i}.md`;
        writeFileSync(join(repoDir, rel), `${tag} ${i}\n`);
        await git.run(['add', '--', rel], { cwd: repoDir });
        await git.run(['commit', '-q', '-m', `write ${tag} ${i}`, '--', rel], { cwd: repoDir });
      },
      { purpose: `writer ${tag}`, timeoutMs: 60_000 },
    );
  }
  process.stdout.write('DONE\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error).stack ?? err)}\n`);
  process.exit(3);
});
