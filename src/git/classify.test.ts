import { describe, expect, it } from 'vitest';
import { classifyGitFailure, isRetryableKind, lockPathOf } from './classify.js';

describe('classifyGitFailure', () => {
  it.each([
    ["fatal: unable to access 'https://h/x.git/': The requested URL returned error: 520", 'transient'],
    ["fatal: unable to access 'https://h/x.git/': The requested URL returned error: 503", 'transient'],
    [
      'error: RPC failed; HTTP 524 curl 22 The requested URL returned error: 524\nfatal: the remote end hung up unexpectedly',
      'transient',
    ],
    [
      'error: RPC failed; HTTP 522 curl 22\nsend-pack: unexpected disconnect while reading sideband packet',
      'transient',
    ],
    ['error: RPC failed; curl 56 Recv failure: Connection reset by peer\nfatal: early EOF', 'transient'],
    ["fatal: unable to access 'http://127.0.0.1:1/x.git/': Empty reply from server", 'transient'],
    ["fatal: unable to access 'https://h/': Failed to connect to h port 443: Connection timed out", 'transient'],
  ])('treats %j as transient', (text, kind) => {
    expect(classifyGitFailure(text)).toBe(kind);
  });

  it('never retries a rejected credential, even next to a network word', () => {
    expect(classifyGitFailure("fatal: could not read Username for 'https://h': terminal prompts disabled")).toBe(
      'auth',
    );
    expect(
      classifyGitFailure("remote: Invalid username or password.\nfatal: Authentication failed for 'https://h/'"),
    ).toBe('auth');
    expect(classifyGitFailure('The requested URL returned error: 403')).toBe('auth');
  });

  it('recognises a non-fast-forward push but not any rejected push', () => {
    const nff =
      " ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs to '/r'\nhint: Updates were rejected because the remote contains work that you do not\nhint: have locally.";
    expect(classifyGitFailure(nff)).toBe('non_fast_forward');
    expect(classifyGitFailure(' ! [rejected] main -> main (non-fast-forward)')).toBe('non_fast_forward');
    const hook =
      " ! [remote rejected] main -> main (pre-receive hook declined)\nerror: failed to push some refs to '/r'";
    expect(classifyGitFailure(hook)).toBe('other');
    const race =
      "remote: error: cannot lock ref 'refs/heads/main': is at efe447 but expected 9d2c2a\n ! [remote rejected] main -> main (failed to update ref)";
    expect(classifyGitFailure(race)).toBe('non_fast_forward');
  });

  it('recognises a lock held by another local git process, but not one on the remote', () => {
    const local =
      "fatal: Unable to create '/m/.git/index.lock': File exists.\n\nAnother git process seems to be running in this repository";
    expect(classifyGitFailure(local)).toBe('locked');
    expect(
      classifyGitFailure(
        "error: cannot lock ref 'refs/heads/main': Unable to create '/m/.git/refs/heads/main.lock': File exists.",
      ),
    ).toBe('locked');
    expect(
      classifyGitFailure(
        "remote: error: cannot lock ref 'refs/heads/main': Unable to create '/r/refs/heads/main.lock': File exists.",
      ),
    ).toBe('other');
  });

  it('treats a held config lock as contention, and names the lock file', () => {
    const config = 'error: could not lock config file .git/config: File exists';
    expect(classifyGitFailure(config)).toBe('locked');
    expect(classifyGitFailure(`${config}\nfatal: could not set 'remote.origin.url' to 'x'`)).toBe('locked');
    expect(classifyGitFailure('remote: error: could not lock config file config: File exists')).toBe('other');
    expect(lockPathOf(config)).toBe('.git/config.lock');
    expect(lockPathOf("fatal: Unable to create '/m/.git/index.lock': File exists.")).toBe('/m/.git/index.lock');
    expect(lockPathOf('fatal: not a git repository')).toBeUndefined();
  });

  it('a host name that does not resolve is not transient', () => {
    for (const text of [
      "fatal: unable to access 'https://mem.invalid/x.git/': Could not resolve host: mem.invalid",
      'ssh: Could not resolve hostname mem.invalid: Name or service not known\nfatal: Could not read from remote repository.',
    ]) {
      expect(classifyGitFailure(text)).toBe('dns');
      expect(isRetryableKind(classifyGitFailure(text))).toBe(false);
    }
  });

  it('recognises an unknown or changed SSH host key, but not a server claiming one', () => {
    expect(classifyGitFailure('Host key verification failed.\nfatal: Could not read from remote repository.')).toBe(
      'host_key',
    );
    expect(
      classifyGitFailure(
        '@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\nHost key verification failed.',
      ),
    ).toBe('host_key');
    expect(
      classifyGitFailure('remote: Host key verification failed.\nfatal: the remote end hung up unexpectedly'),
    ).toBe('transient');
  });

  it('recognises conflicts, unrelated histories, a missing remote branch and a vanished cwd', () => {
    expect(
      classifyGitFailure(
        'CONFLICT (content): Merge conflict in system/human.md\nerror: could not apply 1a2b3c4... edit',
      ),
    ).toBe('conflict');
    expect(classifyGitFailure('fatal: refusing to merge unrelated histories')).toBe('unrelated_histories');
    expect(classifyGitFailure("fatal: couldn't find remote ref refs/heads/main")).toBe('missing_remote_ref');
    expect(classifyGitFailure('fatal: Unable to read current working directory: No such file or directory')).toBe(
      'missing_cwd',
    );
    expect(classifyGitFailure('fatal: not a git repository')).toBe('other');
  });
});
