import { describe, expect, it } from 'vitest';
import { parseUserIdentity } from './user-identity.js';

describe('parseUserIdentity', () => {
  it("takes the user's scopes (last wins, as in git) and never the repository's own", () => {
    const out =
      'system\0user.name\nSys\0global\0user.name\nAda L\0global\0user.email\nada@x.org\0local\0user.name\nagent-1\0worktree\0user.email\nw@x\0';
    expect(parseUserIdentity(out)).toEqual({ name: 'Ada L', email: 'ada@x.org' });
    expect(
      parseUserIdentity(
        'global\0user.email\nada@x.org\0local\0user.email\na1@gitmem.local\0command\0user.email\ncmd@x.org\0',
      ),
    ).toEqual({ email: 'cmd@x.org' });
    expect(parseUserIdentity('local\0user.name\nagent-1\0')).toEqual({});
    expect(parseUserIdentity('')).toEqual({});
  });
});
