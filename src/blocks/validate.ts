/**
 * The memory rules, as one pure function over a set of changes: which paths and file modes memory may hold,
 * read_only protection (fail-closed, plus the protected list gitmem keeps outside the repository), and the
 * frontmatter format. The pre-commit hook feeds it the staged snapshot, merges of background
 * writers the merge result against the checkout's HEAD, and the memory tool the change it is about to commit,
 * so all three enforce exactly the same rules. findProblems is the one entry; read_only protection lives in
 * validate-protection.ts, the format of each kind of file in validate-format.ts, the content rules in
 * validate-content.ts.
 */
import { SKILL_KEYS } from './frontmatter.js';
import { LAYOUTS, type FileKind, type LayoutRow } from './layouts.js';
import { pathProblem } from './path-rules.js';
import { secretProblems, systemBudgetProblem, type SystemBudget } from './validate-content.js';
import { checkIndexFile, checkMemoryFile, checkSkillFile } from './validate-format.js';
import {
  OPERATOR_HINTS,
  fieldRefusal,
  isProtectedText,
  listedMessage,
  type Report,
  type Rules,
} from './validate-protection.js';
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
