/**
 * The prompt's block for attached shared memory repositories (sync/shared.ts): each repository's `system/`
 * files in their own `<shared_memory>` element naming it and its access, then its skills, listed after the
 * agent's own. Pure: the caller reads the committed files of each attached checkout and passes them in, so
 * the agent's own prompt (compile-prompt.ts) is left as it is and this text follows it.
 */
import { summarizeMarkdown } from './file-summary.js';
import { parseBlock, parseSkill, type Skill } from './compile-prompt.js';

/** One attached repository as the prompt needs it: its committed `system/` and `skills/*\/SKILL.md` files. */
export interface SharedPromptRepo {
  name: string;
  readOnly: boolean;
  /** The checkout's HEAD commit, or null before its first commit. */
  revision: string | null;
  files: ReadonlyArray<{ path: string; content: string }>;
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The shared repositories' text for the prompt, or '' when none is attached.
 * @example sharedPromptText([{ name: 'team', readOnly: true, revision: 'abc', files }], '$MEMORY_DIR/')
 */
export function sharedPromptText(repos: readonly SharedPromptRepo[], prefix: string): string {
  if (repos.length === 0) return '';
  const sections: string[] = [];
  const skills: Array<Skill & { repo: string }> = [];
  for (const repo of [...repos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const access = repo.readOnly ? 'read-only' : 'read-write';
    const root = `shared/${repo.name}/`;
    const lines = [
      `<shared_memory repository="${attr(repo.name)}" access="${access}"${repo.revision ? ` revision="${repo.revision}"` : ''}>`,
      repo.readOnly
        ? `Shared memory repository ${repo.name}, attached read-only: read it under ${prefix}${root}; it cannot be written from here.`
        : `Shared memory repository ${repo.name}, shared with other agents: read and write it under ${prefix}${root} with the memory tool (each write is one commit in that repository).`,
    ];
    for (const f of [...repo.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
      const folder = /^skills\/([^/]+)\/SKILL\.md$/.exec(f.path)?.[1];
      if (folder !== undefined) {
        skills.push({ ...parseSkill(folder, summarizeMarkdown(f.content)), repo: repo.name });
        continue;
      }
      if (!f.path.startsWith('system/') || !f.path.endsWith('.md')) continue;
      const b = parseBlock(f.path, f.content);
      const note = b.error === undefined ? '' : ` error="${attr(b.error)}"`;
      lines.push(`<block path="${attr(prefix + root + b.path)}" description="${attr(b.description)}"${note}>`);
      lines.push(b.body, '</block>');
    }
    lines.push('</shared_memory>');
    sections.push(lines.join('\n'));
  }
  if (skills.length > 0)
    sections.push(
      [
        '<available_shared_skills>',
        ...skills.map((s) => `- ${s.name}: ${s.description} (${prefix}shared/${s.repo}/skills/${s.folder}/SKILL.md)`),
        '</available_shared_skills>',
      ].join('\n'),
    );
  return sections.join('\n\n');
}
