import { describe, expect, it } from 'vitest';
import { checkPreservation, MAX_LISTED, normalizeFactLine } from './defrag-preserve.js';

const md = (description: string, body: string): string => `---\ndescription: ${description}\n---\n${body}`;

describe('checkPreservation', () => {
  it('a split that moves every line into new files drops nothing, whatever the headings and markers', () => {
    const before = new Map([
      [
        'system/human.md',
        md('The user', '# Human\n- Prefers tabs.\n- Lives in Lisbon.\n\n## Work\nShips with `make ship`.\n'),
      ],
    ]);
    const after = new Map([
      ['system/human.md', md('Index of the user', '# Human\nSee [[human/prefs.md]] and [[human/work.md]].\n')],
      ['human/prefs.md', md('Preferences', '## Preferences\n* prefers tabs.\n* Lives in   Lisbon.\n')],
      ['human/work.md', md('Work habits', '1. Ships with `make ship`.\n')],
    ]);
    expect(checkPreservation(before, after)).toEqual({ checked: 3, droppedCount: 0, dropped: [] });
  });

  it('a merge that joins two lines into one sentence keeps both; a renamed link target is not a drop', () => {
    const before = new Map([
      ['a.md', md('A', 'Deploys go out on Fridays\n')],
      ['b.md', md('B', 'no deploys after 4pm\nDetails: [[old/place.md]]\n')],
    ]);
    const after = new Map([
      [
        'ops/deploys.md',
        md('Deploys', 'Deploys go out on Fridays; no deploys after 4pm.\nDetails: [[ops/place.md]]\n'),
      ],
    ]);
    expect(checkPreservation(before, after).droppedCount).toBe(0);
  });

  it('names a deleted fact with its path and line (frontmatter counted), and ignores a changed description', () => {
    const before = new Map([['system/human.md', md('Old', 'Prefers tabs.\nAllergic to peanuts.\n')]]);
    const after = new Map([['system/human.md', md('New description', 'Prefers tabs.\n')]]);
    expect(checkPreservation(before, after)).toEqual({
      checked: 2,
      droppedCount: 1,
      dropped: [{ path: 'system/human.md', line: 5, text: 'Allergic to peanuts.' }],
    });
  });

  it("checks every text file: a skill's script losing a line is a drop; only markdown has frontmatter", () => {
    const script = '---\nnot frontmatter in a script\n---\necho deploy\n';
    const before = new Map([['skills/ship/scripts/ship.sh', script]]);
    const after = new Map([['skills/ship/scripts/ship.sh', '---\n---\necho deploy\n']]);
    expect(checkPreservation(before, after).dropped).toEqual([
      { path: 'skills/ship/scripts/ship.sh', line: 2, text: 'not frontmatter in a script' },
    ]);
  });

  it('counts every drop but lists at most MAX_LISTED', () => {
    const body = Array.from({ length: MAX_LISTED + 7 }, (_, i) => `fact number ${i}`).join('\n');
    const r = checkPreservation(new Map([['x.md', body]]), new Map());
    expect(r.droppedCount).toBe(MAX_LISTED + 7);
    expect(r.dropped).toHaveLength(MAX_LISTED);
  });

  it('normalises markers, links, case and whitespace; structure lines carry no fact', () => {
    expect(normalizeFactLine('  > - [x] Use **Bun**  see [docs](a/b.md) ')).toBe('use **bun** see [docs]()');
    for (const l of ['', '   ', '## Heading', '---', '```ts', '| --- | :-: |']) expect(normalizeFactLine(l)).toBe('');
  });
});
