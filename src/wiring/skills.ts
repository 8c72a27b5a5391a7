/**
 * The skill roots outside memory for one configuration: the project's (when a project directory is given),
 * the config file's `skills.roots` and the user's `~/.claude/skills`, scanned by read/skill-roots.ts.
 */
import type { GitmemConfig } from '../config.js';
import { scanSkillRoots, skillRootSpecs, type SkillRootProblem } from '../read/skill-roots.js';
import type { SkillRoot } from '../blocks/skill-roots.js';

/**
 * The roots with their sound skills, and every problem met (never thrown: a broken config file or skill
 * leaves the prompt as it would be without it).
 * @example skillRootsOf(config, process.cwd()).roots
 */
export function skillRootsOf(
  config: GitmemConfig,
  projectDir: string | undefined,
): { roots: SkillRoot[]; problems: SkillRootProblem[] } {
  let configured: unknown;
  try {
    const skills = config.file()['skills'];
    configured =
      typeof skills === 'object' && skills !== null ? (skills as Record<string, unknown>)['roots'] : undefined;
  } catch {
    configured = undefined; // a broken config file is `gitmem doctor`'s (config check) to report
  }
  const userHome = config.env['HOME']?.trim() || undefined;
  return scanSkillRoots(
    skillRootSpecs({
      ...(projectDir !== undefined ? { projectDir } : {}),
      ...(userHome !== undefined ? { userHome } : {}),
      configured,
    }),
  );
}

/**
 * Prompt options with the skill roots filled in from `projectDir` and the configuration (`skillRoots: false`:
 * none), those two keys taken out.
 * @example withSkillRoots(config, { mode: 'memfs', projectDir: '/p' }) // { mode: 'memfs', skillRoots: [...] }
 */
export function withSkillRoots<T extends { projectDir?: string; skillRoots?: boolean }>(
  config: GitmemConfig,
  opts: T,
): Omit<T, 'projectDir' | 'skillRoots'> & { skillRoots?: SkillRoot[] } {
  const { projectDir, skillRoots, ...rest } = opts;
  const roots = skillRoots === false ? [] : skillRootsOf(config, projectDir).roots;
  return { ...rest, ...(roots.length > 0 ? { skillRoots: roots } : {}) };
}
