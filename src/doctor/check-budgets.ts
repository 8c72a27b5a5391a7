/**
 * Budgets: system/ against its token budget, and each file against its own `limit`. Repositories already
 * over keep working (only growth is refused); the doctor says where to trim.
 */
import { bodyChars, formatCount, systemUsage } from '../blocks/budgets.js';
import { tryParseMemoryFile } from '../blocks/frontmatter.js';
import { readSystemBudget } from '../hooks/budget-config.js';
import { committedFiles, textOf } from './committed-files.js';
import { ok, problem, type DoctorCheck } from './types.js';

export const budgetsCheck: DoctorCheck = {
  title: 'system/ token budget and file limits',
  async run(ctx) {
    const files = await committedFiles(ctx);
    const usage = systemUsage(
      files.map((f) => ({ path: f.path, size: f.data.length })),
      readSystemBudget(ctx.memoryDir, ctx.home),
    );
    const found: string[] = [];
    if (usage.total > usage.budget) {
      const top = usage.files
        .slice(0, 3)
        .map((f) => `${f.path} ${formatCount(f.tokens)}`)
        .join(', ');
      found.push(
        `system/ is ${formatCount(usage.total)} tokens, over its budget of ${formatCount(usage.budget)} (largest: ${top}): move detail out of system/`,
      );
    }
    for (const f of files) {
      const text = f.path.endsWith('.md') ? textOf(f) : null;
      const limit = text === null ? undefined : tryParseMemoryFile(text)?.data['limit'];
      const chars = bodyChars(text);
      if (typeof limit === 'number' && chars !== null && chars > limit)
        found.push(`${f.path}: body is ${formatCount(chars)} characters, over its limit of ${formatCount(limit)}`);
    }
    const line = `system/ ${formatCount(usage.total)} of ${formatCount(usage.budget)} tokens`;
    return found.length === 0
      ? ok(line)
      : problem(`${line}; ${found.length} over budget (only growth is refused)`, found);
  },
};
