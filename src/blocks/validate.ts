/**
 * The memory format rules (SPEC §7.2, plus gitmem's stricter read_only protection), as one pure function
 * over a set of changes. The pre-commit hook feeds it the staged snapshot; the memory tool feeds it the
 * change it is about to commit, so both enforce exactly the same rules.
 */
import {
  ALLOWED_KEYS,
  SKILL_KEYS,
  descriptionOf,
  isReadOnlyValue,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterData,
} from './frontmatter.js';

/** One changed path. `content`/`headContent` are null when the file is absent on that side. */
export interface FileChange {
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  path: string;
  /** For renames: the path it came from. */
  oldPath?: string;
  content: string | null;
  /** Content at HEAD of `path` (or of `oldPath` for renames); null when new. */
  headContent: string | null;
}

export type FileKind = 'memory' | 'skill' | 'skill-asset' | 'bad-skill-path' | 'other';

/**
 * Which rules a repo-relative path falls under.
 * @example classifyPath('skills/git/SKILL.md') === 'skill'
 */
export function classifyPath(path: string): FileKind {
  const p = path.startsWith('memory/') ? path.slice('memory/'.length) : path;
  const parts = p.split('/');
  if (parts[0] === 'skills') {
    if (parts.length === 2 && p.endsWith('.md')) return 'bad-skill-path';
    if (parts.length === 3 && parts[2] === 'SKILL.md') return 'skill';
    if (parts.length >= 3) return 'skill-asset';
  }
  if (!p.endsWith('.md')) return 'other';
  if (parts.some((s) => s.startsWith('.'))) return 'other'; // dot-dirs (e.g. .github) are not memory
  return 'memory';
}

function headReadOnly(headContent: string | null): boolean {
  if (headContent === null) return false;
  const split = splitFrontmatter(headContent);
  if (split.kind !== 'ok') return false;
  try {
    return isReadOnlyValue(parseFrontmatterYaml(split.yamlText)['read_only']);
  } catch {
    return false;
  }
}

function headData(headContent: string | null): FrontmatterData | null {
  if (headContent === null) return null;
  const split = splitFrontmatter(headContent);
  if (split.kind !== 'ok') return null;
  try {
    return parseFrontmatterYaml(split.yamlText);
  } catch {
    return null;
  }
}

function parseForCheck(path: string, content: string, errors: string[]): FrontmatterData | null {
  const split = splitFrontmatter(content);
  if (split.kind === 'none') return void errors.push(`${path}: missing frontmatter (must start with ---)`), null;
  if (split.kind === 'unclosed') {
    return void errors.push(`${path}: frontmatter opened but never closed (missing closing ---)`), null;
  }
  try {
    return parseFrontmatterYaml(split.yamlText);
  } catch (err) {
    errors.push(`${path}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
}

function checkReadOnlyKey(path: string, data: FrontmatterData, head: FrontmatterData | null, errors: string[]): void {
  const has = Object.hasOwn(data, 'read_only');
  const headHas = head !== null && Object.hasOwn(head, 'read_only');
  if (has && !headHas) {
    errors.push(`${path}: 'read_only' is a protected field and cannot be set by the agent`);
  } else if (has && headHas && JSON.stringify(data['read_only']) !== JSON.stringify(head['read_only'])) {
    errors.push(`${path}: 'read_only' is a protected field and cannot be changed by the agent`);
  } else if (!has && headHas) {
    errors.push(`${path}: 'read_only' is a protected field and cannot be removed by the agent`);
  }
}

function checkMemoryFile(change: FileChange, content: string, errors: string[]): void {
  const { path } = change;
  const data = parseForCheck(path, content, errors);
  if (data === null) return;
  for (const key of Object.keys(data)) {
    if (!(ALLOWED_KEYS as readonly string[]).includes(key)) {
      errors.push(`${path}: unknown frontmatter key '${key}' (allowed: ${ALLOWED_KEYS.join(', ')})`);
    }
  }
  checkReadOnlyKey(path, data, headData(change.headContent), errors);
  if (!Object.hasOwn(data, 'description') || data['description'] === null) {
    errors.push(`${path}: missing required field 'description'`);
  } else if (typeof data['description'] !== 'string' || descriptionOf(data) === '') {
    errors.push(`${path}: 'description' must be a non-empty string`);
  }
  const limit = data['limit'];
  if (limit !== undefined && limit !== null && !(Number.isInteger(limit) && (limit as number) > 0)) {
    errors.push(`${path}: 'limit' must be a positive integer`);
  }
}

function checkSkillFile(path: string, content: string, errors: string[]): void {
  const data = parseForCheck(path, content, errors);
  if (data === null) return;
  for (const key of Object.keys(data)) {
    if (!(SKILL_KEYS as readonly string[]).includes(key)) {
      errors.push(`${path}: unknown SKILL.md frontmatter key '${key}' (allowed: ${SKILL_KEYS.join(', ')})`);
    }
  }
  const folder = path.split('/').at(-2) ?? '';
  const name = data['name'];
  if (typeof name !== 'string' || name.trim() === '') errors.push(`${path}: missing required field 'name'`);
  else if (name.trim() !== folder) errors.push(`${path}: 'name' must match its folder name '${folder}'`);
  if (typeof data['description'] !== 'string' || data['description'].trim() === '') {
    errors.push(`${path}: missing required field 'description'`);
  }
}

/**
 * Validates a set of changes; returns every problem found (empty = acceptable).
 * @example validateChanges([{ status: 'added', path: 'system/x.md', content: 'hi', headContent: null }])
 *   // ['system/x.md: missing frontmatter (must start with ---)']
 */
export function validateChanges(changes: readonly FileChange[]): string[] {
  const errors: string[] = [];
  for (const change of changes) {
    const { path, status, content } = change;
    if (status === 'deleted' || status === 'renamed') {
      if (headReadOnly(change.headContent)) {
        const verb = status === 'deleted' ? 'deleted' : `renamed to ${path}`;
        errors.push(`${change.oldPath ?? path}: file is read_only and cannot be ${verb}`);
        continue;
      }
      if (status === 'deleted') continue;
    }
    if (content === null) continue;
    const kind = classifyPath(path);
    if (kind === 'bad-skill-path') {
      errors.push(`${path}: invalid skill path (skills must be folders). Use skills/<name>/SKILL.md`);
      continue;
    }
    if (status === 'modified' && headReadOnly(change.headContent)) {
      errors.push(`${path}: file is read_only and cannot be modified`);
      continue;
    }
    // A renamed file keeps its source's history: its read_only key is compared with the source at HEAD.
    if (kind === 'memory') checkMemoryFile(change, content, errors);
    else if (kind === 'skill') checkSkillFile(path, content, errors);
  }
  return errors;
}
