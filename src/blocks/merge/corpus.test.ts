// The merge corpus: three versions of one memory file and the exact outcome — the clean text, or the kind of
// conflict. Ours' additions come before theirs' at one place; ours' line endings and BOM are kept.
import { describe, expect, it } from 'vitest';
import { mergeMarkdownWith } from './merge-text.js';
import { loadMarkdownParser } from './parser.js';
import type { MergeConflictKind } from './types.js';

const parse = loadMarkdownParser();

/** A memory file: frontmatter with `description` (and `extra` lines), then the body. */
const f = (body: string, description = 'Work notes', extra = ''): string => `---\ndescription: ${description}\n${extra}---\n${body}`;
const crlf = (s: string): string => s.replace(/\n/g, '\r\n');

interface Case {
  name: string;
  base: string | null;
  ours: string;
  theirs: string;
  path?: string;
  protectedPaths?: string[];
  /** The exact merged text, or the conflict kind. */
  want: string | { conflict: MergeConflictKind };
}

const conflict = (kind: MergeConflictKind): { conflict: MergeConflictKind } => ({ conflict: kind });

const LIST = f('# Work\n\n- a\n- b\n- c\n');

const lists: Case[] = [
  { name: 'different bullets appended to one list', base: LIST, ours: f('# Work\n\n- a\n- b\n- c\n- ours\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'), want: f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n') },
  { name: 'bullets inserted at different places', base: LIST, ours: f('# Work\n\n- a\n- ours\n- b\n- c\n'), theirs: f('# Work\n\n- a\n- b\n- theirs\n- c\n'), want: f('# Work\n\n- a\n- ours\n- b\n- theirs\n- c\n') },
  { name: 'bullets inserted at the same place in the middle', base: LIST, ours: f('# Work\n\n- a\n- ours\n- b\n- c\n'), theirs: f('# Work\n\n- a\n- theirs\n- b\n- c\n'), want: f('# Work\n\n- a\n- ours\n- theirs\n- b\n- c\n') },
  { name: 'bullets prepended on both sides', base: LIST, ours: f('# Work\n\n- ours\n- a\n- b\n- c\n'), theirs: f('# Work\n\n- theirs\n- a\n- b\n- c\n'), want: f('# Work\n\n- ours\n- theirs\n- a\n- b\n- c\n') },
  { name: 'the same bullet added on both sides appears once', base: LIST, ours: f('# Work\n\n- a\n- b\n- c\n- same\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- same\n'), want: f('# Work\n\n- a\n- b\n- c\n- same\n') },
  { name: 'a shared new bullet plus one of each', base: LIST, ours: f('# Work\n\n- a\n- b\n- c\n- same\n- ours\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- same\n- theirs\n'), want: f('# Work\n\n- a\n- b\n- c\n- same\n- ours\n- theirs\n') },
  { name: 'the same bullet edited two ways', base: LIST, ours: f('# Work\n\n- a\n- b (ours)\n- c\n'), theirs: f('# Work\n\n- a\n- b (theirs)\n- c\n'), want: conflict('edit') },
  { name: 'the same bullet edited the same way', base: LIST, ours: f('# Work\n\n- a\n- B\n- c\n- ours\n'), theirs: f('# Work\n\n- a\n- B\n- c\n'), want: f('# Work\n\n- a\n- B\n- c\n- ours\n') },
  { name: 'a bullet deleted on one side, edited on the other', base: LIST, ours: f('# Work\n\n- a\n- c\n'), theirs: f('# Work\n\n- a\n- b, edited\n- c\n'), want: conflict('delete_edit') },
  { name: 'a bullet edited on one side, deleted on the other', base: LIST, ours: f('# Work\n\n- a\n- b, edited\n- c\n'), theirs: f('# Work\n\n- a\n- c\n'), want: conflict('delete_edit') },
  { name: 'the same bullet deleted on both sides', base: LIST, ours: f('# Work\n\n- a\n- c\n- ours\n'), theirs: f('# Work\n\n- a\n- c\n'), want: f('# Work\n\n- a\n- c\n- ours\n') },
  { name: 'a deletion on one side, an addition on the other', base: LIST, ours: f('# Work\n\n- b\n- c\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'), want: f('# Work\n\n- b\n- c\n- d\n') },
  { name: 'the last bullet deleted on one side, one appended on the other', base: LIST, ours: f('# Work\n\n- a\n- b\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'), want: f('# Work\n\n- a\n- b\n- d\n') },
  { name: 'adjacent bullets edited, one on each side', base: LIST, ours: f('# Work\n\n- A\n- b\n- c\n'), theirs: f('# Work\n\n- a\n- B\n- c\n'), want: f('# Work\n\n- A\n- B\n- c\n') },
  { name: 'a bullet edited on one side, a bullet appended on the other', base: LIST, ours: f('# Work\n\n- a\n- b\n- C\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'), want: f('# Work\n\n- a\n- b\n- C\n- d\n') },
  { name: 'a loose list keeps its blank lines', base: f('- a\n\n- b\n'), ours: f('- a\n\n- b\n\n- ours\n'), theirs: f('- a\n\n- b\n\n- theirs\n'), want: f('- a\n\n- b\n\n- ours\n\n- theirs\n') },
  { name: 'an asterisk list', base: f('* a\n* b\n'), ours: f('* a\n* b\n* ours\n'), theirs: f('* a\n* b\n* theirs\n'), want: f('* a\n* b\n* ours\n* theirs\n') },
  { name: 'an indented list', base: f('  - a\n  - b\n'), ours: f('  - a\n  - b\n  - ours\n'), theirs: f('  - a\n  - b\n  - theirs\n'), want: f('  - a\n  - b\n  - ours\n  - theirs\n') },
  { name: 'a task ticked on one side, a task added on the other', base: f('- [ ] call Ana\n- [ ] book room\n'), ours: f('- [x] call Ana\n- [ ] book room\n'), theirs: f('- [ ] call Ana\n- [ ] book room\n- [ ] send notes\n'), want: f('- [x] call Ana\n- [ ] book room\n- [ ] send notes\n') },
  { name: 'bullets reordered on one side, one appended on the other', base: LIST, ours: f('# Work\n\n- c\n- a\n- b\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'), want: f('# Work\n\n- c\n- a\n- b\n- d\n') },
  { name: 'a bullet moved on one side, edited on the other', base: LIST, ours: f('# Work\n\n- b\n- c\n- a\n'), theirs: f('# Work\n\n- a, edited\n- b\n- c\n'), want: conflict('delete_edit') },
  { name: 'one bullet moved to two different places', base: f('- a\n- b\n- c\n- d\n'), ours: f('- b\n- a\n- c\n- d\n'), theirs: f('- b\n- c\n- d\n- a\n'), want: conflict('duplicate') },
  { name: 'the same new bullet added at two different places', base: LIST, ours: f('# Work\n\n- new\n- a\n- b\n- c\n'), theirs: f('# Work\n\n- a\n- b\n- c\n- new\n'), want: conflict('duplicate') },
  { name: 'nested bullets added under different items', base: f('- a\n  - a1\n- b\n  - b1\n'), ours: f('- a\n  - a1\n  - a2\n- b\n  - b1\n'), theirs: f('- a\n  - a1\n- b\n  - b1\n  - b2\n'), want: f('- a\n  - a1\n  - a2\n- b\n  - b1\n  - b2\n') },
  { name: 'nested bullets of one item changed on both sides', base: f('- a\n  - a1\n- b\n'), ours: f('- a\n  - a1\n  - ours\n- b\n'), theirs: f('- a\n  - a1\n  - theirs\n- b\n'), want: conflict('edit') },
  { name: 'an ordered list is one block: items added on both sides conflict', base: f('1. one\n2. two\n'), ours: f('1. one\n2. two\n3. ours\n'), theirs: f('1. one\n2. two\n3. theirs\n'), want: conflict('edit') },
  { name: 'an ordered list edited on one side, a bullet list on the other', base: f('1. one\n2. two\n\n- a\n'), ours: f('1. one\n2. TWO\n\n- a\n'), theirs: f('1. one\n2. two\n\n- a\n- b\n'), want: f('1. one\n2. TWO\n\n- a\n- b\n') },
];

const CODE = f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n');
const code: Case[] = [
  { name: 'a code block holding "- " lines is one block, not list items', base: CODE, ours: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n- ours\n```\n\n- real bullet\n'), theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n- theirs\n```\n\n- real bullet\n'), want: conflict('edit') },
  { name: 'a code block edited on one side, a bullet added on the other', base: CODE, ours: f('# Setup\n\n```sh\n- not a bullet\n- changed\n```\n\n- real bullet\n'), theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- another\n'), want: f('# Setup\n\n```sh\n- not a bullet\n- changed\n```\n\n- real bullet\n- another\n') },
  { name: 'bullets added after a code block on both sides', base: CODE, ours: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- ours\n'), theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- theirs\n'), want: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- ours\n- theirs\n') },
];

const SECTIONS = f('# A\n\n- a\n\n# B\n\n- b\n');
const sections: Case[] = [
  { name: 'new sections on both sides at the end', base: SECTIONS, ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# Ours\n\n- o\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# Theirs\n\n- t\n'), want: f('# A\n\n- a\n\n# B\n\n- b\n\n# Ours\n\n- o\n\n# Theirs\n\n- t\n') },
  { name: 'new sections at different places', base: SECTIONS, ours: f('# A\n\n- a\n\n# Ours\n\n- o\n\n# B\n\n- b\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# Theirs\n\n- t\n'), want: f('# A\n\n- a\n\n# Ours\n\n- o\n\n# B\n\n- b\n\n# Theirs\n\n- t\n') },
  { name: 'the same section added with the same content', base: SECTIONS, ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n'), want: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n') },
  { name: 'the same section added with different bullets', base: SECTIONS, ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- ours\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- theirs\n'), want: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- ours\n- theirs\n') },
  { name: 'the same section added with different paragraphs', base: SECTIONS, ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\nOurs says this.\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\nTheirs says that.\n'), want: conflict('insert') },
  { name: 'bullets added in different sections', base: SECTIONS, ours: f('# A\n\n- a\n- ours\n\n# B\n\n- b\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'), want: f('# A\n\n- a\n- ours\n\n# B\n\n- b\n- theirs\n') },
  { name: 'a bullet at the end of a section and a new section after it stay apart', base: SECTIONS, ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# New\n\n- n\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'), want: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n\n# New\n\n- n\n') },
  { name: 'a paragraph after a list and a bullet in that list', base: SECTIONS, ours: f('# A\n\n- a\n\nA note.\n\n# B\n\n- b\n'), theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'), want: f('# A\n\n- a\n- theirs\n\nA note.\n\n# B\n\n- b\n') },
  { name: 'a heading renamed on one side, another section edited on the other', base: SECTIONS, ours: f('# A renamed\n\n- a\n\n# B\n\n- b\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'), want: f('# A renamed\n\n- a\n\n# B\n\n- b\n- theirs\n') },
  { name: 'a heading renamed on one side, a bullet added under it on the other', base: SECTIONS, ours: f('# A renamed\n\n- a\n\n# B\n\n- b\n'), theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'), want: conflict('edit') },
  { name: 'a heading renamed two ways', base: SECTIONS, ours: f('# A ours\n\n- a\n\n# B\n\n- b\n'), theirs: f('# A theirs\n\n- a\n\n# B\n\n- b\n'), want: conflict('edit') },
  { name: 'a section deleted on one side, a bullet added to it on the other', base: SECTIONS, ours: f('# B\n\n- b\n'), theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'), want: conflict('delete_edit') },
  { name: 'a section deleted on one side, another edited on the other', base: SECTIONS, ours: f('# B\n\n- b\n'), theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'), want: f('# B\n\n- b\n- theirs\n') },
  { name: 'a section with only a heading gets bullets on both sides', base: f('# Todo\n'), ours: f('# Todo\n\n- ours\n'), theirs: f('# Todo\n\n- theirs\n'), want: f('# Todo\n\n- ours\n- theirs\n') },
  { name: 'setext headings are sections too', base: f('Work\n====\n\n- a\n\nHome\n----\n\n- h\n'), ours: f('Work\n====\n\n- a\n- ours\n\nHome\n----\n\n- h\n'), theirs: f('Work\n====\n\n- a\n\nHome\n----\n\n- h\n- theirs\n'), want: f('Work\n====\n\n- a\n- ours\n\nHome\n----\n\n- h\n- theirs\n') },
  { name: 'nested heading levels are sections in order', base: f('# Top\n\n## One\n\n- 1\n\n## Two\n\n- 2\n'), ours: f('# Top\n\n## One\n\n- 1\n- ours\n\n## Two\n\n- 2\n'), theirs: f('# Top\n\n## One\n\n- 1\n\n## Two\n\n- 2\n\n## Three\n\n- 3\n'), want: f('# Top\n\n## One\n\n- 1\n- ours\n\n## Two\n\n- 2\n\n## Three\n\n- 3\n') },
];

const PROSE = f('First paragraph.\n\nSecond paragraph.\n');
const prose: Case[] = [
  { name: 'different paragraphs edited', base: PROSE, ours: f('First paragraph, ours.\n\nSecond paragraph.\n'), theirs: f('First paragraph.\n\nSecond paragraph, theirs.\n'), want: f('First paragraph, ours.\n\nSecond paragraph, theirs.\n') },
  { name: 'one paragraph edited two ways', base: PROSE, ours: f('First, ours.\n\nSecond paragraph.\n'), theirs: f('First, theirs.\n\nSecond paragraph.\n'), want: conflict('edit') },
  { name: 'paragraphs added at the same place', base: PROSE, ours: f('First paragraph.\n\nSecond paragraph.\n\nOurs.\n'), theirs: f('First paragraph.\n\nSecond paragraph.\n\nTheirs.\n'), want: conflict('insert') },
  { name: 'a blockquote and an html comment edited on different sides', base: f('<!-- keep -->\n\n> quote\n\n- a\n'), ours: f('<!-- kept -->\n\n> quote\n\n- a\n'), theirs: f('<!-- keep -->\n\n> quote, longer\n\n- a\n'), want: f('<!-- kept -->\n\n> quote, longer\n\n- a\n') },
  { name: 'a link reference definition is a block of its own', base: f('See [docs].\n\n[docs]: https://example.com/old\n\n- a\n'), ours: f('See [docs].\n\n[docs]: https://example.com/new\n\n- a\n'), theirs: f('See [docs].\n\n[docs]: https://example.com/old\n\n- a\n- b\n'), want: f('See [docs].\n\n[docs]: https://example.com/new\n\n- a\n- b\n') },
  { name: 'one bullet added in two places (a new list on one side, in place of a paragraph on the other)', base: f('Text.\n'), ours: f('Text.\n\n* c\n'), theirs: f('* c\n'), want: conflict('duplicate') },
  { name: 'a table edited two ways', base: f('| a | b |\n|---|---|\n| 1 | 2 |\n'), ours: f('| a | b |\n|---|---|\n| 1 | 3 |\n'), theirs: f('| a | b |\n|---|---|\n| 4 | 2 |\n'), want: conflict('edit') },
];

const FM = '---\ndescription: Work notes\nlimit: 2000\n---\n- a\n';
const frontmatter: Case[] = [
  { name: 'description changed on one side, bullets on both', base: f('- a\n'), ours: f('- a\n- ours\n', 'How Ana works'), theirs: f('- a\n- theirs\n'), want: f('- a\n- ours\n- theirs\n', 'How Ana works') },
  { name: 'description changed the same way on both sides', base: f('- a\n'), ours: f('- a\n- ours\n', 'New'), theirs: f('- a\n- theirs\n', 'New'), want: f('- a\n- ours\n- theirs\n', 'New') },
  { name: 'description changed two ways', base: f('- a\n'), ours: f('- a\n', 'Ours'), theirs: f('- a\n', 'Theirs'), want: conflict('field') },
  { name: 'limit added on one side, description changed on the other', base: f('- a\n'), ours: f('- a\n', 'Work notes', 'limit: 3000\n'), theirs: f('- a\n', 'Changed'), want: f('- a\n', 'Changed', 'limit: 3000\n') },
  { name: 'limit changed two ways', base: FM, ours: FM.replace('2000', '3000'), theirs: FM.replace('2000', '4000'), want: conflict('field') },
  { name: 'limit changed on one side, description on the other', base: FM, ours: FM.replace('2000', '3000'), theirs: FM.replace('Work notes', 'Changed'), want: '---\ndescription: Changed\nlimit: 3000\n---\n- a\n' },
  { name: 'limit removed on one side, description changed on the other', base: FM, ours: FM.replace('limit: 2000\n', ''), theirs: FM.replace('Work notes', 'Changed'), want: '---\ndescription: Changed\n---\n- a\n' },
  { name: 'frontmatter comments and quoting stay as ours wrote them', base: '---\n# what this file is\ndescription: "Work: notes"\n---\n- a\n', ours: '---\n# what this file is\ndescription: "Work: notes, ours"\n---\n- a\n', theirs: '---\n# what this file is\ndescription: "Work: notes"\nlimit: 500\n---\n- a\n', want: '---\n# what this file is\ndescription: "Work: notes, ours"\nlimit: 500\n---\n- a\n' },
  { name: 'a read_only file is never merged', base: f('- a\n', 'Rules', 'read_only: true\n'), ours: f('- a\n- ours\n', 'Rules', 'read_only: true\n'), theirs: f('- a\n- theirs\n', 'Rules', 'read_only: true\n'), want: conflict('read_only') },
  { name: 'a path on the protected list is never merged', base: f('- a\n'), ours: f('- a\n- ours\n'), theirs: f('- a\n- theirs\n'), protectedPaths: ['notes/work.md'], want: conflict('read_only') },
  { name: 'read_only set on one side', base: f('- a\n'), ours: f('- a\n- ours\n'), theirs: f('- a\n', 'Work notes', 'read_only: yes\n'), want: conflict('read_only') },
  { name: 'frontmatter that does not parse on one side', base: f('- a\n'), ours: '---\ndescription: [broken\n---\n- a\n', theirs: f('- a\n', 'Changed'), want: conflict('frontmatter_invalid') },
  { name: 'frontmatter removed on one side, changed on the other', base: f('- a\n'), ours: '- a\n- ours\n', theirs: f('- a\n', 'Changed'), want: conflict('frontmatter_removed') },
  { name: 'an unknown key from one side makes the result break the rules', base: f('- a\n'), ours: f('- a\n- ours\n'), theirs: f('- a\n- theirs\n', 'Work notes', 'tags: x\n'), want: conflict('invalid_result') },
  { name: 'a SKILL.md merges its own fields', path: 'skills/deploy/SKILL.md', base: '---\nname: deploy\ndescription: Deploys\n---\n- step\n', ours: '---\nname: deploy\ndescription: Deploys the app\n---\n- step\n', theirs: '---\nname: deploy\ndescription: Deploys\nlicense: MIT\n---\n- step\n', want: '---\nname: deploy\ndescription: Deploys the app\nlicense: MIT\n---\n- step\n' },
];

const files: Case[] = [
  { name: 'CRLF on all sides stays CRLF', base: crlf(LIST), ours: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n')), theirs: crlf(f('# Work\n\n- a\n- b\n- c\n- theirs\n')), want: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')) },
  { name: 'ours CRLF, theirs LF: the result is CRLF', base: crlf(LIST), ours: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n')), theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'), want: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')) },
  { name: 'ours LF, theirs CRLF: the result is LF', base: LIST, ours: f('# Work\n\n- a\n- b\n- c\n- ours\n'), theirs: crlf(f('# Work\n\n- a\n- b\n- c\n- theirs\n')), want: f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n') },
  { name: "ours' BOM is kept", base: `\ufeff${LIST}`, ours: `\ufeff${f('# Work\n\n- a\n- b\n- c\n- ours\n')}`, theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'), want: `\ufeff${f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')}` },
  { name: 'empty base: both created the file with different bullets', base: null, ours: f('- ours\n'), theirs: f('- theirs\n'), want: f('- ours\n- theirs\n') },
  { name: 'empty base: both created the file with different descriptions', base: null, ours: f('- ours\n', 'Ours'), theirs: f('- theirs\n', 'Theirs'), want: conflict('field') },
  { name: 'empty base: both created the file with different paragraphs', base: null, ours: f('Ours.\n'), theirs: f('Theirs.\n'), want: conflict('insert') },
  { name: 'the final newline removed on one side, a bullet appended on the other', base: f('- a\n- b\n'), ours: f('- a\n- b'), theirs: f('- a\n- b\n- c\n'), want: f('- a\n- b\n- c') },
  { name: 'no final newline in the base, bullets appended on both sides', base: f('- a'), ours: f('- a\n- ours\n'), theirs: f('- a\n- theirs\n'), want: f('- a\n- ours\n- theirs\n') },
  { name: 'the end of the file changed two ways', base: f('- a\n- b\n'), ours: f('- A\n- b'), theirs: f('- a\n- B\n\n\n'), want: conflict('whitespace') },
  { name: 'unicode: CJK, emoji and accents', base: f('# 偏好\n\n- 周三在家办公\n'), ours: f('# 偏好\n\n- 周三在家办公\n- 喜欢简短的回答 😀\n'), theirs: f('# 偏好\n\n- 周三在家办公\n- café au lait ☕\n'), want: f('# 偏好\n\n- 周三在家办公\n- 喜欢简短的回答 😀\n- café au lait ☕\n') },
  { name: 'a memory file without frontmatter is a conflict (the result breaks the rules)', base: '- a\n', ours: '- a\n- ours\n', theirs: '- a\n- theirs\n', want: conflict('invalid_result') },
  { name: 'a markdown file outside memory merges without frontmatter', path: '.github/notes.md', base: '- a\n', ours: '- a\n- ours\n', theirs: '- a\n- theirs\n', want: '- a\n- ours\n- theirs\n' },
  { name: 'a file over the size cap', base: LIST, ours: f(`- ${'x'.repeat(70_000)}\n`), theirs: f('- y\n'), want: conflict('too_large') },
  { name: 'a NUL character', base: LIST, ours: f('- a\0\n'), theirs: f('- y\n'), want: conflict('unsupported') },
];

// A primary edit at 10:00 and a worker's edit of the same file at 10:05 (base: the worker's starting point).
const WORK = f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n', 'How Ana works');
const timeline: Case[] = [
  { name: 'timeline: primary adds a bullet at 10:00, the worker another at 10:05 — merged', base: WORK, ours: f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- From next week: works from home on Wednesdays\n', 'How Ana works'), theirs: f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Team standup at 9:30 on Mondays\n', 'How Ana works'), want: f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- From next week: works from home on Wednesdays\n- Team standup at 9:30 on Mondays\n', 'How Ana works') },
  { name: 'timeline: both rewrite the same bullet — the worker\'s branch is kept', base: WORK, ours: f('# Office\n\n- In the office Monday, Tuesday, Thursday, Friday; home on Wednesdays\n- Prefers short answers\n', 'How Ana works'), theirs: f('# Office\n\n- Hybrid: office three days, home two\n- Prefers short answers\n', 'How Ana works'), want: conflict('edit') },
];

const CASES: Case[] = [...lists, ...code, ...sections, ...prose, ...frontmatter, ...files, ...timeline];

describe('the markdown merge corpus', () => {
  it('has at least 50 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(50));
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const r = mergeMarkdownWith(parse, { base: c.base, ours: c.ours, theirs: c.theirs, path: c.path ?? 'notes/work.md', protectedPaths: new Set(c.protectedPaths ?? []) });
    if (typeof c.want === 'string') {
      expect(r).toEqual({ status: 'clean', text: c.want });
    } else {
      expect(r.status).toBe('conflict');
      if (r.status === 'conflict') expect(r.conflicts.map((x) => x.kind)).toContain(c.want.conflict);
    }
  });
});
