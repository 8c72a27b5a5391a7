// The documentation's links hold: every relative link in README.md, ARCHITECTURE.md and docs/*.md (and the
// README's absolute links into this repository, https://github.com/gitmem/gitmem/blob/main/<path>, which it
// uses because the registry's page does not resolve relative ones) names a file that exists, and every
// `#anchor` into a markdown file names a heading there, by GitHub's rule for heading ids.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..', '..');
const REPO_URL =
  /^https:\/\/(?:github\.com\/gitmem\/gitmem\/blob\/main|raw\.githubusercontent\.com\/gitmem\/gitmem\/main)\/([^#?]*)(#.*)?$/;

const FILES = [
  'README.md',
  'ARCHITECTURE.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The text outside fenced code blocks and inline code spans. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's id for a heading: its text lowercased, punctuation but `-` and `_` dropped, each space a `-`. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every heading id of a markdown file (a repeated heading gets `-1`, `-2`… as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[\s\S]*?^\1/gm, '');
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every link and image target outside code: inline `](…)`, reference `[x]: …`, `<img src>`. */
function targets(text: string): string[] {
  const t = prose(text);
  return [
    ...[...t.matchAll(/\]\(\s*<?([^)\s>]+)/g)],
    ...[...t.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)],
    ...[...t.matchAll(/<img[^>]*\ssrc=["']([^"']+)/g)],
  ].map((m) => m[1] as string);
}

/** What is wrong with one link of `file` (a repository path), or null when it resolves. */
export function brokenLink(file: string, target: string): string | null {
  let path: string;
  let anchor: string | undefined;
  const intoRepo = REPO_URL.exec(target);
  if (intoRepo) {
    path = join(REPO, decodeURIComponent(intoRepo[1] as string));
    anchor = intoRepo[2]?.slice(1);
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return null; // another site, mailto:
  } else {
    const [p = '', a] = target.split('#', 2);
    path = p === '' ? join(REPO, file) : resolve(dirname(join(REPO, file)), decodeURIComponent(p));
    anchor = a;
  }
  if (!path.startsWith(REPO) || !existsSync(path)) return `${target}: no file ${relative(REPO, path)}`;
  if (anchor === undefined || anchor === '') return null;
  if (!path.endsWith('.md')) return null;
  return anchors(path).has(decodeURIComponent(anchor))
    ? null
    : `${target}: no heading #${anchor} in ${relative(REPO, path)}`;
}

describe('documentation links', () => {
  it("the slug rule is GitHub's", () => {
    expect(slug('The memory rules (tool, hook and merges alike)')).toBe('the-memory-rules-tool-hook-and-merges-alike');
    expect(slug('`gitmem doctor`')).toBe('gitmem-doctor');
    expect(slug("Anthropic's memory tool (`gitmem/anthropic`)")).toBe('anthropics-memory-tool-gitmemanthropic');
    expect(slug('The write path (one tool call → one commit)')).toBe('the-write-path-one-tool-call--one-commit');
  });

  it('a broken link or anchor is found', () => {
    expect(brokenLink('docs/cli.md', 'memory.md#the-memory-tool')).toBeNull();
    expect(brokenLink('docs/cli.md', 'nowhere.md')).toMatch(/no file docs\/nowhere\.md/);
    expect(brokenLink('docs/cli.md', 'memory.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink('README.md', 'https://github.com/gitmem/gitmem/blob/main/docs/none.md')).toMatch(/no file/);
  });

  for (const file of FILES) {
    it(`${file}: every link into the repository resolves`, () => {
      const problems = targets(readFileSync(join(REPO, file), 'utf8'))
        .map((t) => brokenLink(file, t))
        .filter((p): p is string => p !== null);
      expect(problems).toEqual([]);
    });
  }

  it('the README links every doc', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    for (const file of FILES.filter((f) => f.startsWith('docs/'))) {
      expect(readme, file).toContain(`https://github.com/gitmem/gitmem/blob/main/${file}`);
    }
  });
});
