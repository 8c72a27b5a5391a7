/**
 * Skill roots outside memory on a real disk: the prompt lists a project's, a configured and a user's skills
 * grouped by root after memory's own, a name once; hostile roots (links out, a huge SKILL.md, bad frontmatter,
 * control characters, a link loop) are left out of the prompt and named by `gitmem doctor`, never fatal.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemory, initMemory } from '../../../src/memory.js';
import { MAX_SKILL_FILE_BYTES, scanSkillRoots, skillRootSpecs } from '../../../src/read/skill-roots.js';
import { runGitmem } from '../../helpers/cli.js';
import { cleanupTmp, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let root: string;
let home: string;
let project: string;
let user: string;
let configured: string;
let outside: string;
let env: Record<string, string>;

function skill(dir: string, folder: string, front: string, body = 'steps\n'): void {
  mkdirSync(join(dir, folder), { recursive: true });
  writeFileSync(join(dir, folder, 'SKILL.md'), `---\n${front}\n---\n${body}`);
}

async function setup(): Promise<void> {
  root = makeTmpDir('gitmem-skill-roots-');
  home = join(root, 'home');
  project = join(root, 'project');
  user = join(root, 'user');
  configured = join(root, 'team-skills');
  outside = join(root, 'outside');
  env = { ...hermeticGitEnv(root), HOME: user, GITMEM_HOME: home, GITMEM_DAEMON: '0' };
  await initMemory({ home, agentId: 'a1', env });
  const memory = await createMemory({ home, agentId: 'a1', env });
  await memory.tool({
    command: 'create',
    file_path: 'skills/git/SKILL.md',
    description: 'Git tricks from memory',
    file_text: 'steps\n',
    reason: 'a skill',
  });
  const dotSkills = join(project, '.skills');
  skill(dotSkills, 'deploy', 'name: deploy\ndescription: Deploy the project');
  skill(dotSkills, 'git', 'name: git\ndescription: project git (shadowed by memory)');
  skill(join(project, '.claude', 'skills'), 'lint', 'name: lint\ndescription: Lint it');
  skill(configured, 'review', 'name: review\ndescription: Team review');
  skill(join(user, '.claude', 'skills'), 'deploy', 'name: deploy\ndescription: user deploy (shadowed)');
  skill(join(user, '.claude', 'skills'), 'pdf', 'name: pdf\ndescription: Read PDFs');
  // hostile ones, all in the project's .skills
  skill(outside, 'escape', 'name: escape\ndescription: SECRET-OUTSIDE');
  symlinkSync(join(outside, 'escape'), join(dotSkills, 'escape'));
  mkdirSync(join(dotSkills, 'filelink'));
  symlinkSync(join(outside, 'escape', 'SKILL.md'), join(dotSkills, 'filelink', 'SKILL.md'));
  skill(dotSkills, 'huge', 'name: huge\ndescription: HUGE', 'x'.repeat(MAX_SKILL_FILE_BYTES + 10));
  skill(dotSkills, 'broken', 'name: [unclosed\ndescription: BROKEN');
  skill(dotSkills, 'nodesc', 'name: nodesc');
  skill(dotSkills, 'ctrl', 'name: "evil\\u001b[31mname"\ndescription: CONTROL');
  symlinkSync('loop', join(dotSkills, 'loop'));
  mkdirSync(join(dotSkills, 'bad\u0007name'));
  writeFileSync(join(home, 'config'), JSON.stringify({ skills: { roots: [configured, 'relative/not-ok'] } }));
}

describe('skill roots outside memory', () => {
  beforeAll(setup);
  afterAll(cleanupTmp);

  it('the prompt lists them grouped by root after memory, a name once, hostile ones left out', async () => {
    const memory = await createMemory({ home, agentId: 'a1', env });
    const text = await memory.compilePrompt({ projectDir: project });
    const block = /<available_skills>\n([\s\S]*?)<\/available_skills>/.exec(text)?.[1] ?? '';
    expect(block.split('\n').filter((l) => l.startsWith('From ') || l.startsWith('- '))).toEqual([
      'From memory:',
      '- git: Git tricks from memory ($MEMORY_DIR/skills/git/SKILL.md)',
      `From project (${project}/.skills):`,
      `- deploy: Deploy the project (${project}/.skills/deploy/SKILL.md)`,
      `From project (${project}/.claude/skills):`,
      `- lint: Lint it (${project}/.claude/skills/lint/SKILL.md)`,
      `From configured (${configured}):`,
      `- review: Team review (${configured}/review/SKILL.md)`,
      `From user (${user}/.claude/skills):`,
      `- pdf: Read PDFs (${user}/.claude/skills/pdf/SKILL.md)`,
    ]);
    for (const hidden of ['SECRET-OUTSIDE', 'HUGE', 'BROKEN', 'CONTROL', 'shadowed', '\u001b'])
      expect(text).not.toContain(hidden);
    const own = await memory.compilePrompt({ projectDir: project, skillRoots: false });
    expect(own).not.toContain('From ');
    expect(own).toContain('- git: Git tricks from memory');
  });

  it('the scanner names every problem and never throws', () => {
    const { problems } = scanSkillRoots(
      skillRootSpecs({ projectDir: project, userHome: user, configured: [configured, 'relative/not-ok'] }),
    );
    const text = problems.map((p) => `${p.path}: ${p.problem}`).join('\n');
    expect(text).toContain('escape: links out of its skill root');
    expect(text).toContain('filelink/SKILL.md: SKILL.md links out of its skill root');
    expect(text).toMatch(/huge\/SKILL\.md: SKILL\.md is \d+ bytes/);
    expect(text).toContain('broken/SKILL.md: bad frontmatter');
    expect(text).toContain('nodesc/SKILL.md: no description');
    expect(text).toContain('ctrl/SKILL.md: name has control characters');
    expect(text).toContain('loop: unreadable (ELOOP)');
    expect(text).toContain('folder name is not a plain skill name');
    expect(text).toContain('config skills.roots: "relative/not-ok" is not an absolute directory');
    expect(scanSkillRoots(skillRootSpecs({ configured: 'not-a-list' })).problems).toEqual([
      { path: 'config skills.roots', problem: 'must be a list of directories' },
    ]);
  });

  it('gitmem doctor reports them (the skills check), and gitmem prompt still compiles from the project', () => {
    const r = runGitmem(env, ['doctor', '--json', '--agent', 'a1'], { cwd: project });
    const report = JSON.parse(r.stdout) as { checks: Array<{ check: string; status: string; details?: string[] }> };
    const skills = report.checks.find((c) => c.check === 'skills');
    expect(skills?.status).toBe('problem');
    const details = (skills?.details ?? []).join('\n');
    for (const what of ['links out of its skill root', 'bad frontmatter', 'control characters', 'bytes (over'])
      expect(details).toContain(what);
    expect(details).toContain('name deploy is listed from');
    const prompt = runGitmem(env, ['prompt', '--agent', 'a1'], { cwd: project });
    expect(prompt.code).toBe(0);
    expect(prompt.stdout).toContain(`- deploy: Deploy the project (${project}/.skills/deploy/SKILL.md)`);
  });
});
