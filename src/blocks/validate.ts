/**
 * The memory rules, as one pure function over a set of changes: which paths and file modes memory may hold,
 * read_only protection (fail-closed, plus the protected list gitmem keeps outside the repository), and the
 * frontmatter format. The pre-commit hook feeds it the staged snapshot, merges of background
 * writers the merge result against the checkout's HEAD, and the memory tool the change it is about to commit,
 * so all three enforce exactly the same rules.
 */
import {
  SKILL_KEYS,
  descriptionOf,
  isRawReadOnlyValue,
  isReadOnlyValue,
  normalizeText,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterData,
} from './frontmatter.js';
import { LAYOUTS, type FileKind, type LayoutRow } from './layouts.js';
import { pathProblem } from './path-rules.js';
import {
  indexBudgetProblem,
  limitProblem,
  secretProblems,
  systemBudgetProblem,
  type SystemBudget,
} from './validate-content.js';
import type { FileChange, Problem } from './validate-types.js';

export type { FileChange, Problem } from './validate-types.js';
export type { FileKind } from './layouts.js';

/** What the rules need besides the changes themselves. */
export interface ValidationOptions {
  /**
   * Paths gitmem recorded as read_only (the protected list, kept in the common git dir, never emptied by a
   * commit): no change may create, modify, delete or rename them, whatever their frontmatter says now.
   */
  protectedPaths?: ReadonlySet<string>;
  /**
   * Secret scanning of what the change adds (on by default): `allowed` holds the fingerprints an operator
   * allowed. `false` turns it off (benchmarks only).
   */
  secrets?: false | { allowed?: ReadonlySet<string> };
  /** The system/ budget and what system/ held before the change; without it only per-file limits apply. */
  systemBudget?: SystemBudget;
  /**
   * Paths whose read_only protection (their frontmatter and the protected list) is lifted for this change: an
   * operator's write (`gitmem protect write`), or doctor judging committed files as they stand. Every other
   * rule still holds for them.
   */
  liftProtection?: ReadonlySet<string>;
  /** The repository's layout (src/blocks/layouts.ts); the `system` row when absent. */
  layout?: LayoutRow;
}

/**
 * The operator's way past each protection refusal, named in the refusal itself (one line, the path left as
 * `<path>`: the refusal names the path at its start, and a hostile name is never pasted into a command).
 */
export const OPERATOR_HINTS = {
  write: 'an operator writes it with `gitmem protect write <path>`',
  unlock: 'an operator first rewrites it without read_only (`gitmem protect write <path>`)',
  unlist: 'an operator lifts that with `gitmem protect remove <path>`',
} as const;

type Report = (path: string, message: string, extra?: Problem) => void;

/**
 * Which rules a repo-relative path falls under in a layout (the `system` layout when none is given).
 * @example classifyPath('skills/git/SKILL.md') === 'skill'
 */
export function classifyPath(path: string, layout: LayoutRow = LAYOUTS.system): FileKind {
  return layout.classify(path);
}

/**
 * The frontmatter keys a file at `path` may carry, or null for a plain file, which has no frontmatter rules
 * (anything not `.md`, a skill's other files, dot-directories, a routing index). A misplaced skill counts as
 * memory markdown, so it is refused as such.
 * @example frontmatterKeysFor('notes/progress.json') === null
 */
export function frontmatterKeysFor(path: string, layout: LayoutRow = LAYOUTS.system): readonly string[] | null {
  const kind = layout.classify(path);
  return kind === 'skill' ? SKILL_KEYS : kind === 'memory' || kind === 'bad-skill-path' ? layout.memoryKeys : null;
}

const READ_ONLY_LINE = /^\s*(["']?)read_only\1\s*:(.*)$/;

/**
 * True when a file's text makes it protected: its frontmatter has a `read_only` value that is not an explicit
 * false (see isReadOnlyValue). Fails closed: when the frontmatter cannot be parsed (invalid YAML, a duplicate
 * key, never closed), any `read_only:` line in it with such a value protects the file.
 * @example isProtectedText('---\ndescription: [x\nread_only: yes\n---\n') === true
 */
export function isProtectedText(text: string | null): boolean {
  if (text === null) return false;
  const split = splitFrontmatter(text);
  if (split.kind === 'none') return false;
  let lines: string;
  if (split.kind === 'ok') {
    try {
      return isReadOnlyValue(parseFrontmatterYaml(split.yamlText)['read_only']);
    } catch {
      lines = split.yamlText;
    }
  } else {
    lines = normalizeText(text).slice(4); // unclosed: everything after the opening ---
  }
  return lines.split('\n').some((line) => {
    const m = READ_ONLY_LINE.exec(line);
    return m !== null && isRawReadOnlyValue(m[2] ?? '');
  });
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

function parseForCheck(path: string, content: string, report: Report): FrontmatterData | null {
  const split = splitFrontmatter(content);
  if (split.kind === 'none') return (void report(path, 'missing frontmatter (must start with ---)'), null);
  if (split.kind === 'unclosed')
    return (void report(path, 'frontmatter opened but never closed (missing closing ---)'), null);
  try {
    return parseFrontmatterYaml(split.yamlText);
  } catch (err) {
    report(path, err instanceof Error ? err.message : String(err));
    return null;
  }
}

const fieldRefusal = (verb: string): string =>
  `'read_only' is a protected field and cannot be ${verb} by the agent; ${OPERATOR_HINTS.write}`;

function checkReadOnlyKey(path: string, data: FrontmatterData, head: FrontmatterData | null, report: Report): void {
  const has = Object.hasOwn(data, 'read_only');
  const headHas = head !== null && Object.hasOwn(head, 'read_only');
  if (has && !headHas) {
    report(path, fieldRefusal('set'));
  } else if (has && headHas && JSON.stringify(data['read_only']) !== JSON.stringify(head['read_only'])) {
    report(path, fieldRefusal('changed'));
  } else if (!has && headHas) {
    report(path, fieldRefusal('removed'));
  }
}

function checkRequiredKeys(path: string, data: FrontmatterData, layout: LayoutRow, report: Report): void {
  for (const key of layout.requiredKeys) {
    if (!Object.hasOwn(data, key) || data[key] === null) report(path, `missing required field '${key}'`);
    else if (typeof data[key] !== 'string' || (key === 'description' ? descriptionOf(data) : data[key].trim()) === '')
      report(path, `'${key}' must be a non-empty string`);
  }
  for (const [key, values] of Object.entries(layout.keyValues)) {
    const v = data[key];
    if (v !== undefined && !(typeof v === 'string' && values.includes(v)))
      report(path, `'${key}' must be one of ${values.join(', ')}`);
  }
}

function checkMemoryFile(change: FileChange, content: string, report: Report, rules: Rules, lifted: boolean): void {
  const { path } = change;
  const data = parseForCheck(path, content, report);
  if (data === null) return;
  const keys = rules.layout.memoryKeys;
  for (const key of Object.keys(data)) {
    if (!keys.includes(key)) report(path, `unknown frontmatter key '${key}' (allowed: ${keys.join(', ')})`);
  }
  if (!lifted) checkReadOnlyKey(path, data, headData(change.headContent), report);
  checkRequiredKeys(path, data, rules.layout, report);
  const limit = data['limit'];
  if (limit !== undefined && limit !== null && !(Number.isInteger(limit) && (limit as number) > 0)) {
    report(path, `'limit' must be a positive integer`);
  } else if (typeof limit === 'number') {
    const over = limitProblem(change, limit, rules.layout);
    if (over !== null) report(path, over.message, over);
  }
}

/** A routing index: plain markdown (no frontmatter); the root one within its session-start budget. */
function checkIndexFile(change: FileChange, content: string, report: Report, layout: LayoutRow): void {
  if (splitFrontmatter(content).kind !== 'none')
    return report(
      change.path,
      `a ${layout.indexFile ?? 'index'} routing index has no frontmatter (plain markdown links)`,
    );
  if (change.path === layout.indexFile && layout.indexBudget !== null) {
    const over = indexBudgetProblem(change, layout.indexBudget);
    if (over !== null) report(change.path, over.message, over);
  }
}

function checkSkillFile(path: string, content: string, report: Report): void {
  const data = parseForCheck(path, content, report);
  if (data === null) return;
  for (const key of Object.keys(data)) {
    if (!(SKILL_KEYS as readonly string[]).includes(key)) {
      report(path, `unknown SKILL.md frontmatter key '${key}' (allowed: ${SKILL_KEYS.join(', ')})`);
    }
  }
  const folder = path.split('/').at(-2) ?? '';
  const name = data['name'];
  if (typeof name !== 'string' || name.trim() === '') report(path, `missing required field 'name'`);
  else if (name.trim() !== folder) report(path, `'name' must match its folder name '${folder}'`);
  if (typeof data['description'] !== 'string' || data['description'].trim() === '') {
    report(path, `missing required field 'description'`);
  }
}

const REGULAR_MODES: ReadonlySet<string> = new Set(['100644', '100755']);
const MODE_PROBLEMS: Readonly<Record<string, string>> = {
  '120000': 'symbolic links are not allowed in memory (mode 120000)',
  '160000': 'gitlinks (submodules) are not allowed in memory (mode 160000)',
};

/** Why a new side's git mode may not be stored, or null (regular files, executable or not, are fine). */
function modeProblem(mode: string | undefined): string | null {
  if (mode === undefined || REGULAR_MODES.has(mode)) return null;
  return MODE_PROBLEMS[mode] ?? `only regular files are allowed in memory (mode ${mode})`;
}

function listedMessage(verb: string, hint: string): string {
  return `protected (gitmem recorded it as read_only) and cannot be ${verb}; ${hint}`;
}

/** The protected list, the paths whose protection is lifted for this change, and the layout's rules. */
interface Rules {
  listed: ReadonlySet<string>;
  lifted: ReadonlySet<string>;
  layout: LayoutRow;
}

/** The removal side of a delete or rename: read_only and listed files stay. Returns true when refused. */
function checkRemoval(change: FileChange, guard: Rules, report: Report): boolean {
  const source = change.status === 'renamed' ? (change.oldPath ?? change.path) : change.path;
  const verb = change.status === 'deleted' ? 'deleted' : `renamed to ${change.path}`;
  if (guard.layout.requiredFiles.includes(source) && (change.status === 'deleted' || change.path !== source))
    return (report(source, `required in the ${guard.layout.name} layout and cannot be ${verb}`), true);
  if (guard.lifted.has(source)) return false;
  if (isProtectedText(change.headContent))
    return (report(source, `file is read_only and cannot be ${verb}; ${OPERATOR_HINTS.unlock}`), true);
  if (guard.listed.has(source)) return (report(source, listedMessage(verb, OPERATOR_HINTS.unlist)), true);
  return false;
}

/** The new side: path rule, mode, protection, then the format of its kind. */
function checkWrite(change: FileChange, guard: Rules, report: Report): void {
  const { path, status, content } = change;
  const shape = pathProblem(path) ?? modeProblem(change.mode);
  if (shape !== null) return report(path, shape);
  const lifted = guard.lifted.has(path);
  if (!lifted && status === 'modified' && isProtectedText(change.headContent))
    return report(path, `file is read_only and cannot be modified; ${OPERATOR_HINTS.write}`);
  if (!lifted && guard.listed.has(path))
    return report(
      path,
      listedMessage(
        status === 'added' ? 'created' : status === 'renamed' ? 'overwritten' : 'modified',
        OPERATOR_HINTS.write,
      ),
    );
  if (content === null) return report(path, 'its content could not be read');
  const kind = guard.layout.classify(path);
  if (kind === 'bad-skill-path')
    return report(path, 'invalid skill path (skills must be folders). Use skills/<name>/SKILL.md');
  // A renamed file keeps its source's history: its read_only key is compared with the source at HEAD.
  if (kind === 'memory') checkMemoryFile(change, content, report, guard, lifted);
  else if (kind === 'index') checkIndexFile(change, content, report, guard.layout);
  else if (kind === 'skill') checkSkillFile(path, content, report);
  else if (!lifted && isProtectedText(content) && !isProtectedText(change.headContent))
    report(path, fieldRefusal('set'));
}

/**
 * Every broken rule in a set of changes, with the path each one is about (empty = acceptable).
 * @example findProblems([{ status: 'added', path: 'lnk', content: null, headContent: null, mode: '120000' }])
 *   // [{ path: 'lnk', message: 'symbolic links are not allowed in memory (mode 120000)' }]
 */
export function findProblems(changes: readonly FileChange[], options: ValidationOptions = {}): Problem[] {
  const problems: Problem[] = [];
  const report: Report = (path, message, extra) => void problems.push({ ...extra, path, message });
  const layout = options.layout ?? LAYOUTS.system;
  const guard: Rules = {
    listed: options.protectedPaths ?? new Set(),
    lifted: options.liftProtection ?? new Set(),
    layout,
  };
  for (const change of changes) {
    if (change.status === 'deleted' || change.status === 'renamed') {
      if (checkRemoval(change, guard, report) || change.status === 'deleted') continue;
    }
    checkWrite(change, guard, report);
  }
  if (options.systemBudget) {
    const over = systemBudgetProblem(changes, options.systemBudget, layout);
    if (over !== null) problems.push(over);
  }
  if (options.secrets !== false) problems.push(...secretProblems(changes, options.secrets?.allowed ?? new Set()));
  return problems;
}

/** Which refusal a set of problems is: a credential first, then a budget, else the format rules. */
export function problemCode(problems: readonly Problem[]): 'SECRET_DETECTED' | 'BUDGET_EXCEEDED' | 'VALIDATION_FAILED' {
  if (problems.some((p) => p.code === 'SECRET_DETECTED')) return 'SECRET_DETECTED';
  if (problems.some((p) => p.code === 'BUDGET_EXCEEDED')) return 'BUDGET_EXCEEDED';
  return 'VALIDATION_FAILED';
}

/**
 * One problem as one line: `<path>[:<line>]: [<code>: ]<problem>`.
 * @example formatProblem({ path: 'a.md', line: 3, code: 'SECRET_DETECTED', message: 'x' }) === 'a.md:3: SECRET_DETECTED: x'
 */
export function formatProblem(p: Problem): string {
  return `${shownPath(p.path)}${p.line === undefined ? '' : `:${p.line}`}: ${p.code === undefined ? '' : `${p.code}: `}${p.message}`;
}

/**
 * A path as it appears in a problem line: as is, or JSON-quoted when it holds control characters or is not
 * valid Unicode (so one problem is always one line).
 * @example shownPath('a\nb.md') === '"a\\nb.md"'
 */
export function shownPath(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what must not reach a terminal raw
  return /[\u0000-\u001f\u007f]/.test(path) || !path.isWellFormed() ? JSON.stringify(path) : path;
}

/**
 * Validates a set of changes; returns every problem found as `<path>: <problem>` lines (empty = acceptable).
 * @example validateChanges([{ status: 'added', path: 'system/x.md', content: 'hi', headContent: null }])
 *   // ['system/x.md: missing frontmatter (must start with ---)']
 */
export function validateChanges(changes: readonly FileChange[], options: ValidationOptions = {}): string[] {
  return findProblems(changes, options).map(formatProblem);
}
