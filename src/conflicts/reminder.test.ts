import { describe, expect, it } from 'vitest';
import type { KeptBranch } from '../sync/conflicts.js';
import { conflictsReminder } from './reminder.js';

const kept = (n: number): KeptBranch => ({
  branch: `gitmem/worker/w${n}`,
  kind: 'worker',
  id: `w${n}`,
  head: 'a'.repeat(40),
  date: '',
  subject: 's',
  commits: 1,
  files: ['notes/a.md'],
});

describe('conflictsReminder', () => {
  it('is null when nothing waits', () => {
    expect(conflictsReminder([], [])).toBeNull();
  });
  it('names each kept branch with its files and the commands that look at and settle it', () => {
    const text = conflictsReminder([kept(1)], []) ?? '';
    expect(text).toMatch(/^<system-reminder>Memory: 1 kept branch\(es\)/);
    expect(text).toContain('- gitmem/worker/w1: 1 commit(s) touching notes/a.md');
    expect(text).toContain('gitmem conflicts show <branch>');
    expect(text).toContain('gitmem conflicts resolve <branch> --ours|--theirs|--file PATH --reason R');
  });
  it('shows at most five and counts the rest', () => {
    const text =
      conflictsReminder(
        Array.from({ length: 8 }, (_, i) => kept(i)),
        [],
      ) ?? '';
    expect(text.match(/^- gitmem\/worker/gm)).toHaveLength(5);
    expect(text).toContain('… and 3 more (gitmem conflicts list)');
  });
});
