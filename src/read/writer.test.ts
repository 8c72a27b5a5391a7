import { describe, expect, it } from 'vitest';
import { classifyCommit, classifyMove } from './writer.js';

const agent = { email: 'ada@gitmem.local', message: 'learned X' };

describe('writer rule', () => {
  it('tells memory merges, reflections, the harness, agents and everyone else apart', () => {
    expect(
      classifyCommit({ email: 'gitmem@gitmem.local', message: 'merge(memory): gitmem/worker/2025-x\n\nTask: t' }),
    ).toBe('worker');
    expect(
      classifyCommit({ email: 'gitmem@gitmem.local', message: 'merge(reflection): note office days\n\nbody' }),
    ).toBe('reflection');
    expect(classifyCommit({ email: 'ada+reflection@gitmem.local', message: 'prefs' })).toBe('reflection');
    expect(classifyCommit({ email: 'gitmem@gitmem.local', message: 'x' })).toBe('worker');
    expect(classifyCommit(agent)).toBe('agent');
    expect(classifyCommit({ email: 'me@example.com', message: 'hand edit' })).toBe('shell');
    // An operator's protect write with no git identity of their own is a person's commit, never the agent's.
    expect(classifyCommit({ email: 'operator@gitmem.local', message: 'new house rules' })).toBe('shell');
    expect(classifyCommit({ email: 'me@example.com', message: 'not merge(memory): gitmem/worker/x' })).toBe('shell');
  });

  it('reads how main moved from the reflog', () => {
    expect(classifyMove('merge refs/remotes/origin/main: Fast-forward', agent)).toBe('sync');
    expect(classifyMove('rebase (finish): refs/heads/main onto 0123', agent)).toBe('sync');
    expect(classifyMove('reset: moving to refs/remotes/origin/main', agent)).toBe('sync');
    expect(classifyMove('reset: moving to HEAD~1', agent)).toBe('shell');
    expect(classifyMove('commit: learned X', agent)).toBe('agent');
    expect(classifyMove('commit: hand edit', { email: 'me@example.com', message: 'hand edit' })).toBe('shell');
    expect(
      classifyMove('merge(memory): gitmem/worker/x', {
        email: 'gitmem@gitmem.local',
        message: 'merge(memory): gitmem/worker/x',
      }),
    ).toBe('worker');
    expect(
      classifyMove('merge(reflection): x', { email: 'gitmem@gitmem.local', message: 'merge(reflection): x' }),
    ).toBe('reflection');
    expect(classifyMove(undefined, agent)).toBe('agent');
  });
});
