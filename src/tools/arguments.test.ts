import { describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { checkToolArguments, type ToolInputSchema } from './arguments.js';

const schema: ToolInputSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: { type: 'string', minLength: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 10 },
    mode: { type: 'string', enum: ['a', 'b'] },
  },
};

function problem(args: unknown): string {
  try {
    checkToolArguments('t', schema, args);
    return 'accepted';
  } catch (err) {
    expect(isMemoryError(err, 'INVALID_ARGUMENT')).toBe(true);
    return (err as Error).message;
  }
}

describe('checkToolArguments', () => {
  it('accepts what the schema declares and returns it', () => {
    expect(checkToolArguments('t', schema, { reason: 'r', limit: 3, mode: 'a' })).toEqual({
      reason: 'r',
      limit: 3,
      mode: 'a',
    });
    expect(checkToolArguments('t', { type: 'object', properties: {} }, undefined)).toEqual({});
  });

  it('names the first problem on one line', () => {
    expect(problem([])).toBe('t: arguments must be an object, got an array');
    expect(problem({ reason: 'r', patch: 'x' })).toBe("t: unknown argument 'patch' (declared: reason, limit, mode)");
    expect(problem(JSON.parse('{"reason":"r","__proto__":1}'))).toMatch(/unknown argument '__proto__'/);
    expect(problem({})).toBe("t: missing required argument 'reason'");
    expect(problem({ reason: '' })).toMatch(/'reason' must have at least 1/);
    expect(problem({ reason: 'r', limit: 'abc' })).toBe("t: 'limit' must be an integer, got string");
    expect(problem({ reason: 'r', limit: 1.5 })).toMatch(/'limit' must be an integer/);
    expect(problem({ reason: 'r', limit: 11 })).toBe("t: 'limit' must be at most 10");
    expect(problem({ reason: 'r', mode: 'c' })).toBe('t: \'mode\' must be one of "a", "b"');
    expect(problem({ reason: 'r', limit: null })).toBe("t: 'limit' must be an integer, got null");
  });
});
