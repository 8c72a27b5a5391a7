import { describe, expect, it } from 'vitest';
import { withPromisorAuth } from './promisor.js';
import type { GitAuth, GitRunner, GitRunOptions } from './runner.js';

const auth: GitAuth = { authorization: 'Basic c2VjcmV0', secrets: ['secret'], urlPrefix: 'https://git.example.com/' };

function recording(): { git: GitRunner; seen: GitRunOptions[] } {
  const seen: GitRunOptions[] = [];
  const git: GitRunner = {
    run: async (_args, o) => (seen.push(o), { stdout: '', stderr: '', exitCode: 0, stdoutBuffer: Buffer.alloc(0) }),
    exec: async (_op, o) => (seen.push(o), undefined as never),
    secrets: ['old'],
    detach: () => undefined,
  };
  return { git, seen };
}

describe('withPromisorAuth', () => {
  it('adds the credentials to commands inside the memory only, and never over a command’s own', async () => {
    const { git, seen } = recording();
    const wrapped = withPromisorAuth(git, auth, ['/h/agents/a/memory', '/h/agents/a/memory-worktrees']);
    const own: GitAuth = { authorization: 'Bearer other', secrets: ['other'] };
    await wrapped.run(['cat-file', 'blob', 'x'], { cwd: '/h/agents/a/memory' });
    await wrapped.run(['status'], { cwd: '/h/agents/a/memory/notes/../notes' });
    await wrapped.run(['status'], { cwd: '/h/agents/a/memory-worktrees/reflection-1' });
    await wrapped.run(['status'], { cwd: '/h/agents/a/memory2' }); // a sibling whose name only starts the same
    await wrapped.run(['status'], { cwd: '/h/agents/a/shared/team' });
    await wrapped.run(['push'], { cwd: '/h/agents/a/memory', auth: own });
    expect(seen.map((o) => o.auth)).toEqual([auth, auth, auth, undefined, undefined, own]);
    expect(wrapped.secrets).toEqual(['old', 'secret', 'Basic c2VjcmV0']);
  });
});
