// The merge corpus: three versions of one memory file and the exact outcome — the clean text, or the kind of
// conflict. Ours' additions come before theirs' at one place; ours' line endings and BOM are kept.
// Lists, code, sections and prose here; frontmatter, whole files and the timeline in corpus-files.test.ts.
import { describe, expect, it } from 'vitest';
import { checkCase, conflict, f, type Case } from '../../../test/helpers/merge-corpus.js';
import { LIST_CASES } from '../../../test/helpers/merge-corpus-lists.js';

const CODE = f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n');
const code: Case[] = [
  {
    name: 'a code block holding "- " lines is one block, not list items',
    base: CODE,
    ours: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n- ours\n```\n\n- real bullet\n'),
    theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n- theirs\n```\n\n- real bullet\n'),
    want: conflict('edit'),
  },
  {
    name: 'a code block edited on one side, a bullet added on the other',
    base: CODE,
    ours: f('# Setup\n\n```sh\n- not a bullet\n- changed\n```\n\n- real bullet\n'),
    theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- another\n'),
    want: f('# Setup\n\n```sh\n- not a bullet\n- changed\n```\n\n- real bullet\n- another\n'),
  },
  {
    name: 'bullets added after a code block on both sides',
    base: CODE,
    ours: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- ours\n'),
    theirs: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- theirs\n'),
    want: f('# Setup\n\n```sh\n- not a bullet\n- nor this\n```\n\n- real bullet\n- ours\n- theirs\n'),
  },
];

const SECTIONS = f('# A\n\n- a\n\n# B\n\n- b\n');
const sections: Case[] = [
  {
    name: 'new sections on both sides at the end',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# Ours\n\n- o\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# Theirs\n\n- t\n'),
    want: f('# A\n\n- a\n\n# B\n\n- b\n\n# Ours\n\n- o\n\n# Theirs\n\n- t\n'),
  },
  {
    name: 'new sections at different places',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# Ours\n\n- o\n\n# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# Theirs\n\n- t\n'),
    want: f('# A\n\n- a\n\n# Ours\n\n- o\n\n# B\n\n- b\n\n# Theirs\n\n- t\n'),
  },
  {
    name: 'the same section added with the same content',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n'),
    want: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- c\n'),
  },
  {
    name: 'the same section added with different bullets',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- ours\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- theirs\n'),
    want: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\n- ours\n- theirs\n'),
  },
  {
    name: 'the same section added with different paragraphs',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\nOurs says this.\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n\n# C\n\nTheirs says that.\n'),
    want: conflict('insert'),
  },
  {
    name: 'bullets added in different sections',
    base: SECTIONS,
    ours: f('# A\n\n- a\n- ours\n\n# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'),
    want: f('# A\n\n- a\n- ours\n\n# B\n\n- b\n- theirs\n'),
  },
  {
    name: 'a bullet at the end of a section and a new section after it stay apart',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\n# B\n\n- b\n\n# New\n\n- n\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'),
    want: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n\n# New\n\n- n\n'),
  },
  {
    name: 'a paragraph after a list and a bullet in that list',
    base: SECTIONS,
    ours: f('# A\n\n- a\n\nA note.\n\n# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'),
    want: f('# A\n\n- a\n- theirs\n\nA note.\n\n# B\n\n- b\n'),
  },
  {
    name: 'a heading renamed on one side, another section edited on the other',
    base: SECTIONS,
    ours: f('# A renamed\n\n- a\n\n# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'),
    want: f('# A renamed\n\n- a\n\n# B\n\n- b\n- theirs\n'),
  },
  {
    name: 'a heading renamed on one side, a bullet added under it on the other',
    base: SECTIONS,
    ours: f('# A renamed\n\n- a\n\n# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'),
    want: conflict('edit'),
  },
  {
    name: 'a heading renamed two ways',
    base: SECTIONS,
    ours: f('# A ours\n\n- a\n\n# B\n\n- b\n'),
    theirs: f('# A theirs\n\n- a\n\n# B\n\n- b\n'),
    want: conflict('edit'),
  },
  {
    name: 'a section deleted on one side, a bullet added to it on the other',
    base: SECTIONS,
    ours: f('# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n- theirs\n\n# B\n\n- b\n'),
    want: conflict('delete_edit'),
  },
  {
    name: 'a section deleted on one side, another edited on the other',
    base: SECTIONS,
    ours: f('# B\n\n- b\n'),
    theirs: f('# A\n\n- a\n\n# B\n\n- b\n- theirs\n'),
    want: f('# B\n\n- b\n- theirs\n'),
  },
  {
    name: 'a section with only a heading gets bullets on both sides',
    base: f('# Todo\n'),
    ours: f('# Todo\n\n- ours\n'),
    theirs: f('# Todo\n\n- theirs\n'),
    want: f('# Todo\n\n- ours\n- theirs\n'),
  },
  {
    name: 'setext headings are sections too',
    base: f('Work\n====\n\n- a\n\nHome\n----\n\n- h\n'),
    ours: f('Work\n====\n\n- a\n- ours\n\nHome\n----\n\n- h\n'),
    theirs: f('Work\n====\n\n- a\n\nHome\n----\n\n- h\n- theirs\n'),
    want: f('Work\n====\n\n- a\n- ours\n\nHome\n----\n\n- h\n- theirs\n'),
  },
  {
    name: 'nested heading levels are sections in order',
    base: f('# Top\n\n## One\n\n- 1\n\n## Two\n\n- 2\n'),
    ours: f('# Top\n\n## One\n\n- 1\n- ours\n\n## Two\n\n- 2\n'),
    theirs: f('# Top\n\n## One\n\n- 1\n\n## Two\n\n- 2\n\n## Three\n\n- 3\n'),
    want: f('# Top\n\n## One\n\n- 1\n- ours\n\n## Two\n\n- 2\n\n## Three\n\n- 3\n'),
  },
];

const PROSE = f('First paragraph.\n\nSecond paragraph.\n');
const prose: Case[] = [
  {
    name: 'different paragraphs edited',
    base: PROSE,
    ours: f('First paragraph, ours.\n\nSecond paragraph.\n'),
    theirs: f('First paragraph.\n\nSecond paragraph, theirs.\n'),
    want: f('First paragraph, ours.\n\nSecond paragraph, theirs.\n'),
  },
  {
    name: 'one paragraph edited two ways',
    base: PROSE,
    ours: f('First, ours.\n\nSecond paragraph.\n'),
    theirs: f('First, theirs.\n\nSecond paragraph.\n'),
    want: conflict('edit'),
  },
  {
    name: 'paragraphs added at the same place',
    base: PROSE,
    ours: f('First paragraph.\n\nSecond paragraph.\n\nOurs.\n'),
    theirs: f('First paragraph.\n\nSecond paragraph.\n\nTheirs.\n'),
    want: conflict('insert'),
  },
  {
    name: 'a blockquote and an html comment edited on different sides',
    base: f('<!-- keep -->\n\n> quote\n\n- a\n'),
    ours: f('<!-- kept -->\n\n> quote\n\n- a\n'),
    theirs: f('<!-- keep -->\n\n> quote, longer\n\n- a\n'),
    want: f('<!-- kept -->\n\n> quote, longer\n\n- a\n'),
  },
  {
    name: 'a link reference definition is a block of its own',
    base: f('See [docs].\n\n[docs]: https://example.com/old\n\n- a\n'),
    ours: f('See [docs].\n\n[docs]: https://example.com/new\n\n- a\n'),
    theirs: f('See [docs].\n\n[docs]: https://example.com/old\n\n- a\n- b\n'),
    want: f('See [docs].\n\n[docs]: https://example.com/new\n\n- a\n- b\n'),
  },
  {
    name: 'one bullet added in two places (a new list on one side, in place of a paragraph on the other)',
    base: f('Text.\n'),
    ours: f('Text.\n\n* c\n'),
    theirs: f('* c\n'),
    want: conflict('duplicate'),
  },
  {
    name: 'a table edited two ways',
    base: f('| a | b |\n|---|---|\n| 1 | 2 |\n'),
    ours: f('| a | b |\n|---|---|\n| 1 | 3 |\n'),
    theirs: f('| a | b |\n|---|---|\n| 4 | 2 |\n'),
    want: conflict('edit'),
  },
];

const CASES: Case[] = [...LIST_CASES, ...code, ...sections, ...prose];

describe('the markdown merge corpus: lists, code, sections, prose', () => {
  it('has at least 50 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(50));
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => checkCase(c));
});
