/**
 * Skills outside memory (read/skill-roots.ts): the project's `.skills/` and `.claude/skills/` (of the
 * directory doctor runs in), the config file's `skills.roots` and the user's `~/.claude/skills`. What the
 * prompt leaves out — an unreadable root, a folder linking out of its root, a huge or malformed SKILL.md, a
 * name with control characters, a name shadowed by an earlier root — is named here. Nothing to repair.
 */
import { readGitmemConfig } from '../llm/config.js';
import { scanSkillRoots, skillRootSpecs } from '../read/skill-roots.js';
import { capped, ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

function configuredRoots(home: string): unknown {
  try {
    const skills = readGitmemConfig(home)['skills'];
    return typeof skills === 'object' && skills !== null ? (skills as Record<string, unknown>)['roots'] : undefined;
  } catch {
    return undefined; // a broken config file fails every command that reads it, with its own message
  }
}

function scan(ctx: DoctorContext): ReturnType<typeof scanSkillRoots> {
  const userHome = ctx.env['HOME']?.trim() || undefined;
  // The project is where doctor runs, as for `gitmem prompt` (the CLI runs doctor in the caller's directory).
  return scanSkillRoots(
    skillRootSpecs({
      projectDir: process.cwd(),
      ...(userHome !== undefined ? { userHome } : {}),
      configured: configuredRoots(ctx.home),
    }),
  );
}

export const skillsCheck: DoctorCheck = {
  title: 'skills outside memory (project, configured, user roots)',
  async run(ctx) {
    const { roots, problems } = scan(ctx);
    const seen = new Map<string, string>();
    const shadowed: string[] = [];
    for (const root of roots)
      for (const s of root.skills) {
        const first = seen.get(s.name);
        if (first === undefined) seen.set(s.name, root.dir);
        else
          shadowed.push(`${root.dir}/${s.folder}/SKILL.md: name ${s.name} is listed from ${first} (an earlier root)`);
      }
    const count = roots.reduce((n, r) => n + r.skills.length, 0);
    if (problems.length > 0) {
      const lines = problems.map((p) => `${p.path}: ${p.problem}`);
      return problem(
        `${problems.length} skill(s) or root(s) left out of the prompt: ${lines[0]}${lines.length > 1 ? ' …' : ''}`,
        capped([...lines, ...shadowed]),
      );
    }
    if (count === 0) return ok('no skill roots outside memory');
    return ok(`${count} skill(s) in ${roots.length} root(s) outside memory`, capped(shadowed));
  },
};
