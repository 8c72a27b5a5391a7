/**
 * Dead links: `[[path]]` references (repo-relative, `.md` optional, `|label` / `#section` ignored) and
 * relative markdown links `[text](path)` resolved against the linking file's folder. Code blocks and code
 * spans are skipped; URLs, anchors and absolute paths are not memory links.
 */
import { posix } from 'node:path';
import { committedFiles, textOf } from './committed-files.js';
import { capped, ok, problem, type DoctorCheck } from './types.js';

const WIKI = /\[\[([^\]\n]{1,500})\]\]/g;
const MD_LINK = /\]\(([^)\s]{1,1000})(?:\s+"[^"]*")?\)/g;

/** The text without fenced code blocks and inline code. Pure. */
export function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * Link targets in one file's text: wiki targets (repo-relative) and markdown targets (repo-relative after
 * resolving against `path`'s folder). Pure.
 * @example linkTargets('notes/a.md', 'see [[b]] and [c](../c.md)') // [{ raw: '[[b]]', target: 'b', wiki: true }, { raw: '(../c.md)', target: 'c.md', wiki: false }]
 */
export function linkTargets(path: string, text: string): Array<{ raw: string; target: string; wiki: boolean }> {
  const body = withoutCode(text);
  const out: Array<{ raw: string; target: string; wiki: boolean }> = [];
  for (const m of body.matchAll(WIKI)) {
    const target = (m[1] ?? '').split('|')[0]?.split('#')[0]?.trim() ?? '';
    if (target !== '') out.push({ raw: `[[${m[1]}]]`, target: target.replace(/^\/+/, ''), wiki: true });
  }
  for (const m of body.matchAll(MD_LINK)) {
    const href = m[1] ?? '';
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') || href.startsWith('/') || href.startsWith('<'))
      continue;
    let decoded = href.split('#')[0]?.split('?')[0] ?? '';
    try {
      decoded = decodeURIComponent(decoded);
    } catch {
      // keep it as written
    }
    if (decoded === '') continue;
    const target = posix.normalize(posix.join(posix.dirname(path), decoded));
    out.push({ raw: `(${href})`, target, wiki: false });
  }
  return out;
}

function exists(paths: ReadonlySet<string>, dirs: ReadonlySet<string>, target: string, wiki: boolean): boolean {
  const t = target.replace(/\/+$/, '');
  if (paths.has(t) || dirs.has(t)) return true;
  return wiki && paths.has(`${t}.md`);
}

export const linksCheck: DoctorCheck = {
  title: 'dead links ([[path]] and relative markdown links)',
  async run(ctx) {
    const files = await committedFiles(ctx);
    const paths = new Set(files.map((f) => f.path));
    const dirs = new Set(
      files.flatMap((f) =>
        f.path
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const dead: string[] = [];
    let links = 0;
    for (const f of files) {
      const text = f.path.endsWith('.md') ? textOf(f) : null;
      if (text === null) continue;
      for (const l of linkTargets(f.path, text)) {
        links++;
        if (l.target.startsWith('../') || !exists(paths, dirs, l.target, l.wiki))
          dead.push(`${f.path}: ${l.raw} names no file`);
      }
    }
    return dead.length === 0 ? ok(`${links} link(s), none dead`) : problem(`${dead.length} dead link(s)`, capped(dead));
  },
};
