import { describe, expect, it } from 'vitest';
import { classifyRevision, parseDateSpec } from './revision.js';

describe('revision parsing', () => {
  it('reads dates strictly (git would read any text as some date)', () => {
    expect(parseDateSpec('2025-01-02')).toBe('2025-01-02 23:59:59');
    expect(parseDateSpec('2025-01-02T10:00:00Z')).toBe('2025-01-02T10:00:00Z');
    expect(parseDateSpec('3 days ago')).toBe('3.days.ago');
    expect(parseDateSpec('1.week.ago')).toBe('1.weeks.ago');
    expect(parseDateSpec('garbage')).toBeUndefined();
    expect(parseDateSpec('2025-1-2')).toBeUndefined();
  });

  it('sorts dates from revision expressions', () => {
    expect(classifyRevision('HEAD~3')).toEqual({ rev: 'HEAD~3' });
    expect(classifyRevision('main')).toEqual({ rev: 'main' });
    expect(classifyRevision('e6a8099')).toEqual({ rev: 'e6a8099' });
    expect(classifyRevision('@{2025-01-02T10:00}')).toEqual({ date: '2025-01-02T10:00' });
    expect(classifyRevision('@{yesterday}')).toEqual({ date: 'yesterday' });
    expect(classifyRevision('@{1}')).toEqual({ rev: '@{1}' });
    expect(classifyRevision('2025-01-02')).toEqual({ date: '2025-01-02 23:59:59' });
  });

  it('refuses option-looking, control-character, huge and unknown-date input', () => {
    for (const bad of ['--all', '-n1', ' --output=/tmp/x', 'a\nb', 'x'.repeat(300), '', 7]) {
      expect(() => classifyRevision(bad), JSON.stringify(bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    }
    expect(() => classifyRevision('@{not a date}')).toThrow(expect.objectContaining({ code: 'UNKNOWN_REVISION' }));
  });
});
