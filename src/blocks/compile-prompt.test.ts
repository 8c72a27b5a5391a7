import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { compilePrompt, tagName, type CommittedFile } from './compile-prompt.js';
import { defaultMemoryFiles } from './defaults.js';
import { buildPresetPrompt } from './presets.js';

const md = (description: string, body: string, extra = ''): string =>
  `---\ndescription: ${description}\n${extra}---\n${body}`;

const FILES: CommittedFile[] = [
  { path: 'system/persona.md', content: md('Who I am', '\nI am a careful helper.\n\n') },
  { path: 'system/human.md', content: md('The user', 'Prefers pnpm.\n') },
  { path: 'system/project/gotchas.md', content: md('Traps', 'Run tests with --runInBand.\n') },
  { path: 'system/project.md', content: md('The project', 'A CLI.\n', 'read_only: true\n') },
  { path: 'system/my notes/2024.md', content: md('Odd names', 'odd\n') },
  { path: 'system/broken.md', content: 'no frontmatter at all\n' },
  { path: 'notes/ideas.md', content: md('Ideas for later', 'x\n') },
  { path: 'notes/bad.md', content: '---\ndescription: never closed\n' },
  { path: 'reference/api.md', content: md('API notes', 'y\n') },
  { path: 'assets/logo.png', content: 'PNG' },
  { path: 'skills/release/SKILL.md', content: '---\nname: release\ndescription: How to cut a release\n---\nsteps\n' },
  { path: 'skills/release/run.sh', content: 'echo hi\n' },
  { path: 'skills/stray.md', content: md('A skill in the wrong place', 'z\n') },
  { path: '.gitignore', content: 'tmp/\n' },
  { path: '.gitmem/state.json', content: '{}' },
];

/** Searches only the compiled part (the preset text above it mentions the same tag names). */
function between(text: string, open: string, close: string): string {
  const start = text.indexOf(open, text.indexOf('\n# Memory\n'));
  const end = text.indexOf(close, start);
  expect(start, open).toBeGreaterThanOrEqual(0);
  expect(end, close).toBeGreaterThan(start);
  return text.slice(start, end + close.length);
}

describe('compilePrompt', () => {
  it('is byte-identical for the same files and options, whatever their order', () => {
    const opts = { revision: 'abc1234', agentId: 'agent-1' };
    const a = compilePrompt(FILES, opts);
    const b = compilePrompt([...FILES].reverse(), opts);
    const c = compilePrompt(
      FILES.map((f) => ({ ...f })),
      { ...opts },
    );
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(a).not.toMatch(/\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}/); // no timestamps
  });

  it('starts with the preset text for the mode and defaults to default/local-memfs', () => {
    expect(compilePrompt(FILES).startsWith(`${buildPresetPrompt('gitmem', 'local-memfs')}\n\n# Memory`)).toBe(true);
    expect(compilePrompt(FILES, { mode: 'memfs' }).startsWith(buildPresetPrompt('gitmem', 'memfs'))).toBe(true);
    expect(
      compilePrompt(FILES, { preset: 'concise', mode: 'memfs' }).startsWith(buildPresetPrompt('concise', 'memfs')),
    ).toBe(true);
  });

  it('renders the persona as <self> with its projection and the trimmed body', () => {
    const self = between(compilePrompt(FILES), '<self>', '</self>');
    expect(self).toBe(
      [
        '<self>',
        '<projection>$MEMORY_DIR/system/persona.md</projection>',
        '<description>Who I am</description>',
        'I am a careful helper.',
        '</self>',
      ].join('\n'),
    );
  });

  it('nests the other system files as sanitised tags with projection, description and verbatim body', () => {
    const memory = between(compilePrompt(FILES, { memoryDirLabel: '/home/me/mem' }), '<memory>', '</memory>');
    expect(memory).toContain(
      [
        '  <project>',
        '    <projection>/home/me/mem/system/project.md</projection>',
        '    <description>The project</description>',
        '    <read_only>true — do not edit this block</read_only>',
        'A CLI.',
        '    <gotchas>',
        '      <projection>/home/me/mem/system/project/gotchas.md</projection>',
        '      <description>Traps</description>',
        'Run tests with --runInBand.',
        '    </gotchas>',
        '  </project>',
      ].join('\n'),
    );
    expect(memory).toContain(
      '  <my_notes>\n    <_2024>\n      <projection>/home/me/mem/system/my notes/2024.md</projection>',
    );
    expect(memory).not.toContain('persona');
    const tags = [...memory.matchAll(/^ {2}<([^/>]+)>$/gm)].map((m) => m[1]);
    expect(tags).toEqual(['broken', 'human', 'my_notes', 'project']); // sorted by path
    expect(tagName('a<b>"c')).toBe('a_b__c');
  });

  it('shows a file with broken frontmatter with a visible note instead of dropping it', () => {
    const out = compilePrompt(FILES);
    expect(out).toContain('  <broken>\n    <projection>$MEMORY_DIR/system/broken.md</projection>\n    <error>');
    expect(out).toContain('no frontmatter at all');
    expect(out).toContain('bad.md — (frontmatter invalid)');
  });

  it('lists non-system files with descriptions in a read-only memory_filesystem tree; skills go to <available_skills>', () => {
    const out = compilePrompt(FILES, { agentId: 'agent-1', revision: 'r1' });
    const fsBlock = between(out, '<memory_filesystem read_only="true">', '</memory_filesystem>');
    expect(fsBlock).toMatch(/read-only/);
    expect(fsBlock).toContain('$MEMORY_DIR/\n├── assets/\n│   └── logo.png\n');
    expect(fsBlock).toContain('│   └── ideas.md — Ideas for later');
    expect(fsBlock).toContain('api.md — API notes');
    expect(fsBlock).toContain('stray.md — A skill in the wrong place');
    expect(fsBlock).toContain('└── system/\n');
    expect(fsBlock).not.toMatch(/SKILL\.md|run\.sh|\.gitignore|\.gitmem|Who I am/);
    const skills = between(out, '<available_skills>', '</available_skills>');
    expect(skills).toContain('- release: How to cut a release ($MEMORY_DIR/skills/release/SKILL.md)');
    expect(between(out, '<memory_metadata>', '</memory_metadata>')).toBe(
      '<memory_metadata>\nagent_id: agent-1\nmemory_revision: r1\n</memory_metadata>',
    );
  });

  it('always shows system/ in the tree and truncates it with the given limits', () => {
    const out = compilePrompt([], { treeLimits: { maxLines: 500, maxChars: 20_000, maxChildrenPerDir: 50 } });
    expect(out).toContain('$MEMORY_DIR/\n└── system/\n</memory_filesystem>');
    expect(out).toContain('<memory>\n(no other memory blocks yet');
    expect(out.slice(out.indexOf('\n# Memory\n'))).not.toContain('<self>');
    const many = Array.from({ length: 100 }, (_, i) => ({ path: `notes/n${i}.md`, content: md(`note ${i}`, 'b\n') }));
    const small = compilePrompt(many, { treeLimits: { maxLines: 6, maxChars: 20_000, maxChildrenPerDir: 50 } });
    expect(small).toMatch(/\[Tree truncated: showing \d+ of 102 entries\. \d+ omitted\.\]\n<\/memory_filesystem>/);
  });

  it('standard mode renders the blocks without projections, tree or skills', () => {
    const out = compilePrompt(FILES, { mode: 'standard', revision: 'r9' });
    expect(out.startsWith(buildPresetPrompt('gitmem', 'standard'))).toBe(true);
    expect(out).toContain('<self>\n<description>Who I am</description>\nI am a careful helper.\n</self>');
    expect(out).toContain('<gotchas>');
    expect(out).not.toMatch(/\$MEMORY_DIR|<projection>|memory_filesystem|available_skills/);
  });

  it('changes when committed content changes, and rejects duplicate paths and unknown presets', () => {
    const before = compilePrompt(FILES);
    const edited = FILES.map((f) =>
      f.path === 'system/human.md' ? { ...f, content: md('The user', 'Prefers npm.\n') } : f,
    );
    expect(compilePrompt(edited)).not.toBe(before);
    expect(() => compilePrompt([...FILES, { path: './system/human.md', content: 'x' }])).toThrow(/duplicate/);
    try {
      compilePrompt(FILES, { preset: 'nope' });
      expect.unreachable();
    } catch (err) {
      expect(isMemoryError(err, 'UNKNOWN_PRESET')).toBe(true);
    }
  });

  it('compiles the init defaults into <self> and a <human> block', () => {
    const out = compilePrompt(defaultMemoryFiles());
    expect(out).toContain('<self>\n<projection>$MEMORY_DIR/system/persona.md</projection>');
    expect(out).toContain('  <human>\n    <projection>$MEMORY_DIR/system/human.md</projection>');
  });
});
