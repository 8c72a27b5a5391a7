/**
 * Installs gitmem's hooks into a memory repository and repairs them when missing or stale. Hooks live in
 * the common git dir, so worktrees of background writers run the same checks.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../assets.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import type { GitRunner } from '../git/runner.js';
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
  /** Hooks that were (re)written. */
  repaired: string[];
}

function writeIfStale(dir: string, name: string, text: string, repaired: string[]): void {
  const file = join(dir, name);
  const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (current === text) return;
  writeFileSync(file, text, { mode: 0o755 });
  chmodSync(file, 0o755);
  repaired.push(name);
}

/**
 * Writes the pre-commit and post-commit hooks when missing or different, and pins `core.hooksPath` so a
 * global hooks path cannot switch them off. Cheap when everything is current (two reads, no spawn).
 * @example const { repaired } = await ensureHooks(git, '/home/me/.gitmem/agents/a/memory')
 */
export async function ensureHooks(git: GitRunner, repoDir: string): Promise<HookState> {
  const gitDir = resolveGitCommonDir(repoDir);
  const hooksDir = join(gitDir, 'hooks');
  mkdirSync(hooksDir, { recursive: true });
  const repaired: string[] = [];
  writeIfStale(hooksDir, 'pre-commit', preCommitScript(), repaired);
  writeIfStale(hooksDir, 'post-commit', postCommitScript(), repaired);
  const config = readFileSync(join(gitDir, 'config'), 'utf8');
  const pinned = config.split('\n').some((l) => l.trim() === `hooksPath = ${hooksDir}`);
  if (!pinned) {
    await git.run(['config', 'core.hooksPath', hooksDir], { cwd: repoDir });
    repaired.push('core.hooksPath');
  }
  return { repaired };
}
