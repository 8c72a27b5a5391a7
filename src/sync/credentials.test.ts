import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../errors.js';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { resolveCredentials } from '../config.js';
import { authForRemote, parseCredentialsFile } from './credentials.js';

afterAll(cleanupTmp);

describe('credentials', () => {
  it('parses a bare token line and key = value files', () => {
    expect(parseCredentialsFile('# mine\nabc123\n')).toEqual({
      token: 'abc123',
      scheme: 'bearer',
      username: 'x-access-token',
    });
    expect(parseCredentialsFile('token = t0k\nusername = bot\n')).toMatchObject({
      token: 't0k',
      scheme: 'basic',
      username: 'bot',
    });
    expect(parseCredentialsFile('token=t\nscheme=bearer\nurl=https://git.example.com/')).toMatchObject({
      url: 'https://git.example.com/',
    });
    expect(parseCredentialsFile('\n# nothing\n')).toBeUndefined();
    expect(() => parseCredentialsFile('token=t\nscheme=digest')).toThrow(/unknown auth scheme/);
  });

  it('prefers GITMEM_GIT_TOKEN over the file and reads Basic settings from the environment', () => {
    const home = makeTmpDir();
    const env = { GITMEM_GIT_TOKEN: ' envtok ', GITMEM_GIT_USERNAME: 'bot' };
    expect(resolveCredentials({ env, home })).toMatchObject({
      token: 'envtok',
      scheme: 'basic',
      username: 'bot',
      source: 'env',
    });
    expect(resolveCredentials({ env: {}, home })).toBeUndefined();
  });

  it('reads a 0600 credentials file and refuses one readable by group or others', () => {
    const home = makeTmpDir();
    const file = join(home, 'credentials');
    writeFileSync(file, 'filetok\n', { mode: 0o600 });
    expect(resolveCredentials({ env: {}, home })).toMatchObject({ token: 'filetok', source: 'file' });
    chmodSync(file, 0o644);
    let caught: unknown;
    try {
      resolveCredentials({ env: {}, home });
    } catch (err) {
      caught = err;
    }
    expect(isMemoryError(caught, 'CREDENTIALS_INSECURE')).toBe(true);
    expect(String((caught as Error).message)).toContain('chmod 600');
    expect(String((caught as Error).message)).not.toContain('filetok');
  });

  it('scopes the header to the remote origin and sends nothing to paths, SSH or other hosts', () => {
    const cred = {
      token: 'tk-1234567890',
      scheme: 'bearer' as const,
      username: 'x-access-token',
      source: 'env' as const,
    };
    const auth = authForRemote(cred, 'https://git.example.com:8443/me/mem.git');
    expect(auth).toEqual({
      authorization: 'Bearer tk-1234567890',
      secrets: expect.arrayContaining(['tk-1234567890']),
      urlPrefix: 'https://git.example.com:8443/',
    });
    expect(authForRemote(cred, '/srv/git/mem.git')).toBeUndefined();
    expect(authForRemote(cred, 'git@github.com:me/mem.git')).toBeUndefined();
    expect(
      authForRemote({ ...cred, url: 'https://git.example.com/' }, 'https://evil.example.net/x.git'),
    ).toBeUndefined();
    for (const url of [
      'https://git.example.com.evil.net/x.git',
      'https://git.example.com:444/x.git',
      'http://git.example.com/x.git',
    ]) {
      expect(authForRemote({ ...cred, url: 'https://git.example.com' }, url), url).toBeUndefined();
    }
    expect(authForRemote({ ...cred, url: 'https://h/team' }, 'https://h/team-b/x.git')).toBeUndefined();
    expect(authForRemote({ ...cred, url: 'https://h/team' }, 'https://h/team/x.git')).toBeDefined();
    expect(authForRemote({ ...cred, url: 'HTTPS://H/' }, 'https://h/x.git')).toBeDefined();
    const basic = authForRemote({ ...cred, scheme: 'basic' }, 'https://h/x.git');
    expect(Buffer.from(basic?.authorization.slice('Basic '.length) ?? '', 'base64').toString()).toBe(
      'x-access-token:tk-1234567890',
    );
  });
});
