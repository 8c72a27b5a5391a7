import { describe, expect, it } from 'vitest';
import { GitCommandError } from './git/runner.js';
import { MemoryError, isMemoryError, toMemoryError } from './errors.js';

describe('MemoryError', () => {
  it('is recognised across copies of the library (brand), with its code and data', () => {
    const foreign = Object.assign(new Error('from another bundle'), {
      code: 'NO_MATCH',
      data: {},
      [Symbol.for('gitmem.MemoryError')]: true,
    });
    expect(foreign instanceof MemoryError).toBe(true);
    expect(isMemoryError(foreign, 'NO_MATCH')).toBe(true);
    expect(new Error('plain') instanceof MemoryError).toBe(false);
  });

  it('subclasses keep the ordinary instanceof check', () => {
    const plain = new MemoryError('GIT_FAILED', 'x');
    const git = new GitCommandError('GIT_FAILED', 'y', {
      argv: [],
      stdout: '',
      stderr: '',
      exitCode: 1,
      kind: 'other',
    });
    expect(git instanceof MemoryError).toBe(true);
    expect(git instanceof GitCommandError).toBe(true);
    expect(plain instanceof GitCommandError).toBe(false);
  });

  it('serialises to code, message and data; wraps foreign errors as INTERNAL', () => {
    expect(new MemoryError('NO_CHANGES', 'same', { data: { a: 1 } }).toJSON()).toEqual({
      code: 'NO_CHANGES',
      message: 'same',
      data: { a: 1 },
    });
    expect(toMemoryError(new TypeError('boom')).code).toBe('INTERNAL');
  });
});
