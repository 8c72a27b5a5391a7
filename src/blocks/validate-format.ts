/**
 * The format of each kind of file, for the validator (validate.ts): a memory file's frontmatter (keys, required
 * fields, read_only unchanged, its `limit`), a routing index (no frontmatter, the root one in its budget) and a
 * skill's SKILL.md. Apart from validate.ts, which decides which of these a change gets.
 */
import {
  SKILL_KEYS,
  descriptionOf,
  parseFrontmatterYaml,
  splitFrontmatter,
  type FrontmatterData,
} from './frontmatter.js';
import type { LayoutRow } from './layouts.js';
import { indexBudgetProblem, limitProblem } from './validate-content.js';
import { checkReadOnlyKey, headData, type Report, type Rules } from './validate-protection.js';
import type { FileChange } from './validate-types.js';

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

/** A memory file: its frontmatter keys, required fields and values, read_only unchanged, its `limit`. */
export function checkMemoryFile(
  change: FileChange,
  content: string,
  report: Report,
  rules: Rules,
  lifted: boolean,
): void {
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
export function checkIndexFile(change: FileChange, content: string, report: Report, layout: LayoutRow): void {
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

/** A skill's SKILL.md: its keys, `name` matching its folder, a description. */
export function checkSkillFile(path: string, content: string, report: Report): void {
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
