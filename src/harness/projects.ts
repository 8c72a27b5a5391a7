/**
 * Which agent a project's harness sessions use: `projects["<git root>"]` in `$GITMEM_HOME/config`,
 * written by `gitmem connect --agent`. The hooks ask on every session, so the git root is found by
 * walking up for `.git` (a directory, or a worktree's file) rather than by starting git.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { readGitmemConfig } from '../internals.js';

/** `dir` with symbolic links resolved (as the harness reports its cwd), else as given. */
function real(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return resolve(dir);
  }
}

/**
 * The git root holding `cwd` (the nearest directory with a `.git`), or undefined outside any repository.
 * @example findProjectRoot('/home/me/src/app/lib') // '/home/me/src/app'
 */
export function findProjectRoot(cwd: string): string | undefined {
  for (let dir = real(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/** The project root connect uses for `cwd`: its git root, else the directory itself. */
export function projectRootOf(cwd: string): string {
  return findProjectRoot(cwd) ?? real(cwd);
}

/**
 * The agent for a harness session in `cwd`: `explicit` when given, else the agent mapped to the cwd's
 * git root in the config, else undefined (the usual default-agent rule applies).
 * @example agentForProject('/home/me/.gitmem', '/home/me/src/app') // 'work'
 */
export function agentForProject(home: string, cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined && explicit.trim() !== '') return explicit;
  const root = findProjectRoot(cwd);
  if (root === undefined) return undefined;
  const projects = readGitmemConfig(home).projects;
  return projects !== undefined && Object.hasOwn(projects, root) ? projects[root] : undefined;
}
