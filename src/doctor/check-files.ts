/**
 * Every committed file against the memory rules (frontmatter, paths, modes) and its encoding (strict UTF-8 for
 * memory markdown). The one validator decides; nothing is repaired. read_only protection is a rule about
 * changes, not content: a committed read_only or listed file is healthy as it stands.
 */
import { findProblems, formatProblem } from '../blocks/validate.js';
import { readRepoLayout } from '../hooks/layout-config.js';
import { committedFiles, textOf } from './committed-files.js';
import { capped, ok, problem, type DoctorCheck } from './types.js';

export const filesCheck: DoctorCheck = {
  title: "every file's frontmatter and encoding",
  async run(ctx) {
    const files = await committedFiles(ctx);
    const found: string[] = [];
    const layout = readRepoLayout(ctx.memoryDir);
    for (const f of files) {
      const text = textOf(f);
      if (text === null) {
        if (f.path.endsWith('.md')) found.push(`${f.path}: NOT_UTF8: not valid UTF-8`);
        continue;
      }
      // The file as it stands: what the rules say of its content, not of a change to it (which protection is about).
      const change = { status: 'modified' as const, path: f.path, content: text, headContent: text, mode: f.mode };
      for (const p of findProblems([change], { layout, liftProtection: new Set([f.path]), secrets: false }))
        found.push(formatProblem(p));
    }
    return found.length === 0
      ? ok(`${files.length} file(s) follow the memory rules`)
      : problem(`${found.length} problem(s) in committed files`, capped(found));
  },
};
