import { describe, expect, it } from 'vitest';
import { OPERATOR_IDENTITY, identityKind, operatorIdentity } from './identity.js';

describe("operatorIdentity: who an operator's write of a protected file says made it", () => {
  it("the given identity, else GIT_AUTHOR_*, else the user's git configuration, field by field", () => {
    const gitConfig = { name: 'Ada (config)', email: 'ada@config.org' };
    expect(operatorIdentity({ gitConfig })).toEqual(gitConfig);
    expect(operatorIdentity({ environment: { name: 'Ada (env)' }, gitConfig })).toEqual({
      name: 'Ada (env)',
      email: 'ada@config.org',
    });
    expect(
      operatorIdentity({
        given: { email: 'given@x.org' },
        environment: { name: 'Env', email: 'env@x.org' },
        gitConfig,
      }),
    ).toEqual({ name: 'Env', email: 'given@x.org' });
  });

  it("blank values count as unset; with nothing named, gitmem's operator identity, which the read side tells from an agent", () => {
    expect(operatorIdentity({ environment: { name: '  ', email: '' } })).toEqual(OPERATOR_IDENTITY);
    expect(operatorIdentity()).toEqual({ name: 'gitmem operator', email: 'operator@gitmem.local' });
    expect(identityKind(OPERATOR_IDENTITY.email)).toBe('operator');
    expect(identityKind('a1@gitmem.local')).toBe('agent');
  });
});
