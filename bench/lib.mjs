// Shared helpers for benchmarks: temp repos on /dev/shm, timing, stats. Plain JS over the built library.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createShellLauncher } from '../dist/internals.js';

export const TMP_ROOT = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

let launcher;

/**
 * `execFile` as a promise ({ stdout, stderr }; rejects with `code` on a non-zero exit), started through a shell
 * launcher as gitmem starts its own git: a floor forked from this process would pay for its heap, which grows
 * section after section (measured: a raw `git add && git commit` 17 ms alone, 40 ms late in a full run).
 */
export function execFileP(cmd, args, o = {}) {
  launcher ??= createShellLauncher({ scratchParent: TMP_ROOT });
  const env = Object.fromEntries(Object.entries(o.env ?? process.env).filter(([, v]) => v !== undefined));
  return launcher
    .launch(cmd, args, { cwd: o.cwd ?? process.cwd(), env, maxBuffer: o.maxBuffer, input: o.input })
    .then((r) => {
      if (r.spawnError) throw r.spawnError;
      if (r.exitCode === 0) return { stdout: r.stdout, stderr: r.stderr };
      throw Object.assign(new Error(`${cmd} ${args.join(' ')} exited ${r.exitCode ?? r.signal}: ${r.stderr.trim()}`), {
        code: r.exitCode,
        stdout: r.stdout,
        stderr: r.stderr,
      });
    });
}

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

/**
 * The environment a user's process really has (started from bash: `_` and whatever else is set), with the
 * home and git's configuration made hermetic. Never a scrubbed one: a launcher that falls back to a plain
 * spawn for some variable name would otherwise go unseen here.
 */
export function benchEnv(home) {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k, v]) => v !== undefined && !k.startsWith('GITMEM_') && !k.startsWith('GIT_'),
    ),
  );
  return {
    ...inherited,
    _: process.env._ ?? process.execPath, // bash sets it in every program it starts
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
  // Packed, as a long-lived memory is, and before anything is timed: else from ~6,700 loose objects the commit
  // leaves git's detached `gc --auto` repacking them while a section's writes run (measured +8-13 ms a write).
  gitSync(dir, ['-c', 'gc.auto=0', 'commit', '-q', '--no-verify', '-m', `bulk ${count}`], env);
  gitSync(dir, ['gc', '--quiet'], env);
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

/**
 * `pairs` interleaved pairs (floor first on even i, ours first on odd i) after `warmup` ones; `prepare(i)` runs
 * untimed before each of our side's calls. The ratio (delta) is the median of the per-pair ratios (differences).
 */
export async function interleavedPairs(pairs, floor, ours, { warmup = 2, prepare = async () => {} } = {}) {
  const f = [];
  const o = [];
  const ratios = [];
  const deltas = [];
  const time = async (fn, i) => {
    const t0 = performance.now();
    await fn(i);
    return performance.now() - t0;
  };
  const timeOurs = async (i) => (await prepare(i), time(ours, i));
  for (let i = -warmup; i < pairs; i++) {
    let a;
    let b;
    if (i % 2 === 0) [a, b] = [await time(floor, i), await timeOurs(i)];
    else [b, a] = [await timeOurs(i), await time(floor, i)];
    if (i < 0) continue;
    f.push(a);
    o.push(b);
    ratios.push(b / a);
    deltas.push(b - a);
  }
  return { floor: stats(f), ours: stats(o), ratio: stats(ratios).median, delta: stats(deltas).median };
}

/**
 * A repository of `count` memory files (system/ blocks, a skill, bulk notes in directories of 100) made with
 * one `git fast-import` (fast even at 50,000 files; objects packed, no checkout).
 */
export function fastImportRepo(dir, count, env) {
  mkdirSync(dir, { recursive: true });
  gitSync(dir, ['init', '-q', '-b', 'main'], env);
  const files = [
    ['system/persona.md', '---\ndescription: who I am\n---\nI help with benchmarks.\n'],
    ['system/human.md', '---\ndescription: the user\n---\nLikes numbers.\n'],
    ['skills/bench/SKILL.md', '---\nname: bench\ndescription: measures things\n---\nSteps.\n'],
  ];
  for (let i = 0; i < count; i++)
    files.push([`bulk/d${Math.floor(i / 100)}/f${i}.md`, `---\ndescription: bulk file ${i}\n---\ncontent ${i}\n`]);
  const parts = files.map(([, text], i) => `blob\nmark :${i + 1}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  parts.push('commit refs/heads/main\ncommitter bench <bench@example.com> 1700000000 +0000\ndata 5\nbulk\n');
  files.forEach(([path], i) => parts.push(`M 100644 :${i + 1} ${path}\n`));
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input: `${parts.join('')}\n` });
}

/** One more commit on main changing one file (fast-import, so no checkout is needed). */
export function fastImportEdit(dir, path, text, env) {
  const head = gitSync(dir, ['rev-parse', 'HEAD'], env);
  const input = `commit refs/heads/main\ncommitter bench <bench@example.com> 1700000001 +0000\ndata 4\nedit\nfrom ${head}\nM 100644 inline ${path}\ndata ${Buffer.byteLength(text)}\n${text}\n\n`;
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, env, input });
}
