// The merge corpus: three versions of one memory file and the exact outcome — the clean text, or the kind of
// conflict. Ours' additions come before theirs' at one place; ours' line endings and BOM are kept.
// Lists, code, sections and prose here; frontmatter, whole files and the timeline in corpus-files.test.ts.
import { describe, expect, it } from 'vitest';
import { checkCase, conflict, f, LIST, type Case } from '../../../test/helpers/merge-corpus.js';

const lists: Case[] = [
  {
    name: 'different bullets appended to one list',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n- c\n- ours\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'),
    want: f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n'),
  },
  {
    name: 'bullets inserted at different places',
    base: LIST,
    ours: f('# Work\n\n- a\n- ours\n- b\n- c\n'),
    theirs: f('# Work\n\n- a\n- b\n- theirs\n- c\n'),
    want: f('# Work\n\n- a\n- ours\n- b\n- theirs\n- c\n'),
  },
  {
    name: 'bullets inserted at the same place in the middle',
    base: LIST,
    ours: f('# Work\n\n- a\n- ours\n- b\n- c\n'),
    theirs: f('# Work\n\n- a\n- theirs\n- b\n- c\n'),
    want: f('# Work\n\n- a\n- ours\n- theirs\n- b\n- c\n'),
  },
  {
    name: 'bullets prepended on both sides',
    base: LIST,
    ours: f('# Work\n\n- ours\n- a\n- b\n- c\n'),
    theirs: f('# Work\n\n- theirs\n- a\n- b\n- c\n'),
    want: f('# Work\n\n- ours\n- theirs\n- a\n- b\n- c\n'),
  },
  {
    name: 'the same bullet added on both sides appears once',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n- c\n- same\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- same\n'),
    want: f('# Work\n\n- a\n- b\n- c\n- same\n'),
  },
  {
    name: 'a shared new bullet plus one of each',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n- c\n- same\n- ours\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- same\n- theirs\n'),
    want: f('# Work\n\n- a\n- b\n- c\n- same\n- ours\n- theirs\n'),
  },
  {
    name: 'the same bullet edited two ways',
    base: LIST,
    ours: f('# Work\n\n- a\n- b (ours)\n- c\n'),
    theirs: f('# Work\n\n- a\n- b (theirs)\n- c\n'),
    want: conflict('edit'),
  },
  {
    name: 'the same bullet edited the same way',
    base: LIST,
    ours: f('# Work\n\n- a\n- B\n- c\n- ours\n'),
    theirs: f('# Work\n\n- a\n- B\n- c\n'),
    want: f('# Work\n\n- a\n- B\n- c\n- ours\n'),
  },
  {
    name: 'a bullet deleted on one side, edited on the other',
    base: LIST,
    ours: f('# Work\n\n- a\n- c\n'),
    theirs: f('# Work\n\n- a\n- b, edited\n- c\n'),
    want: conflict('delete_edit'),
  },
  {
    name: 'a bullet edited on one side, deleted on the other',
    base: LIST,
    ours: f('# Work\n\n- a\n- b, edited\n- c\n'),
    theirs: f('# Work\n\n- a\n- c\n'),
    want: conflict('delete_edit'),
  },
  {
    name: 'the same bullet deleted on both sides',
    base: LIST,
    ours: f('# Work\n\n- a\n- c\n- ours\n'),
    theirs: f('# Work\n\n- a\n- c\n'),
    want: f('# Work\n\n- a\n- c\n- ours\n'),
  },
  {
    name: 'a deletion on one side, an addition on the other',
    base: LIST,
    ours: f('# Work\n\n- b\n- c\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'),
    want: f('# Work\n\n- b\n- c\n- d\n'),
  },
  {
    name: 'the last bullet deleted on one side, one appended on the other',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'),
    want: f('# Work\n\n- a\n- b\n- d\n'),
  },
  {
    name: 'adjacent bullets edited, one on each side',
    base: LIST,
    ours: f('# Work\n\n- A\n- b\n- c\n'),
    theirs: f('# Work\n\n- a\n- B\n- c\n'),
    want: f('# Work\n\n- A\n- B\n- c\n'),
  },
  {
    name: 'a bullet edited on one side, a bullet appended on the other',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n- C\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'),
    want: f('# Work\n\n- a\n- b\n- C\n- d\n'),
  },
  {
    name: 'a loose list keeps its blank lines',
    base: f('- a\n\n- b\n'),
    ours: f('- a\n\n- b\n\n- ours\n'),
    theirs: f('- a\n\n- b\n\n- theirs\n'),
    want: f('- a\n\n- b\n\n- ours\n\n- theirs\n'),
  },
  {
    name: 'an asterisk list',
    base: f('* a\n* b\n'),
    ours: f('* a\n* b\n* ours\n'),
    theirs: f('* a\n* b\n* theirs\n'),
    want: f('* a\n* b\n* ours\n* theirs\n'),
  },
  {
    name: 'an indented list',
    base: f('  - a\n  - b\n'),
    ours: f('  - a\n  - b\n  - ours\n'),
    theirs: f('  - a\n  - b\n  - theirs\n'),
    want: f('  - a\n  - b\n  - ours\n  - theirs\n'),
  },
  {
    name: 'a task ticked on one side, a task added on the other',
    base: f('- [ ] call Ana\n- [ ] book room\n'),
    ours: f('- [x] call Ana\n- [ ] book room\n'),
    theirs: f('- [ ] call Ana\n- [ ] book room\n- [ ] send notes\n'),
    want: f('- [x] call Ana\n- [ ] book room\n- [ ] send notes\n'),
  },
  {
    name: 'bullets reordered on one side, one appended on the other',
    base: LIST,
    ours: f('# Work\n\n- c\n- a\n- b\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- d\n'),
    want: f('# Work\n\n- c\n- a\n- b\n- d\n'),
  },
  {
    name: 'a bullet moved on one side, edited on the other',
    base: LIST,
    ours: f('# Work\n\n- b\n- c\n- a\n'),
    theirs: f('# Work\n\n- a, edited\n- b\n- c\n'),
    want: conflict('delete_edit'),
  },
  {
    name: 'one bullet moved to two different places',
    base: f('- a\n- b\n- c\n- d\n'),
    ours: f('- b\n- a\n- c\n- d\n'),
    theirs: f('- b\n- c\n- d\n- a\n'),
    want: conflict('duplicate'),
  },
  {
    name: 'the same new bullet added at two different places',
    base: LIST,
    ours: f('# Work\n\n- new\n- a\n- b\n- c\n'),
    theirs: f('# Work\n\n- a\n- b\n- c\n- new\n'),
    want: conflict('duplicate'),
  },
  {
    name: 'nested bullets added under different items',
    base: f('- a\n  - a1\n- b\n  - b1\n'),
    ours: f('- a\n  - a1\n  - a2\n- b\n  - b1\n'),
    theirs: f('- a\n  - a1\n- b\n  - b1\n  - b2\n'),
    want: f('- a\n  - a1\n  - a2\n- b\n  - b1\n  - b2\n'),
  },
  {
    name: 'nested bullets of one item changed on both sides',
    base: f('- a\n  - a1\n- b\n'),
    ours: f('- a\n  - a1\n  - ours\n- b\n'),
    theirs: f('- a\n  - a1\n  - theirs\n- b\n'),
    want: conflict('edit'),
  },
  {
    name: 'an ordered list is one block: items added on both sides conflict',
    base: f('1. one\n2. two\n'),
    ours: f('1. one\n2. two\n3. ours\n'),
    theirs: f('1. one\n2. two\n3. theirs\n'),
    want: conflict('edit'),
  },
  {
    name: 'an ordered list edited on one side, a bullet list on the other',
    base: f('1. one\n2. two\n\n- a\n'),
    ours: f('1. one\n2. TWO\n\n- a\n'),
    theirs: f('1. one\n2. two\n\n- a\n- b\n'),
    want: f('1. one\n2. TWO\n\n- a\n- b\n'),
  },
];

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

const CASES: Case[] = [...lists, ...code, ...sections, ...prose];

describe('the markdown merge corpus: lists, code, sections, prose', () => {
  it('has at least 50 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(50));
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => checkCase(c));
});
