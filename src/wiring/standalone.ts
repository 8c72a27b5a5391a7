/**
 * The front door's calls that open no handle: list the agents and personalities, run the pre-commit check,
 * locate a memory, run the doctor, tell the version. Each reads the configuration itself; memory.ts
 * re-exports them beside createMemory.
 */
import type { Problem } from '../blocks/validate.js';
import { hookHome, loadConfig } from '../config.js';
import type { DoctorReport } from '../doctor/doctor.js';
import { findPreCommitProblems, runPreCommit } from '../hooks/pre-commit.js';
import { listHomeAgents } from '../memfs/scope.js';
import { locateMemory, runnerFor } from './open.js';
import type { MemoryOptions } from './types.js';

/**
 * The agents that have a memory repository under `home` (default: the configured home), sorted by id;
 * HOME_UNUSABLE when it is not a directory.
 * @example listAgents('/tmp/gm') // [{ agentId: 'a1', memoryDir: '/tmp/gm/agents/a1/memory' }]
 */
export function listAgents(home?: string): Array<{ agentId: string; memoryDir: string }> {
  return listHomeAgents(home ?? loadConfig().home);
}

/**
 * The personality presets `initMemory({ personality })` and `memory.applyPersonality` take (loaded on demand).
 * @example (await listPersonalities()).map((p) => p.id) // ['memo', 'blank', 'tutor', 'stern', 'cheerful']
 */
export async function listPersonalities(): Promise<Array<{ id: string; label: string; summary: string }>> {
  return (await import('../blocks/personalities.js')).listPersonalities();
}

/**
 * Runs the pre-commit rules on the staged snapshot of the repository at `cwd` (what the hook does); returns
 * the problems, none when the commit may go ahead.
 * @example await runPreCommitCheck(process.cwd()) // [] or ['notes/a.md: read_only may not change', …]
 */
export async function runPreCommitCheck(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<string[]> {
  return runPreCommit(runnerFor(loadConfig({ env, cwd }), {}), cwd, hookHome(env, cwd));
}

/**
 * The same check as {@link runPreCommitCheck}, as problems (each with its code, line, rule).
 * @example (await preCommitProblems(process.cwd())).map(formatProblem)
 */
export async function preCommitProblems(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<Problem[]> {
  return findPreCommitProblems(runnerFor(loadConfig({ env, cwd }), {}), cwd, hookHome(env, cwd));
}

/**
 * Which agent and memory directory the default-agent rule picks, checked to be a repository, without opening
 * it (no hooks repaired, no git process): HOME_UNUSABLE, MEMORY_DIR_MISSING or NOT_A_GIT_REPO otherwise.
 * @example openMemoryDir({ home: '/tmp/gm' }).agentId // the home's only agent
 */
export function openMemoryDir(options: Pick<MemoryOptions, 'home' | 'agentId' | 'env'> = {}): {
  memoryDir: string;
  agentId: string | undefined;
  home: string;
} {
  const config = loadConfig({ env: options.env, home: options.home });
  return { ...locateMemory(config, options.agentId), home: config.home };
}

/**
 * `gitmem doctor` on an agent's memory, wired from the configuration. Not through createMemory: opening
 * repairs the hooks, and the doctor must see them as they are.
 * @example const r = await runMemoryDoctor({ home: '/tmp/gm', fix: true }); r.healthy
 */
export async function runMemoryDoctor(
  options: Pick<MemoryOptions, 'home' | 'agentId' | 'env' | 'launch'> & { fix?: boolean } = {},
): Promise<DoctorReport> {
  const config = loadConfig({ env: options.env, home: options.home });
  const { memoryDir } = locateMemory(config, options.agentId);
  const git = runnerFor(config, { launch: options.launch });
  const { runDoctor } = await import('../doctor/doctor.js');
  return runDoctor({
    git,
    memoryDir,
    home: config.home,
    env: config.env,
    credentials: () => config.credentials(),
    fix: options.fix === true,
  });
}

/** The version of this gitmem package. */
export async function gitmemVersion(): Promise<string> {
  const [{ readFileSync }, { join }, { packageRoot }] = await Promise.all([
    import('node:fs'),
    import('node:path'),
    import('../assets.js'),
  ]);
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
