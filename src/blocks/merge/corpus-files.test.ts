// The merge corpus, continued: frontmatter, whole files (adds, deletes, renames, protected paths) and the timeline.
import { describe, expect, it } from 'vitest';
import { checkCase, conflict, crlf, f, LIST, type Case } from '../../../test/helpers/merge-corpus.js';

const FM = '---\ndescription: Work notes\nlimit: 2000\n---\n- a\n';
const frontmatter: Case[] = [
  {
    name: 'description changed on one side, bullets on both',
    base: f('- a\n'),
    ours: f('- a\n- ours\n', 'How Ana works'),
    theirs: f('- a\n- theirs\n'),
    want: f('- a\n- ours\n- theirs\n', 'How Ana works'),
  },
  {
    name: 'description changed the same way on both sides',
    base: f('- a\n'),
    ours: f('- a\n- ours\n', 'New'),
    theirs: f('- a\n- theirs\n', 'New'),
    want: f('- a\n- ours\n- theirs\n', 'New'),
  },
  {
    name: 'description changed two ways',
    base: f('- a\n'),
    ours: f('- a\n', 'Ours'),
    theirs: f('- a\n', 'Theirs'),
    want: conflict('field'),
  },
  {
    name: 'limit added on one side, description changed on the other',
    base: f('- a\n'),
    ours: f('- a\n', 'Work notes', 'limit: 3000\n'),
    theirs: f('- a\n', 'Changed'),
    want: f('- a\n', 'Changed', 'limit: 3000\n'),
  },
  {
    name: 'limit changed two ways',
    base: FM,
    ours: FM.replace('2000', '3000'),
    theirs: FM.replace('2000', '4000'),
    want: conflict('field'),
  },
  {
    name: 'limit changed on one side, description on the other',
    base: FM,
    ours: FM.replace('2000', '3000'),
    theirs: FM.replace('Work notes', 'Changed'),
    want: '---\ndescription: Changed\nlimit: 3000\n---\n- a\n',
  },
  {
    name: 'limit removed on one side, description changed on the other',
    base: FM,
    ours: FM.replace('limit: 2000\n', ''),
    theirs: FM.replace('Work notes', 'Changed'),
    want: '---\ndescription: Changed\n---\n- a\n',
  },
  {
    name: 'frontmatter comments and quoting stay as ours wrote them',
    base: '---\n# what this file is\ndescription: "Work: notes"\n---\n- a\n',
    ours: '---\n# what this file is\ndescription: "Work: notes, ours"\n---\n- a\n',
    theirs: '---\n# what this file is\ndescription: "Work: notes"\nlimit: 500\n---\n- a\n',
    want: '---\n# what this file is\ndescription: "Work: notes, ours"\nlimit: 500\n---\n- a\n',
  },
  {
    name: 'a read_only file is never merged',
    base: f('- a\n', 'Rules', 'read_only: true\n'),
    ours: f('- a\n- ours\n', 'Rules', 'read_only: true\n'),
    theirs: f('- a\n- theirs\n', 'Rules', 'read_only: true\n'),
    want: conflict('read_only'),
  },
  {
    name: 'a path on the protected list is never merged',
    base: f('- a\n'),
    ours: f('- a\n- ours\n'),
    theirs: f('- a\n- theirs\n'),
    protectedPaths: ['notes/work.md'],
    want: conflict('read_only'),
  },
  {
    name: 'read_only set on one side',
    base: f('- a\n'),
    ours: f('- a\n- ours\n'),
    theirs: f('- a\n', 'Work notes', 'read_only: yes\n'),
    want: conflict('read_only'),
  },
  {
    name: 'frontmatter that does not parse on one side',
    base: f('- a\n'),
    ours: '---\ndescription: [broken\n---\n- a\n',
    theirs: f('- a\n', 'Changed'),
    want: conflict('frontmatter_invalid'),
  },
  {
    name: 'frontmatter removed on one side, changed on the other',
    base: f('- a\n'),
    ours: '- a\n- ours\n',
    theirs: f('- a\n', 'Changed'),
    want: conflict('frontmatter_removed'),
  },
  {
    name: 'an unknown key from one side makes the result break the rules',
    base: f('- a\n'),
    ours: f('- a\n- ours\n'),
    theirs: f('- a\n- theirs\n', 'Work notes', 'tags: x\n'),
    want: conflict('invalid_result'),
  },
  {
    name: 'a SKILL.md merges its own fields',
    path: 'skills/deploy/SKILL.md',
    base: '---\nname: deploy\ndescription: Deploys\n---\n- step\n',
    ours: '---\nname: deploy\ndescription: Deploys the app\n---\n- step\n',
    theirs: '---\nname: deploy\ndescription: Deploys\nlicense: MIT\n---\n- step\n',
    want: '---\nname: deploy\ndescription: Deploys the app\nlicense: MIT\n---\n- step\n',
  },
];

const files: Case[] = [
  {
    name: 'CRLF on all sides stays CRLF',
    base: crlf(LIST),
    ours: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n')),
    theirs: crlf(f('# Work\n\n- a\n- b\n- c\n- theirs\n')),
    want: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')),
  },
  {
    name: 'ours CRLF, theirs LF: the result is CRLF',
    base: crlf(LIST),
    ours: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n')),
    theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'),
    want: crlf(f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')),
  },
  {
    name: 'ours LF, theirs CRLF: the result is LF',
    base: LIST,
    ours: f('# Work\n\n- a\n- b\n- c\n- ours\n'),
    theirs: crlf(f('# Work\n\n- a\n- b\n- c\n- theirs\n')),
    want: f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n'),
  },
  {
    name: "ours' BOM is kept",
    base: `\ufeff${LIST}`,
    ours: `\ufeff${f('# Work\n\n- a\n- b\n- c\n- ours\n')}`,
    theirs: f('# Work\n\n- a\n- b\n- c\n- theirs\n'),
    want: `\ufeff${f('# Work\n\n- a\n- b\n- c\n- ours\n- theirs\n')}`,
  },
  {
    name: 'empty base: both created the file with different bullets',
    base: null,
    ours: f('- ours\n'),
    theirs: f('- theirs\n'),
    want: f('- ours\n- theirs\n'),
  },
  {
    name: 'empty base: both created the file with different descriptions',
    base: null,
    ours: f('- ours\n', 'Ours'),
    theirs: f('- theirs\n', 'Theirs'),
    want: conflict('field'),
  },
  {
    name: 'empty base: both created the file with different paragraphs',
    base: null,
    ours: f('Ours.\n'),
    theirs: f('Theirs.\n'),
    want: conflict('insert'),
  },
  {
    name: 'the final newline removed on one side, a bullet appended on the other',
    base: f('- a\n- b\n'),
    ours: f('- a\n- b'),
    theirs: f('- a\n- b\n- c\n'),
    want: f('- a\n- b\n- c'),
  },
  {
    name: 'no final newline in the base, bullets appended on both sides',
    base: f('- a'),
    ours: f('- a\n- ours\n'),
    theirs: f('- a\n- theirs\n'),
    want: f('- a\n- ours\n- theirs\n'),
  },
  {
    name: 'the end of the file changed two ways',
    base: f('- a\n- b\n'),
    ours: f('- A\n- b'),
    theirs: f('- a\n- B\n\n\n'),
    want: conflict('whitespace'),
  },
  {
    name: 'unicode: CJK, emoji and accents',
    base: f('# 偏好\n\n- 周三在家办公\n'),
    ours: f('# 偏好\n\n- 周三在家办公\n- 喜欢简短的回答 😀\n'),
    theirs: f('# 偏好\n\n- 周三在家办公\n- café au lait ☕\n'),
    want: f('# 偏好\n\n- 周三在家办公\n- 喜欢简短的回答 😀\n- café au lait ☕\n'),
  },
  {
    name: 'a memory file without frontmatter is a conflict (the result breaks the rules)',
    base: '- a\n',
    ours: '- a\n- ours\n',
    theirs: '- a\n- theirs\n',
    want: conflict('invalid_result'),
  },
  {
    name: 'a markdown file outside memory merges without frontmatter',
    path: '.github/notes.md',
    base: '- a\n',
    ours: '- a\n- ours\n',
    theirs: '- a\n- theirs\n',
    want: '- a\n- ours\n- theirs\n',
  },
  {
    name: 'a file over the size cap',
    base: LIST,
    ours: f(`- ${'x'.repeat(70_000)}\n`),
    theirs: f('- y\n'),
    want: conflict('too_large'),
  },
  { name: 'a NUL character', base: LIST, ours: f('- a\0\n'), theirs: f('- y\n'), want: conflict('unsupported') },
];

// A primary edit at 10:00 and a worker's edit of the same file at 10:05 (base: the worker's starting point).
const WORK = f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n', 'How Ana works');
const timeline: Case[] = [
  {
    name: 'timeline: primary adds a bullet at 10:00, the worker another at 10:05 — merged',
    base: WORK,
    ours: f(
      '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- From next week: works from home on Wednesdays\n',
      'How Ana works',
    ),
    theirs: f(
      '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Team standup at 9:30 on Mondays\n',
      'How Ana works',
    ),
    want: f(
      '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- From next week: works from home on Wednesdays\n- Team standup at 9:30 on Mondays\n',
      'How Ana works',
    ),
  },
  {
    name: "timeline: both rewrite the same bullet — the worker's branch is kept",
    base: WORK,
    ours: f(
      '# Office\n\n- In the office Monday, Tuesday, Thursday, Friday; home on Wednesdays\n- Prefers short answers\n',
      'How Ana works',
    ),
    theirs: f('# Office\n\n- Hybrid: office three days, home two\n- Prefers short answers\n', 'How Ana works'),
    want: conflict('edit'),
  },
];

const CASES: Case[] = [...frontmatter, ...files, ...timeline];

describe('the markdown merge corpus: frontmatter, files, timeline', () => {
  it('has at least 30 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(30));
  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => checkCase(c));
});
