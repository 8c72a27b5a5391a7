import { describe, expect, it } from 'vitest';
import { compileContext } from './compile-context.js';
import { promptParts, type CommittedFile } from './compile-prompt.js';

const block = (name: string, chars: number): CommittedFile => ({
  path: `system/${name}.md`,
  content: `---\ndescription: ${name} block\n---\n${'x'.repeat(chars)}\n`,
});
const note = (i: number): CommittedFile => ({
  path: `notes/n${String(i).padStart(4, '0')}.md`,
  content: `---\ndescription: note ${i}\n---\nbody\n`,
});

describe('compileContext (a harness session context)', () => {
  it('holds every block, the tree and the header when they fit', () => {
    const text = compileContext(
      promptParts([block('persona', 50), block('project', 100), note(1)]),
      { agentId: 'a1', revision: 'abc' },
      10_000,
    );
    expect(text).toContain('# Memory (gitmem of agent "a1", commit abc)');
    expect(text).toContain('<project>');
    expect(text).toContain('<self>');
    expect(text).toContain('n0001.md');
    expect(text).not.toContain('not shown here');
  });

  it('stays within the cap: the blocks that fit, the tree in what is left, and the names of the rest', () => {
    const files = [
      ...Array.from({ length: 12 }, (_, i) => block(`b${String(i).padStart(2, '0')}`, 1_100)),
      ...Array.from({ length: 1_000 }, (_, i) => note(i)),
    ];
    const text = compileContext(promptParts(files), { agentId: 'a1' }, 10_000);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text).toContain('<b00>');
    expect(text).not.toContain('<b11>');
    expect(text).toMatch(/\d+ system\/ file\(s\) are not shown here .*system\/b11\.md/s);
    expect(text).toContain('<memory_filesystem');
  });

  it('keeps a notice within the cap, and is byte-identical for the same parts', () => {
    const files = Array.from({ length: 12 }, (_, i) => block(`b${i}`, 1_100));
    const a = compileContext(promptParts(files), { notice: 'NOTICE-LINE' }, 10_000);
    const b = compileContext(promptParts([...files].reverse()), { notice: 'NOTICE-LINE' }, 10_000);
    expect(a).toBe(b);
    expect(a.length).toBeLessThanOrEqual(10_000);
    expect(a).toContain('NOTICE-LINE');
  });

  it('never exceeds a small cap', () => {
    for (const cap of [300, 800, 2_000]) {
      const text = compileContext(promptParts([block('persona', 5_000), block('x', 5_000)]), {}, cap);
      expect(text.length).toBeLessThanOrEqual(cap);
    }
  });
});
