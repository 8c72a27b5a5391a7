/**
 * Skills from outside the memory repository, as data (pure): the roots a caller scanned (read/skill-roots.ts)
 * rendered into the prompt's `<available_skills>` block, grouped by root after memory's own, a name listed
 * once: memory's own skill wins, then the roots in the order given (project, configured, user).
 */
/** One scanned root: a label (`project`, `user`, `configured`), its directory as shown, and its valid skills. */
export interface SkillRoot {
  label: string;
  dir: string;
  skills: readonly SkillRootEntry[];
}

/** A skill of a root: its folder name under the root, display name and one-line description (compile-prompt's Skill). */
export interface SkillRootEntry {
  folder: string;
  name: string;
  description: string;
}

/**
 * The lines of the extra roots: a header per root that still lists something, then its skills by path; a
 * skill whose name is already listed (memory's own or an earlier root's) is left out.
 * @example skillRootLines(['git'], [{ label: 'user', dir: '/u/.claude/skills', skills: [{ folder: 'pdf', name: 'pdf', description: 'PDFs' }] }])
 *   // ['From user (/u/.claude/skills):', '- pdf: PDFs (/u/.claude/skills/pdf/SKILL.md)']
 */
export function skillRootLines(ownNames: readonly string[], roots: readonly SkillRoot[]): string[] {
  const seen = new Set(ownNames);
  const out: string[] = [];
  for (const root of roots) {
    const lines: string[] = [];
    for (const s of root.skills) {
      if (seen.has(s.name)) continue;
      seen.add(s.name);
      lines.push(`- ${s.name}: ${s.description} (${root.dir}/${s.folder}/SKILL.md)`);
    }
    if (lines.length > 0) out.push(`From ${root.label} (${root.dir}):`, ...lines);
  }
  return out;
}
