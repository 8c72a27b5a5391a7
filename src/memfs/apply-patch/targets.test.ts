import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../../errors.js';
import { planPatch } from './plan.js';
import { patchTargets } from './targets.js';

const DIR = '/srv/agents/a1/memory';
const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');

describe('patchTargets', () => {
  it('names every Add, Update, Move to and Delete path, normalised; a bad path is left to the plan', () => {
    const input = patch(
      '*** Add File: notes/a',
      '+x',
      `*** Update File: ${DIR}/shared/team/b.md`,
      '*** Move to: shared/team/c.md',
      '@@',
      '-x',
      '+y',
      '*** Delete File: ../escape.md',
      '*** Delete File: .git/config',
    );
    expect(patchTargets(input, DIR)).toEqual([
      { raw: 'notes/a', file: 'notes/a.md' },
      { raw: `${DIR}/shared/team/b.md`, file: 'shared/team/b.md' },
      { raw: 'shared/team/c.md', file: 'shared/team/c.md' },
    ]);
  });

  it('throws the parser error for a malformed patch', () => {
    expect(() => patchTargets('*** Add File: a.md\n+x', DIR)).toThrow(/Begin Patch/);
  });
});

describe('planPatch within a routed directory', () => {
  const fs = { read: (f: string) => (f === 'b.md' ? '---\ndescription: b\n---\nx\n' : null) };

  it('plans paths relative to it', () => {
    const plan = planPatch(
      patch('*** Update File: shared/team/b.md', '*** Move to: shared/team/notes/c.md', '@@', '-x', '+y'),
      fs,
      { memoryDir: DIR, within: 'shared/team' },
    );
    expect(plan.paths).toEqual(['b.md', 'notes/c.md']);
    expect(plan.deletes).toEqual(['b.md']);
  });

  it('refuses a path outside it before anything is planned', () => {
    let err: unknown;
    try {
      planPatch(patch('*** Add File: shared/teams/x.md', '+x'), fs, { memoryDir: DIR, within: 'shared/team' });
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'INVALID_ARGUMENT'), String(err)).toBe(true);
    expect((err as Error).message).toMatch(/shared\/teams\/x\.md is not under shared\/team\//);
  });
});
