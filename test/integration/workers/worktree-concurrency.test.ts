// Many writers at once: 4 processes × 50 lease-guarded commits on the checkout while 2 memory workers run
// and merge back. Every write must land, the workers' merges too, and the repository must stay sound.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { cleanupTmp, git, hermeticGitEnv, initRepoWithFile, makeTmpDir } from '../../helpers/tmp.js';

const CHILD = join(import.meta.dirname, '..', '..', 'helpers', 'lease-child.ts');
let root: string;
let repo: string;
let env: Record<string, string>;

function writer(tag: string, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, 'write', repo, String(count), tag], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${tag} exited ${code}: ${err}`))));
  });
}

beforeAll(() => {
  root = makeTmpDir();
  env = { ...hermeticGitEnv(root), NODE_OPTIONS: '' };
  repo = join(root, 'agents', 'a1', 'memory');
  initRepoWithFile(repo, 'system/persona.md', 'persona\n', env);
});

afterAll(() => cleanupTmp());

it('keeps every one of 4×50 concurrent tool writes and both workers’ merges; fsck stays clean', async () => {
  const runner = createGitRunner({ env });
  const workers = ['w1', 'w2'].map((tag) =>
    runMemoryWorker(
      { memoryDir: repo, description: `worker ${tag}` },
      async (ctx) => {
        for (let i = 0; i < 5; i++) {
          writeFileSync(
            join(ctx.worktreeDir, 'system', `${tag}-${i}.md`),
            `---\ndescription: ${tag}\n---\n${tag} ${i}\n`,
          );
          git(ctx.worktreeDir, ['add', '-A'], env);
          git(ctx.worktreeDir, ['commit', '-q', '-m', `${tag} step ${i}`], env);
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      { git: runner, lease: { timeoutMs: 60_000 } },
    ),
  );
  await Promise.all([...['p0', 'p1', 'p2', 'p3'].map((t) => writer(t, 50)), ...workers]);
  const outcomes = await Promise.all(workers);
  expect(outcomes.map((o) => o.status)).toEqual(['merged', 'merged']);
  const subjects = git(repo, ['log', '--format=%s'], env).split('\n');
  expect(subjects.filter((s) => s.startsWith('write ')).length).toBe(200);
  expect(subjects.filter((s) => s.startsWith('merge(memory): gitmem/worker/')).length).toBe(2);
  expect(subjects.filter((s) => / step \d$/.test(s)).length).toBe(10);
  for (const t of ['p0', 'p1', 'p2', 'p3'])
    for (let i = 0; i < 50; i++) expect(existsSync(join(repo, 'writes', t, `${i}.md`))).toBe(true);
  expect(existsSync(join(repo, 'system', 'w2-4.md'))).toBe(true);
  expect(git(repo, ['status', '--porcelain'], env)).toBe('');
  expect(git(repo, ['fsck', '--strict', '--no-progress'], env)).toBe('');
  expect(git(repo, ['branch', '--list', 'gitmem/*'], env)).toBe('');
}, 120_000);
