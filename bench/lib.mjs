// Shared helpers for benchmarks: temp repos on /dev/shm, timing, stats. Plain JS over the built library.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const execFileP = promisify(execFile);
export const TMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

const made = [];

/** A fresh temp directory; every one is removed by {@link removeTmpDirs} (run.mjs calls it after each section). */
export function tmpDir(prefix) {
  const dir = mkdtempSync(join(TMP_ROOT, prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory tmpDir made (also after a section that failed halfway). */
export function removeTmpDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function benchEnv(home) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: join(home, '.gitconfig-bench'),
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
  };
}

export function gitSync(cwd, args, env) {
  return execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd, env, encoding: 'utf8' }).trim();
}

/** Adds `count` memory files (spread over directories of 100) and commits them in one raw commit. */
export function populate(dir, count, env) {
  for (let i = 0; i < count; i++) {
    const sub = join(dir, 'bulk', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.md`), `---\ndescription: bulk file ${i}\n---\ncontent ${i}\n`);
  }
  gitSync(dir, ['add', '-A'], env);
  gitSync(dir, ['commit', '-q', '--no-verify', '-m', `bulk ${count}`], env);
}

export function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * (s.length - 1) + 0.5))];
  return { median: q(0.5), p95: q(0.95) };
}

export async function timeIt(iterations, fn, warmup = 3) {
  for (let i = 0; i < warmup; i++) await fn(-1 - i);
  const out = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return stats(out);
}

export const round = (x) => Math.round(x * 100) / 100;
