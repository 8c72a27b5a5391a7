/**
 * Installs gitmem's hooks into a memory repository and repairs them when missing or stale. Hooks live in
 * the common git dir, so worktrees of background writers run the same checks.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../assets.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
import { pinHooksPath } from './hooks-path.js';
import { postCommitScript } from './post-commit.js';


/** Absolute path of the hook entry in the built package. */
export function preCommitEntry(): string {
  // Prefer the bundled entry (one file to load: the hook runs on every raw commit).
  const bundled = join(packageRoot(), 'dist', 'bin', 'pre-commit.cjs');
  return existsSync(bundled) ? bundled : join(packageRoot(), 'dist', 'hooks', 'pre-commit-main.js');
}

/** Shell text of the pre-commit hook for this installation of gitmem. */
export function preCommitScript(nodePath: string = process.execPath, entry: string = preCommitEntry()): string {
  const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  return [
    '#!/bin/sh',
    '# gitmem pre-commit hook: enforces the memory format and read_only protection on every commit.',
    '# Managed by gitmem; rewritten when stale, so local edits are lost.',
    `NODE=${q(nodePath)}`,
    '[ -x "$NODE" ] || NODE=node',
    `exec "$NODE" ${q(entry)} "$@"`,
    '',
  ].join('\n');
}

export interface HookState {
  /**
   * What was repaired: `pre-commit` / `post-commit` (missing, not a regular file, or stale text),
   * `pre-commit (mode)` / `post-commit (mode)` (not 0755), `core.hooksPath` (not the one effective value).
   */
  repaired: string[];
}

function writeIfStale(dir: string, name: string, text: string, repaired: string[]): void {
  const file = join(dir, name);
  let st: Stats | null = null;
  try {
    st = lstatSync(file);
  } catch {
    // missing: written below
  }
  if (st !== null && !st.isFile()) rmSync(file, { recursive: true, force: true }); // a link or directory in its place
  const current = st?.isFile() ? readFileSync(file, 'utf8') : null;
  if (current !== text) {
    writeFileSync(file, text, { mode: 0o755 });
    chmodSync(file, 0o755);
    repaired.push(name);
  } else if (((st?.mode ?? 0) & 0o7777) !== 0o755) {
    chmodSync(file, 0o755); // `chmod 644` makes git skip a hook silently
    repaired.push(`${name} (mode)`);
  }
}

/**
 * Writes the pre-commit and post-commit hooks when missing, different or not executable, and makes
 * `core.hooksPath` name them as the one effective value (a global hooks path, a second value or an included
 * file cannot switch them off). Cheap when everything is current: file reads and two stats, no process.
 * @example const { repaired } = await ensureHooks(git, '/home/me/.gitmem/agents/a/memory')
 */
export async function ensureHooks(git: GitRunner, repoDir: string): Promise<HookState> {
  const gitDir = resolveGitCommonDir(repoDir);
  const hooksDir = join(gitDir, 'hooks');
  mkdirSync(hooksDir, { recursive: true });
  const repaired: string[] = [];
  writeIfStale(hooksDir, 'pre-commit', preCommitScript(), repaired);
  writeIfStale(hooksDir, 'post-commit', postCommitScript(), repaired);
  if (await pinHooksPath(git, repoDir, gitDir, hooksDir)) repaired.push('core.hooksPath');
  return { repaired };
}
