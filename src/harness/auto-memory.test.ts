import { describe, expect, it } from 'vitest';
import {
  commitReason,
  denyOutput,
  relativeInside,
  resultingText,
  strayReason,
  toolWrite,
  WRITE_TOOL_MATCHER,
} from './auto-memory.js';

const M = '/home/u/.gitmem/agents/a1/memory';

describe('auto memory: which tool calls write into the checkout', () => {
  it('takes absolute paths inside the checkout only (never .git, never above, never relative)', () => {
    expect(relativeInside(M, `${M}/topic.md`)).toBe('topic.md');
    expect(relativeInside(M, `${M}/dir/x.md`)).toBe('dir/x.md');
    expect(relativeInside(M, `${M}/../memory/x.md`)).toBe('x.md');
    expect(relativeInside(M, `${M}/../other/x.md`)).toBeUndefined();
    expect(relativeInside(M, `${M}-evil/x.md`)).toBeUndefined();
    expect(relativeInside(M, `${M}/.git/config`)).toBeUndefined();
    expect(relativeInside(M, `${M}/a/.GIT/hooks/pre-commit`)).toBeUndefined();
    expect(relativeInside(M, M)).toBeUndefined();
    expect(relativeInside(M, 'topic.md')).toBeUndefined();
    expect(relativeInside(M, `${M}/x\0.md`)).toBeUndefined();
    expect(relativeInside(M, 42)).toBeUndefined();
  });

  it('reads Write, Edit and MultiEdit inputs; other tools and malformed inputs are not writes', () => {
    expect(toolWrite(M, 'Write', { file_path: `${M}/a.md`, content: 'x' })).toEqual({
      tool: 'Write',
      path: 'a.md',
      content: 'x',
    });
    expect(
      toolWrite(M, 'Edit', { file_path: `${M}/a.md`, old_string: 'a', new_string: 'b', replace_all: true }),
    ).toEqual({ tool: 'Edit', path: 'a.md', edits: [{ oldString: 'a', newString: 'b', replaceAll: true }] });
    expect(
      toolWrite(M, 'MultiEdit', {
        file_path: `${M}/a.md`,
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd' },
        ],
      })?.tool,
    ).toBe('MultiEdit');
    expect(toolWrite(M, 'MultiEdit', { file_path: `${M}/a.md`, edits: [{ old_string: 'a' }] })).toBeUndefined();
    expect(toolWrite(M, 'Write', { file_path: '/elsewhere/a.md', content: 'x' })).toBeUndefined();
    expect(toolWrite(M, 'Write', { file_path: `${M}/a.md`, content: 1 })).toBeUndefined();
    expect(toolWrite(M, 'Read', { file_path: `${M}/a.md` })).toBeUndefined();
    expect(toolWrite(M, 'Write', null)).toBeUndefined();
    expect(toolWrite(M, 'Write', [])).toBeUndefined();
    expect(WRITE_TOOL_MATCHER).toBe('Write|Edit|MultiEdit');
  });
});

describe('auto memory: the file a write leaves', () => {
  const edit = (oldString: string, newString: string, replaceAll = false) =>
    ({ tool: 'Edit', path: 'a.md', edits: [{ oldString, newString, replaceAll }] }) as const;

  it('Write is its content; Edit replaces the first match, or every one with replace_all', () => {
    expect(resultingText({ tool: 'Write', path: 'a.md', content: 'new' }, 'old')).toBe('new');
    expect(resultingText(edit('x', 'y'), 'x x x')).toBe('y x x');
    expect(resultingText(edit('x', 'y', true), 'x x x')).toBe('y y y');
    // `$&` in new_string is text, not a replacement pattern
    expect(resultingText(edit('x', '$&$&'), 'x')).toBe('$&$&');
  });

  it('MultiEdit applies its edits in order; a missing old_string means the tool writes nothing', () => {
    const multi = {
      tool: 'MultiEdit',
      path: 'a.md',
      edits: [
        { oldString: 'a', newString: 'b', replaceAll: false },
        { oldString: 'b', newString: 'c', replaceAll: true },
      ],
    } as const;
    expect(resultingText(multi, 'ab')).toBe('cc');
    expect(resultingText(edit('zz', 'y'), 'x')).toBeUndefined();
    expect(resultingText(edit('x', 'y'), undefined)).toBeUndefined();
  });

  it('an Edit with an empty old_string creates a missing or empty file, and changes nothing else', () => {
    expect(resultingText(edit('', 'fresh'), undefined)).toBe('fresh');
    expect(resultingText(edit('', 'fresh'), '')).toBe('fresh');
    expect(resultingText(edit('', 'fresh'), 'there')).toBeUndefined();
  });
});

describe('auto memory: reasons and the deny answer', () => {
  it('the commit reason names the tool and the path, and the stated intent when the call has one', () => {
    const w = { tool: 'Write', path: 'topic.md', content: '' } as const;
    expect(commitReason(w, { file_path: '/x' })).toBe('Claude Code Write topic.md');
    expect(commitReason(w, { description: '  remember\nthe build  ' })).toBe(
      'Claude Code Write topic.md: remember the build',
    );
    expect(commitReason(w, { description: 'x'.repeat(500) }).length).toBe('Claude Code Write topic.md: '.length + 200);
  });

  it('the stray commit says the hooks did not run and names the paths (five, then a count)', () => {
    expect(strayReason(['a.md'])).toMatch(/^Changes made while the gitmem hooks did not run .*: a\.md$/);
    expect(strayReason(['1', '2', '3', '4', '5', '6', '7'])).toMatch(/: 1, 2, 3, 4, 5, and 2 more$/);
  });

  it("deny is Claude Code's PreToolUse answer with the reason", () => {
    expect(JSON.parse(denyOutput('bad frontmatter'))).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'bad frontmatter',
      },
    });
  });
});
