/**
 * Finds the skills that live outside the memory repository: a project's `.skills/` and `.claude/skills/`,
 * the roots the config file names (`"skills": { "roots": [...] }`) and the user's `~/.claude/skills`, in that
 * order (which is also the order a duplicate name is resolved in, after memory's own skills). Every problem
 * (an unreadable root, a folder linking out of its root, a huge or malformed SKILL.md, a name with control
 * characters) is reported, never thrown: the prompt lists what is sound, `gitmem doctor` names the rest.
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { summarizeMarkdown } from '../blocks/file-summary.js';
import type { SkillRoot, SkillRootEntry } from '../blocks/skill-roots.js';

/** A root to scan: its label in the prompt and its directory. */
export interface SkillRootSpec {
  label: string;
  dir: string;
}

/** What is wrong with a root or one of its skills. */
export interface SkillRootProblem {
  /** The root's directory, or the skill's SKILL.md. */
  path: string;
  problem: string;
}

/** Where to look. */
export interface SkillRootInputs {
  /** The project directory (the caller's), whose `.skills/` and `.claude/skills/` are read. */
  projectDir?: string;
  /** The user's home, whose `.claude/skills/` is read. */
  userHome?: string;
  /** The config file's `skills.roots` as found (checked here). */
  configured?: unknown;
}

/** A SKILL.md larger than this is not read (its frontmatter sits at the top; a huge one is a mistake or hostile). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
/** Entries looked at per root, and skills listed per root. */
export const MAX_ROOT_ENTRIES = 1000;
export const MAX_ROOT_SKILLS = 200;
const SAFE_FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
// eslint-disable-next-line no-control-regex -- the point: control characters are refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// eslint-disable-next-line no-control-regex -- a description's stray control characters become spaces
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * The roots to scan, in the stated order: project `.skills`, project `.claude/skills`, configured, user.
 * @example skillRootSpecs({ projectDir: '/p', userHome: '/u' }).problems // []
 */
export function skillRootSpecs(i: SkillRootInputs): { specs: SkillRootSpec[]; problems: SkillRootProblem[] } {
  const specs: SkillRootSpec[] = [];
  const problems: SkillRootProblem[] = [];
  if (i.projectDir !== undefined) {
    specs.push({ label: 'project', dir: join(i.projectDir, '.skills') });
    specs.push({ label: 'project', dir: join(i.projectDir, '.claude', 'skills') });
  }
  const configured = i.configured;
  if (configured !== undefined && !Array.isArray(configured)) {
    problems.push({ path: 'config skills.roots', problem: 'must be a list of directories' });
  }
  for (const entry of Array.isArray(configured) ? configured : []) {
    const dir =
      typeof entry === 'string' && i.userHome && entry.startsWith('~/') ? join(i.userHome, entry.slice(2)) : entry;
    if (typeof dir !== 'string' || !isAbsolute(dir) || dir.includes('\0') || CONTROL.test(dir)) {
      problems.push({ path: 'config skills.roots', problem: `${JSON.stringify(entry)} is not an absolute directory` });
      continue;
    }
    specs.push({ label: 'configured', dir: resolve(dir) });
  }
  if (i.userHome !== undefined) specs.push({ label: 'user', dir: join(i.userHome, '.claude', 'skills') });
  const seen = new Set<string>();
  return { specs: specs.filter((s) => !seen.has(s.dir) && (seen.add(s.dir), true)), problems };
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
}

/** The first bytes of a regular file, or why it cannot be read. */
function readHead(path: string): { text: string } | { problem: string } {
  const st = statSync(path);
  if (!st.isFile()) return { problem: 'SKILL.md is not a regular file' };
  if (st.size > MAX_SKILL_FILE_BYTES) return { problem: `SKILL.md is ${st.size} bytes (over ${MAX_SKILL_FILE_BYTES})` };
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(st.size, MAX_SKILL_FILE_BYTES));
    const n = readSync(fd, buf, 0, buf.length, 0);
    return { text: buf.subarray(0, n).toString('utf8') };
  } finally {
    closeSync(fd);
  }
}

/** One folder of a root: a listed skill, or a problem (nothing when it holds no SKILL.md). */
function scanFolder(realRoot: string, root: string, name: string): SkillRootEntry | SkillRootProblem | undefined {
  const folder = join(root, name);
  if (!SAFE_FOLDER.test(name)) return { path: folder, problem: 'folder name is not a plain skill name' };
  const real = realpathSync(folder);
  if (!within(realRoot, real)) return { path: folder, problem: 'links out of its skill root' };
  if (!lstatSync(real).isDirectory()) return undefined;
  const file = join(real, 'SKILL.md');
  let realFile: string;
  try {
    realFile = realpathSync(file);
  } catch {
    return undefined; // a folder without SKILL.md is not a skill
  }
  if (!within(realRoot, realFile))
    return { path: join(folder, 'SKILL.md'), problem: 'SKILL.md links out of its skill root' };
  const head = readHead(realFile);
  if ('problem' in head) return { path: join(folder, 'SKILL.md'), problem: head.problem };
  const summary = summarizeMarkdown(head.text);
  if (summary.error !== undefined)
    return { path: join(folder, 'SKILL.md'), problem: `bad frontmatter: ${summary.error}` };
  if (summary.description === '')
    return { path: join(folder, 'SKILL.md'), problem: 'no description in its frontmatter' };
  const display = summary.name ?? name;
  if (CONTROL.test(display) || display.length > 128)
    return { path: join(folder, 'SKILL.md'), problem: 'name has control characters or is too long' };
  const plain = summary.description.replace(CONTROLS, ' ');
  const description = plain.length > 300 ? `${plain.slice(0, 299)}…` : plain;
  return { folder: name, name: display, description };
}

/** One root: its skills by folder name, and its problems. A missing root is no problem (most are absent). */
function scanRoot(spec: SkillRootSpec): { root?: SkillRoot; problems: SkillRootProblem[] } {
  let realRoot: string;
  let names: string[];
  try {
    realRoot = realpathSync(spec.dir);
    names = readdirSync(realRoot).sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { problems: [] };
    return { problems: [{ path: spec.dir, problem: `unreadable skill root (${code ?? 'error'})` }] };
  }
  const problems: SkillRootProblem[] = [];
  if (names.length > MAX_ROOT_ENTRIES) {
    problems.push({ path: spec.dir, problem: `${names.length} entries: only the first ${MAX_ROOT_ENTRIES} are read` });
    names = names.slice(0, MAX_ROOT_ENTRIES);
  }
  const skills: SkillRootEntry[] = [];
  for (const name of names) {
    let found: SkillRootEntry | SkillRootProblem | undefined;
    try {
      found = scanFolder(realRoot, spec.dir, name);
    } catch (err) {
      found = { path: join(spec.dir, name), problem: `unreadable (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
    }
    if (found === undefined) continue;
    if ('problem' in found) problems.push(found);
    else if (skills.length < MAX_ROOT_SKILLS) skills.push(found);
    else
      problems.push({
        path: join(spec.dir, name),
        problem: `more than ${MAX_ROOT_SKILLS} skills in this root: not listed`,
      });
  }
  return { ...(skills.length > 0 ? { root: { label: spec.label, dir: spec.dir, skills } } : {}), problems };
}

/**
 * Scans the roots in order; never throws.
 * @example scanSkillRoots(skillRootSpecs({ userHome: '/home/me' })).roots // [{ label: 'user', dir: '/home/me/.claude/skills', skills: [...] }]
 */
export function scanSkillRoots(input: { specs: SkillRootSpec[]; problems?: SkillRootProblem[] }): {
  roots: SkillRoot[];
  problems: SkillRootProblem[];
} {
  const roots: SkillRoot[] = [];
  const problems = [...(input.problems ?? [])];
  for (const spec of input.specs) {
    const r = scanRoot(spec);
    if (r.root) roots.push(r.root);
    problems.push(...r.problems);
  }
  return { roots, problems };
}
