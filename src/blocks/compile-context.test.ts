import { describe, expect, it } from 'vitest';
import { compileContext } from './compile-context.js';
import { promptParts, type CommittedFile } from './compile-prompt.js';
import { LAYOUTS, layoutRow } from './layouts.js';

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

  describe('index layout', () => {
    const topic = (path: string, chars = 20): CommittedFile => ({
      path,
      content: `---\nname: ${path.slice(0, -3)}\ndescription: about ${path}\n---\n${'t'.repeat(chars)}\n`,
    });
    const index = (lines: number): CommittedFile => ({
      path: 'MEMORY.md',
      content: `${Array.from({ length: lines }, (_, i) => `- [t${i}](lang/t${i}.md): topic ${i}`).join('\n')}\n`,
    });
    const repo = (lines: number, chars = 20): CommittedFile[] => [
      index(lines),
      topic('persona.md', chars),
      topic('human.md', chars),
      topic('lang/t0.md'),
      { path: 'lang/MEMORY.md', content: '- [t0](t0.md): zero\n' },
    ];

    it('gives the root MEMORY.md, the root files and the deferred directories, as compilePrompt does', () => {
      const text = compileContext(promptParts(repo(3), LAYOUTS.index), { agentId: 'a1' }, 10_000);
      expect(text).toContain('The root MEMORY.md index');
      expect(text).not.toContain('system/');
      expect(text).toContain('<MEMORY>\n    <projection>MEMORY.md</projection>');
      expect(text).toContain('- [t2](lang/t2.md): topic 2');
      expect(text).toContain('<self>\n<projection>persona.md</projection>');
      expect(text).toContain('<human>');
      expect(text).toContain('<deferred-memory>');
      expect(text).toContain('<directory path="lang" index="lang/MEMORY.md"/>');
      expect(text).not.toContain('WARNING');
    });

    it("cuts MEMORY.md at its budget's 200 lines with Claude Code's warning (the budget configurable)", () => {
      const text = compileContext(promptParts(repo(250), LAYOUTS.index), {}, 20_000);
      expect(text).toContain('- [t199](lang/t199.md): topic 199\n\n> WARNING: MEMORY.md is 250 lines (limit: 200).');
      expect(text).toContain(
        '50 of 250 lines were cut off, starting at line 201 ("- [t200](lang/t200.md): topic 200")',
      );
      expect(text).not.toContain('topic 200\n');
      const small = compileContext(promptParts(repo(250), layoutRow('index', { lines: 10, bytes: 1e6 })), {}, 20_000);
      expect(small).toContain('topic 9\n\n> WARNING: MEMORY.md is 250 lines (limit: 10).');
    });

    it('puts the root index first and cuts it at a line when the cap is smaller than its budget', () => {
      const text = compileContext(promptParts(repo(200, 3_000), LAYOUTS.index), {}, 4_000);
      expect(text.length).toBeLessThanOrEqual(4_000);
      expect(text).toContain('- [t0](lang/t0.md): topic 0\n');
      expect(text).toMatch(
        /: topic \d+\n\n> The rest of MEMORY\.md is not shown here because the session context has a size cap/,
      );
      expect(text).toMatch(/2 root memory file\(s\) are not shown here .*persona\.md, human\.md\./s);
      for (const cap of [300, 800, 2_000]) {
        const t = compileContext(promptParts(repo(200, 3_000), LAYOUTS.index), {}, cap);
        expect(t.length).toBeLessThanOrEqual(cap);
      }
    });
  });
});
