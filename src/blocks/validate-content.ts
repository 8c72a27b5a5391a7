/**
 * The validator's content rules beyond format: no credentials in what a change adds, and budgets — a memory
 * file's `limit` (characters of body) and the `system/` total (estimated tokens). Budgets refuse growth only:
 * a repository already over budget keeps working, and a change that does not grow what is over is accepted.
 */
import { bodyChars, formatCount, textTokens } from './budgets.js';
import { LAYOUTS, indexSize, type IndexBudget, type LayoutRow } from './layouts.js';
import { addedText, scanText, type SecretFinding } from './secrets.js';
import type { FileChange, Problem } from './validate-types.js';

/** The system/ budget and what system/ held before the change (both in estimated tokens). */
export interface SystemBudget {
  tokens: number;
  used: number;
}

const ALLOW_HINT = 'if it is not a secret, an operator can allow it with `gitmem secrets allow';

/**
 * The problem a credential found in `path` is (named by rule, line and fingerprint; never the value).
 * @example secretProblem('notes/a.md', finding).code === 'SECRET_DETECTED'
 */
export function secretProblem(path: string, f: SecretFinding): Problem {
  return {
    path,
    line: f.line,
    code: 'SECRET_DETECTED',
    rule: f.rule,
    fingerprint: f.fingerprint,
    message: `${f.title} (rule ${f.rule}, ${f.preview}, fingerprint ${f.fingerprint}): memory must not hold credentials — remove it (and rotate it if it is real); ${ALLOW_HINT} ${f.fingerprint}\``,
  };
}

/**
 * The credentials each change adds (only added lines of a modified file; nothing for a removal).
 * @example secretProblems([{ status: 'added', path: 'a.md', content, headContent: null }], new Set())
 */
export function secretProblems(changes: readonly FileChange[], allowed: ReadonlySet<string>): Problem[] {
  const out: Problem[] = [];
  for (const c of changes) {
    if (c.status === 'deleted' || c.content === null) continue;
    for (const f of scanText(addedText(c.headContent, c.content), { allowed })) out.push(secretProblem(c.path, f));
  }
  return out;
}

/**
 * A memory file whose body grows past its frontmatter `limit`, or null.
 * @example limitProblem(change, 2000)
 */
export function limitProblem(change: FileChange, limit: number, layout: LayoutRow = LAYOUTS.system): Problem | null {
  const chars = bodyChars(change.content);
  if (chars === null || chars <= limit || chars <= (bodyChars(change.headContent) ?? 0)) return null;
  return {
    path: change.path,
    code: 'BUDGET_EXCEEDED',
    message: `body is ${formatCount(chars)} characters, over its limit of ${formatCount(limit)} (frontmatter \`limit\`): shorten it, or move detail to another file${layout.isCore(change.path) ? ` outside ${layout.coreLabel}` : ''}`,
  };
}

/** Estimated tokens a change adds to system/ (negative when it shrinks), per new path. */
function systemGrowth(
  changes: readonly FileChange[],
  isCore: (path: string) => boolean,
): Map<string, { delta: number; tokens: number }> {
  const growth = new Map<string, { delta: number; tokens: number }>();
  const add = (path: string, delta: number, tokens: number): void => {
    const g = growth.get(path) ?? { delta: 0, tokens: 0 };
    growth.set(path, { delta: g.delta + delta, tokens: Math.max(g.tokens, tokens) });
  };
  for (const c of changes) {
    const from = c.status === 'renamed' ? (c.oldPath ?? c.path) : c.path;
    if (isCore(from)) add(from, -textTokens(c.status === 'added' ? null : c.headContent), 0);
    if (c.status !== 'deleted' && isCore(c.path)) add(c.path, textTokens(c.content), textTokens(c.content));
  }
  return growth;
}

/**
 * The system/ total after the change, when it grows past the budget; the problem names the file that grew most.
 * @example systemBudgetProblem(changes, { tokens: 8000, used: 7990 })
 */
export function systemBudgetProblem(
  changes: readonly FileChange[],
  budget: SystemBudget,
  layout: LayoutRow = LAYOUTS.system,
): Problem | null {
  const growth = systemGrowth(changes, layout.isCore);
  let delta = 0;
  let top: [string, { delta: number; tokens: number }] | undefined;
  for (const entry of growth) {
    delta += entry[1].delta;
    if (top === undefined || entry[1].delta > top[1].delta) top = entry;
  }
  const after = budget.used + delta;
  if (delta <= 0 || after <= budget.tokens || top === undefined) return null;
  const [path, g] = top;
  return {
    path,
    code: 'BUDGET_EXCEEDED',
    message:
      `${layout.coreLabel} would hold ~${formatCount(after)} tokens, over its budget of ${formatCount(budget.tokens)} (this file ~${formatCount(g.tokens)} tokens, ` +
      `${g.delta >= 0 ? '+' : ''}${formatCount(g.delta)}): everything in ${layout.coreLabel} is in every prompt — move detail out of ${layout.coreLabel} into other files (listed in the tree, read on demand)`,
  };
}

/**
 * The root index grown past its session-start budget (lines or bytes), or null. Growth only: an index already
 * over budget may still shrink or stay.
 * @example indexBudgetProblem(change, { lines: 200, bytes: 25600 })
 */
export function indexBudgetProblem(change: FileChange, budget: IndexBudget): Problem | null {
  const after = indexSize(change.content);
  const before = indexSize(change.headContent);
  const lines = after.lines > budget.lines && after.lines > before.lines;
  const bytes = after.bytes > budget.bytes && after.bytes > before.bytes;
  if (!lines && !bytes) return null;
  return {
    path: change.path,
    code: 'BUDGET_EXCEEDED',
    message:
      `the root index is ${formatCount(after.lines)} lines / ${formatCount(after.bytes)} bytes, over its session-start budget of ` +
      `${formatCount(budget.lines)} lines / ${formatCount(budget.bytes)} bytes (only that much is loaded each session): condense it — ` +
      `one short line per topic, detail moved into topic files`,
  };
}
