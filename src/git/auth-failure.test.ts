import { describe, expect, it } from 'vitest';
import { explainFailure, hostOf, type FailureContext } from './auth-failure.js';
import { classifyGitFailure } from './classify.js';

const NO_USER = "fatal: could not read Username for 'https://git.example': terminal prompts disabled";
const ctx = (c: Partial<FailureContext>): FailureContext => ({
  sent: undefined,
  refusal: undefined,
  remote: undefined,
  ...c,
});
const explain = (text: string, c: Partial<FailureContext> = {}) =>
  explainFailure(classifyGitFailure(text), text, ctx(c));

describe('explainFailure', () => {
  it('tells a missing token, a rejected one and a scheme the server does not take apart', () => {
    expect(explain(NO_USER)).toMatchObject({
      problem: 'no_credentials',
      message: expect.stringMatching(
        /^the remote at https:\/\/git\.example asked for credentials and none are configured: set GITMEM_GIT_TOKEN/,
      ),
    });
    expect(explain(NO_USER, { sent: 'bearer', refusal: { status: 401, schemes: ['bearer', 'basic'] } })?.problem).toBe(
      'rejected',
    );
    expect(explain(NO_USER, { sent: 'bearer', refusal: { status: 401, schemes: [] } })?.message).toMatch(
      /rejected the token \(HTTP 401\)/,
    );
    expect(explain(NO_USER, { sent: 'bearer', refusal: { status: 401, schemes: ['basic'] } })?.problem).toBe(
      'wants_basic',
    );
    expect(explain(NO_USER, { sent: 'basic', refusal: { status: 401, schemes: ['bearer'] } })?.problem).toBe(
      'wants_bearer',
    );
    expect(explain(NO_USER, { sent: 'basic', refusal: { status: 401, schemes: ['basic'] } })?.problem).toBe('rejected');
    const forbidden = "fatal: unable to access 'https://git.example/m.git/': The requested URL returned error: 403";
    expect(explain(forbidden, { sent: 'bearer' })?.message).toMatch(/rejected the token \(HTTP 403\)/);
    expect(explain(forbidden)?.message).toMatch(/refused access \(HTTP 403\) and no credentials were sent/);
    expect(
      explain("remote: Invalid username or password.\nfatal: Authentication failed for 'https://git.example/m.git/'")
        ?.problem,
    ).toBe('helper_rejected');
  });

  it('names the SSH host to add, or warns about a changed key without suggesting to accept it', () => {
    const unknown = explain('Host key verification failed.\nfatal: Could not read from remote repository.', {
      remote: 'ssh://git@h.example:2222/m.git',
    });
    expect(unknown?.message).toContain('`ssh-keyscan -p 2222 h.example >> ~/.ssh/known_hosts`');
    expect(explain('Host key verification failed.', { remote: 'git@h.example:me/m.git' })?.message).toContain(
      'ssh-keyscan -p 22 h.example',
    );
    const changed = explain('@ WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED! @\nHost key verification failed.', {
      remote: 'ssh://h.example/m.git',
    });
    expect(changed).toMatchObject({ problem: 'host_key_changed' });
    expect(changed?.message).toContain("ssh-keygen -R 'h.example'");
    expect(changed?.message).not.toContain('accept-new');
    expect(
      explain('git@h: Permission denied (publickey).\nfatal: Could not read from remote repository.')?.problem,
    ).toBe('ssh_key_refused');
  });

  it('says which host name does not resolve', () => {
    expect(
      explain("fatal: unable to access 'https://mem.invalid/x.git/': Could not resolve host: mem.invalid")?.message,
    ).toMatch(/^the host name mem\.invalid does not resolve/);
    expect(explain('ssh: Could not resolve hostname mem.invalid: Name or service not known')?.message).toMatch(
      /^the host name mem\.invalid does not/,
    );
  });

  it('has nothing to say about other failures', () => {
    expect(explain('fatal: not a git repository')).toBeUndefined();
  });
});

describe('hostOf', () => {
  it.each([
    ['ssh://git@127.0.0.1:12222/srv/mem.git', { host: '127.0.0.1', port: '12222' }],
    ['ssh://[::1]:22/m.git', { host: '::1', port: '22' }],
    ['git@github.com:me/mem.git', { host: 'github.com' }],
    ['https://h.example/x.git', { host: 'h.example' }],
    ['/srv/mem.git', undefined],
  ])('%s', (url, want) => {
    expect(hostOf(url)).toEqual(want);
  });
});
