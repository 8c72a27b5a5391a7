import { describe, expect, it } from 'vitest';
import { compilePrompt } from './compile-prompt.js';
import { skillRootLines, type SkillRoot } from './skill-roots.js';

const skill = (folder: string, description = `${folder} things`) => ({ folder, name: folder, description });
const project: SkillRoot = { label: 'project', dir: '/p/.skills', skills: [skill('deploy'), skill('git')] };
const user: SkillRoot = {
  label: 'user',
  dir: '/u/.claude/skills',
  skills: [skill('deploy', 'user deploy'), skill('pdf')],
};

describe('skill roots in the prompt', () => {
  it('groups by root in the order given; a name listed once (memory first, then the earlier root)', () => {
    expect(skillRootLines(['git'], [project, user])).toEqual([
      'From project (/p/.skills):',
      '- deploy: deploy things (/p/.skills/deploy/SKILL.md)',
      'From user (/u/.claude/skills):',
      '- pdf: pdf things (/u/.claude/skills/pdf/SKILL.md)',
    ]);
  });

  it('drops a root whose every skill is shadowed', () => {
    expect(skillRootLines(['deploy', 'git'], [project])).toEqual([]);
  });

  it("compilePrompt lists memory's own skills first under their own header, then the roots", () => {
    const files = [{ path: 'skills/git/SKILL.md', content: '---\nname: git\ndescription: Git tricks\n---\nbody\n' }];
    const text = compilePrompt(files, { skillRoots: [project, user] });
    const block = /<available_skills>\n([\s\S]*?)<\/available_skills>/.exec(text)?.[1] ?? '';
    expect(block.split('\n').filter(Boolean)).toEqual([
      "Read a skill's SKILL.md before doing the task it covers.",
      'From memory:',
      '- git: Git tricks ($MEMORY_DIR/skills/git/SKILL.md)',
      'From project (/p/.skills):',
      '- deploy: deploy things (/p/.skills/deploy/SKILL.md)',
      'From user (/u/.claude/skills):',
      '- pdf: pdf things (/u/.claude/skills/pdf/SKILL.md)',
    ]);
  });

  it('without roots the block is as before (no header); with only roots it lists them', () => {
    const files = [{ path: 'skills/git/SKILL.md', content: '---\nname: git\ndescription: Git tricks\n---\nbody\n' }];
    expect(compilePrompt(files, { skillRoots: [] })).toBe(compilePrompt(files));
    expect(compilePrompt(files)).not.toContain('From memory:');
    expect(compilePrompt([], { skillRoots: [user] })).toContain('<available_skills>\nRead a skill');
    expect(compilePrompt([], { skillRoots: [user] })).not.toContain('From memory:');
  });
});
