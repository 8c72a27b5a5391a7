import { describe, expect, it } from 'vitest';
import { MemoryError } from '../../errors.js';
import { parsePatch } from './parse.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

function grammarError(input: string): MemoryError {
  try {
    parsePatch(input);
  } catch (err) {
    expect(err).toBeInstanceOf(MemoryError);
    expect((err as MemoryError).code).toBe('PATCH_INVALID');
    return err as MemoryError;
  }
  throw new Error('expected parsePatch to throw');
}

describe('parsePatch: operations', () => {
  it('parses add, update with move and several hunks, and delete in order', () => {
    const ops = parsePatch(
      patch(
        '*** Add File: notes/new.md',
        '+first',
        '+',
        '+third',
        '*** Update File: system/human.md',
        '*** Move to: system/person.md',
        '@@ some section',
        ' keep',
        '-old',
        '+new',
        '',
        '@@',
        ' tail',
        '*** Delete File: notes/gone.md',
      ),
    );
    expect(ops).toEqual([
      { type: 'add', path: 'notes/new.md', lines: ['first', '', 'third'] },
      {
        type: 'update',
        path: 'system/human.md',
        moveTo: 'system/person.md',
        hunks: [
          {
            lines: [
              { kind: ' ', text: 'keep' },
              { kind: '-', text: 'old' },
              { kind: '+', text: 'new' },
              { kind: ' ', text: '' },
            ],
            endOfFile: false,
          },
          { lines: [{ kind: ' ', text: 'tail' }], endOfFile: false },
        ],
      },
      { type: 'delete', path: 'notes/gone.md' },
    ]);
  });

  it('accepts CRLF input, indented directives and blank lines between directives', () => {
    const input = patch('', '  *** Delete File: a.md  ', '', '*** Update File: b.md', '@@', '-x', '+y').replace(
      /\n/g,
      '\r\n',
    );
    expect(parsePatch(`  ${input}\r\n\r\n`)).toEqual([
      { type: 'delete', path: 'a.md' },
      {
        type: 'update',
        path: 'b.md',
        hunks: [
          {
            lines: [
              { kind: '-', text: 'x' },
              { kind: '+', text: 'y' },
            ],
            endOfFile: false,
          },
        ],
      },
    ]);
  });

  it('accepts *** End of File as a hunk terminator that anchors the hunk at the end', () => {
    const ops = parsePatch(
      patch('*** Update File: a.md', '@@', ' last', '+appended', '*** End of File', '@@', ' other'),
    );
    expect(ops[0]).toEqual({
      type: 'update',
      path: 'a.md',
      hunks: [
        {
          lines: [
            { kind: ' ', text: 'last' },
            { kind: '+', text: 'appended' },
          ],
          endOfFile: true,
        },
        { lines: [{ kind: ' ', text: 'other' }], endOfFile: false },
      ],
    });
  });

  it('keeps a context line whose text is "*** End of File" (leading space) as context', () => {
    const ops = parsePatch(patch('*** Update File: a.md', '@@', ' *** End of File', '+x'));
    expect(ops[0]).toMatchObject({
      hunks: [
        {
          lines: [
            { kind: ' ', text: '*** End of File' },
            { kind: '+', text: 'x' },
          ],
          endOfFile: false,
        },
      ],
    });
  });

  it('ends an Add File body at any *** marker line', () => {
    const ops = parsePatch(patch('*** Add File: a.md', '+one', '*** Add File: b.md', '+two'));
    expect(ops.map((o) => o.path)).toEqual(['a.md', 'b.md']);
  });
});

describe('parsePatch: grammar errors', () => {
  it('requires *** Begin Patch on the very first line', () => {
    const err = grammarError(`\n${patch('*** Delete File: a.md')}`);
    expect(err.message).toBe('memory_apply_patch: patch must start with "*** Begin Patch"');
    expect(err.data).toEqual({ line: 1 });
  });

  it('requires *** End Patch', () => {
    expect(grammarError('*** Begin Patch\n*** Delete File: a.md').message).toBe(
      'memory_apply_patch: patch must end with "*** End Patch"',
    );
  });

  it('refuses non-blank content after *** End Patch', () => {
    const err = grammarError(`${patch('*** Delete File: a.md')}\n\nextra`);
    expect(err.message).toBe('memory_apply_patch: unexpected content after *** End Patch');
    expect(err.data).toEqual({ line: 5 });
  });

  it('refuses an Add File line without + (an empty line included)', () => {
    const err = grammarError(patch('*** Add File: a.md', '+one', '', '+two'));
    expect(err.message).toBe("memory_apply_patch: invalid Add File line at 4: expected '+' prefix");
    expect(err.data).toEqual({ line: 4 });
  });

  it('refuses an Add File with no + lines', () => {
    expect(grammarError(patch('*** Add File: a.md', '*** Delete File: b.md')).message).toBe(
      'memory_apply_patch: Add File for a.md must include at least one + line',
    );
  });

  it('refuses an Update File body that does not start with @@', () => {
    const err = grammarError(patch('*** Update File: a.md', ' context'));
    expect(err.message).toBe("memory_apply_patch: invalid Update File body at 3: expected '@@' hunk header");
    expect(err.data).toEqual({ line: 3 });
  });

  it('refuses a hunk line with another prefix', () => {
    const err = grammarError(patch('*** Update File: a.md', '@@', ' ok', 'bad line'));
    expect(err.message).toBe("memory_apply_patch: invalid hunk line at 5: expected one of ' ', '+', '-'");
  });

  it('refuses an Update File with no hunks', () => {
    expect(grammarError(patch('*** Update File: a.md')).message).toBe(
      'memory_apply_patch: Update File for a.md has no hunks',
    );
    expect(grammarError(patch('*** Update File: a.md', '*** Move to: b.md')).message).toBe(
      'memory_apply_patch: Update File for a.md has no hunks',
    );
  });

  it('refuses an unknown directive, with its line number', () => {
    const err = grammarError(patch('*** Delete File: a.md', '*** Rename File: b.md'));
    expect(err.message).toBe('memory_apply_patch: unknown patch directive at line 3: *** Rename File: b.md');
    expect(err.data).toEqual({ line: 3 });
  });

  it('refuses *** End of File outside a hunk as an unknown directive', () => {
    expect(grammarError(patch('*** Add File: a.md', '+x', '*** End of File')).message).toBe(
      'memory_apply_patch: unknown patch directive at line 4: *** End of File',
    );
  });

  it('refuses a patch with no file operations', () => {
    expect(grammarError(patch('', '  ')).message).toBe('memory_apply_patch: no file operations found in patch');
  });
});
