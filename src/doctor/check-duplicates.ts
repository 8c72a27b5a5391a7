/** Duplicate bodies: two memory files whose text after the frontmatter is the same (whitespace aside). */
import { createHash } from 'node:crypto';
import { splitFrontmatter } from '../blocks/frontmatter.js';
import { committedFiles, textOf } from './committed-files.js';
import { capped, ok, problem, type DoctorCheck } from './types.js';

export const duplicatesCheck: DoctorCheck = {
  title: 'duplicate bodies',
  async run(ctx) {
    const byBody = new Map<string, string[]>();
    for (const f of await committedFiles(ctx)) {
      const text = f.path.endsWith('.md') ? textOf(f) : null;
      if (text === null) continue;
      const split = splitFrontmatter(text);
      const body = (split.kind === 'ok' || split.kind === 'none' ? split.body : text).replace(/\s+/g, ' ').trim();
      if (body === '') continue;
      const key = createHash('sha256').update(body).digest('hex');
      byBody.set(key, [...(byBody.get(key) ?? []), f.path]);
    }
    const groups = [...byBody.values()].filter((g) => g.length > 1).map((g) => `same body: ${g.join(', ')}`);
    return groups.length === 0
      ? ok('no two files share a body')
      : problem(`${groups.length} group(s) of files with the same body (keep one, link to it)`, capped(groups));
  },
};
