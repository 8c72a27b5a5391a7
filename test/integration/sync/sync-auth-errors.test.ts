/**
 * Authentication and name-resolution failures say what happened and what to do, each in its own words:
 * no credentials, a rejected token (401 and 403), a Basic-only server answering a Bearer token (and the
 * reverse), a host name that does not resolve (not retried), and an unknown SSH host key (a real OpenSSH
 * server on loopback). No message carries the token.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import type { GitCredentials } from '../../../src/sync/credentials.js';
import { syncMemory } from '../../../src/sync/sync.js';
import type { SyncResult } from '../../../src/sync/types.js';
import {
  createBareRepo,
  startGitHttpServer,
  type GitHttpServer,
  type GitHttpServerOptions,
} from '../../helpers/git-http-server.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const root = makeTmpDir('gitmem-auth-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const bearer = (token = TOKEN): GitCredentials => ({
  token,
  scheme: 'bearer',
  username: 'x-access-token',
  source: 'env',
});
const basic = (token = TOKEN): GitCredentials => ({
  token,
  scheme: 'basic',
  username: 'x-access-token',
  source: 'env',
});
const servers: GitHttpServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  cleanupTmp();
});

/** A local memory repo with one unpushed commit whose origin is `url`. */
function localRepo(url: string): string {
  const dir = makeTmpDir('gitmem-auth-repo-');
  g(dir, ['init', '-q', '-b', 'main']);
  mkdirSync(join(dir, 'system'));
  writeFileSync(join(dir, 'system', 'persona.md'), '---\ndescription: p\n---\np\n');
  g(dir, ['add', '-A']);
  g(dir, ['commit', '-q', '-m', 'first']);
  g(dir, ['remote', 'add', 'origin', url]);
  return dir;
}

async function serve(opts: Omit<GitHttpServerOptions, 'root'>): Promise<string> {
  const dir = makeTmpDir('gitmem-auth-srv-');
  createBareRepo(dir, 'mem');
  const server = await startGitHttpServer({ root: dir, ...opts });
  servers.push(server);
  return `${server.url}/mem.git`;
}

async function sync(url: string, credentials?: GitCredentials): Promise<SyncResult> {
  const runner = createGitRunner({ env, sleep: async () => undefined });
  const r = await syncMemory({ git: runner, memoryDir: localRepo(url), ...(credentials ? { credentials } : {}) });
  expect(JSON.stringify(r)).not.toContain(TOKEN);
  expect(JSON.stringify(r)).not.toContain(Buffer.from(`x-access-token:${TOKEN}`).toString('base64'));
  return r;
}

describe('authentication errors over smart HTTP', () => {
  it('no credentials configured: says so and names both places a token can go', async () => {
    const url = await serve({ token: TOKEN });
    const r = await sync(url);
    expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
    expect(r.summary).toMatch(
      /asked for credentials and none are configured: set GITMEM_GIT_TOKEN or .*\$GITMEM_HOME\/credentials/,
    );
    expect(r.summary).not.toMatch(/terminal prompts disabled/);
  });

  it('a rejected token: HTTP 401, and HTTP 403 for a token without access', async () => {
    const wrong = await sync(await serve({ token: TOKEN }), bearer(`${TOKEN}-old`));
    expect(wrong).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
    expect(wrong.summary).toMatch(/rejected the token \(HTTP 401\): check that it is valid/);
    const forbidden = await sync(await serve({ token: TOKEN, rejectWith: 403 }), basic());
    expect(forbidden).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
    expect(forbidden.summary).toMatch(/rejected the token \(HTTP 403\)/);
  });

  it('a Basic-only server answering a Bearer token says to switch the scheme; with Basic it syncs', async () => {
    const url = await serve({ token: TOKEN, schemes: ['basic'] });
    const r = await sync(url, bearer());
    expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
    expect(r.summary).toMatch(/only accepts Basic auth.*GITMEM_GIT_AUTH_SCHEME=basic.*GITMEM_GIT_USERNAME/);
    expect((await sync(url, basic())).status).toBe('pushed');
  });

  it('a Bearer-only server answering Basic says to switch the scheme', async () => {
    const r = await sync(await serve({ token: TOKEN, schemes: ['bearer'] }), basic());
    expect(r.summary).toMatch(/only accepts Bearer tokens.*GITMEM_GIT_AUTH_SCHEME=bearer/);
  });
});

describe('a host name that does not resolve', () => {
  it('fails at once (no retries) and says the name does not resolve', async () => {
    const retries: string[] = [];
    const runner = createGitRunner({ env, sleep: async () => undefined, onRetry: (m) => retries.push(m) });
    for (const url of ['https://gitmem-test.invalid/mem.git', 'ssh://git@gitmem-test.invalid/mem.git']) {
      const r = await syncMemory({ git: runner, memoryDir: localRepo(url), credentials: bearer() });
      expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_DNS' } });
      expect(r.summary).toMatch(/host name gitmem-test\.invalid does not resolve/);
    }
    expect(retries).toEqual([]);
  });
});

/** A private OpenSSH server on loopback (a generated host key, one authorized client key), or why not. */
function startSshd(dir: string): { port: number; child: ChildProcess; clientKey: string } | string {
  if (!existsSync('/usr/sbin/sshd')) return 'no /usr/sbin/sshd (apt-get install -y openssh-server)';
  try {
    mkdirSync('/run/sshd', { recursive: true });
  } catch {
    return 'cannot create /run/sshd';
  }
  for (const name of ['host', 'client'])
    spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client.pub')), { mode: 0o600 });
  const port = 12_200 + Math.floor(Math.random() * 700);
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
  ];
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return { port, child, clientKey: join(dir, 'client') };
}

async function listening(child: ChildProcess): Promise<string | undefined> {
  return new Promise((resolve) => {
    let err = '';
    const done = (why: string | undefined): void => {
      clearTimeout(timer);
      resolve(why);
    };
    const timer = setTimeout(() => done(`sshd did not start: ${err.trim()}`), 5_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (/Server listening/.test(err)) done(undefined);
    });
    child.on('exit', () => done(`sshd exited: ${err.trim()}`));
  });
}

describe('an unknown SSH host key (real OpenSSH on loopback)', () => {
  let sshd: ReturnType<typeof startSshd>;
  let skip: string | undefined;
  const dir = makeTmpDir('gitmem-sshd-');
  beforeAll(async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      sshd = startSshd(dir); // a random port: another try when it was taken
      skip = typeof sshd === 'string' ? sshd : await listening(sshd.child);
      if (!skip || typeof sshd === 'string') break;
    }
    if (skip) process.stderr.write(`skipping the SSH host key test: ${skip}\n`);
  });
  afterAll(() => {
    if (typeof sshd !== 'string') sshd.child.kill('SIGTERM');
  });

  it('says how to add the key, and following that advice makes the sync work', async (t) => {
    if (skip || typeof sshd === 'string') return t.skip();
    const bare = join(dir, 'mem.git');
    g(root, ['init', '-q', '--bare', '-b', 'main', bare]);
    const knownHosts = join(dir, 'known_hosts');
    const sshEnv = {
      ...env,
      GIT_SSH_COMMAND: `ssh -i ${sshd.clientKey} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts}`,
    };
    const runner = createGitRunner({ env: sshEnv, sleep: async () => undefined });
    const memoryDir = localRepo(`ssh://root@127.0.0.1:${sshd.port}${bare}`);
    const r = await syncMemory({ git: runner, memoryDir });
    expect(r).toMatchObject({ status: 'push_failed', error: { code: 'GIT_AUTH' } });
    expect(r.summary).toContain(`ssh-keyscan -p ${sshd.port} 127.0.0.1 >> ~/.ssh/known_hosts`);
    expect(r.summary).toContain('StrictHostKeyChecking=accept-new');
    expect(existsSync(knownHosts)).toBe(false); // suggested, never done
    const scan = spawnSync('ssh-keyscan', ['-p', String(sshd.port), '127.0.0.1'], { encoding: 'utf8' });
    writeFileSync(knownHosts, scan.stdout);
    expect((await syncMemory({ git: runner, memoryDir })).status).toBe('pushed');
    expect(g(bare, ['rev-parse', 'main'])).toBe(g(memoryDir, ['rev-parse', 'HEAD']));
  });
});
