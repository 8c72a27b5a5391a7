/**
 * Real multi-user git servers on loopback for the writer-refs tests and the bench: Debian's gitolite3 behind a
 * private OpenSSH server (its own host key, port and authorized_keys; gitolite's home is a temp dir), with
 * per-user, per-ref permissions. A machine without them skips with one line; GITMEM_REQUIRE_SERVERS=1 (CI,
 * read here: a test-only switch) makes that a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SHELL = '/usr/share/gitolite3/gitolite-shell';

export interface Gitolite {
  /** `ssh://root@127.0.0.1:<port>/<repo>`. */
  url(repo: string): string;
  /** The environment of a git client logged in as `user` (its own key; the server's host key known). */
  envFor(user: string, base: Record<string, string>): Record<string, string>;
  stop(): void;
}

/** Why the servers cannot run here, or undefined; throws under GITMEM_REQUIRE_SERVERS=1. */
export function serversMissing(): string | undefined {
  const missing = ['/usr/bin/gitolite', SHELL, '/usr/sbin/sshd', '/usr/bin/ssh-keygen'].filter((p) => !existsSync(p));
  if (missing.length === 0) return undefined;
  const why = `missing ${missing.join(', ')} (apt-get install -y gitolite3 openssh-server)`;
  if (process.env['GITMEM_REQUIRE_SERVERS'] === '1') throw new Error(`GITMEM_REQUIRE_SERVERS=1 but ${why}`);
  return why;
}

/**
 * Starts gitolite over sshd in `dir` with `users` (each gets a key) and `conf` (gitolite.conf's text after the
 * admin repo). Resolves once sshd listens.
 * @example const gl = await startGitolite(dir, ['w1', 'integ'], 'repo mem\n    RW+ = integ\n')
 */
export async function startGitolite(dir: string, users: string[], conf: string): Promise<Gitolite> {
  const home = join(dir, 'gl-home');
  mkdirSync(home, { recursive: true });
  mkdirSync('/run/sshd', { recursive: true });
  for (const name of ['host', 'admin', ...users]) keygen(join(dir, name));
  const glEnv = { ...process.env, HOME: home };
  run('gitolite', ['setup', '-pk', join(dir, 'admin.pub')], glEnv);
  writeFileSync(join(home, '.gitolite/conf/gitolite.conf'), `repo gitolite-admin\n    RW+ = admin\n\n${conf}`);
  run('gitolite', ['compile'], glEnv);
  run('gitolite', ['trigger', 'POST_COMPILE'], glEnv);
  // Our own authorized_keys: each key runs gitolite's shell as its user, with gitolite's (temp) home.
  const keys = ['admin', ...users].map(
    (u) =>
      `command="HOME=${home} ${SHELL} ${u}",no-port-forwarding,no-X11-forwarding,no-agent-forwarding,no-pty ${readFileSync(join(dir, `${u}.pub`), 'utf8').trim()}`,
  );
  writeFileSync(join(dir, 'authorized_keys'), `${keys.join('\n')}\n`, { mode: 0o600 });
  let sshd: { child: ChildProcess; port: number } | undefined;
  let why = '';
  for (let attempt = 0; attempt < 3 && !sshd; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = startSshd(dir, port);
    const failed = await listening(child);
    if (failed === undefined) sshd = { child, port };
    else why = failed;
  }
  if (!sshd) throw new Error(`sshd did not start: ${why}`);
  const { child, port } = sshd;
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(join(dir, 'host.pub'), 'utf8')}`);
  return {
    url: (repo) => `ssh://root@127.0.0.1:${port}/${repo}`,
    envFor: (user, base) => ({
      ...base,
      GIT_SSH_COMMAND: `ssh -i ${join(dir, user)} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o BatchMode=yes`,
    }),
    stop: () => void child.kill('SIGTERM'),
  };
}

function keygen(path: string): void {
  if (!existsSync(path)) run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'gitmem-test', '-f', path]);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

function startSshd(dir: string, port: number): ChildProcess {
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${join(dir, 'host')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    `PidFile ${join(dir, `sshd-${port}.pid`)}`,
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'MaxStartups 100:30:200',
  ];
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  return spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
}

function listening(child: ChildProcess): Promise<string | undefined> {
  return new Promise((resolve) => {
    let err = '';
    const done = (why: string | undefined): void => {
      clearTimeout(timer);
      resolve(why);
    };
    const timer = setTimeout(() => done(`no "Server listening" in 5 s: ${err.trim()}`), 5_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      if (/Server listening/.test(err)) done(undefined);
    });
    child.on('exit', () => done(`sshd exited: ${err.trim()}`));
  });
}

/** Why nginx cannot run here, or undefined; throws under GITMEM_REQUIRE_SERVERS=1. */
export function nginxMissing(): string | undefined {
  if (existsSync('/usr/sbin/nginx')) return undefined;
  const why = 'missing /usr/sbin/nginx (apt-get install -y nginx)';
  if (process.env['GITMEM_REQUIRE_SERVERS'] === '1') throw new Error(`GITMEM_REQUIRE_SERVERS=1 but ${why}`);
  return why;
}

/**
 * A private nginx on a loopback port in front of `upstream` (the `git http-backend` CGI server of
 * git-http-server.ts): smart HTTP as a deployment serves it, request bodies streamed, not buffered; with
 * `users` (name → password), nginx itself requires Basic auth, as a deployment's front does.
 * @example const front = await startNginx(dir, 'http://127.0.0.1:40123'); front.url + '/mem.git'
 */
export async function startNginx(
  dir: string,
  upstream: string,
  opts: { users?: Record<string, string> } = {},
): Promise<{ url: string; stop(): void }> {
  // With `users`: Basic auth at nginx (auth_basic, a {PLAIN} password file), the user passed on as X-Remote-User.
  const users = Object.entries(opts.users ?? {});
  if (users.length > 0)
    writeFileSync(join(dir, 'htpasswd'), users.map(([u, p]) => `${u}:{PLAIN}${p}\n`).join(''), { mode: 0o600 });
  const auth =
    users.length === 0
      ? ''
      : ` auth_basic "gitmem-test"; auth_basic_user_file ${join(dir, 'htpasswd')}; proxy_set_header X-Remote-User $remote_user;`;
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const conf = [
      'user root;',
      'worker_processes 1;',
      'daemon off;',
      `pid ${join(dir, 'nginx.pid')};`,
      `error_log ${join(dir, 'error.log')};`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${join(dir, 'access.log')};`,
      `  client_body_temp_path ${join(dir, 'body')};`,
      `  proxy_temp_path ${join(dir, 'proxy')};`,
      `  fastcgi_temp_path ${join(dir, 'fcgi')};`,
      `  uwsgi_temp_path ${join(dir, 'uwsgi')};`,
      `  scgi_temp_path ${join(dir, 'scgi')};`,
      '  client_max_body_size 0;',
      `  server { listen 127.0.0.1:${port}; location / { proxy_pass ${upstream}; proxy_request_buffering off; proxy_http_version 1.1; proxy_set_header Host $host;${auth} } }`,
      '}',
    ];
    writeFileSync(join(dir, 'nginx.conf'), `${conf.join('\n')}\n`);
    const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' });
    const up = await waitForPort(port, 5_000);
    if (up) return { url: `http://127.0.0.1:${port}`, stop: () => void child.kill('SIGTERM') };
    child.kill('SIGTERM');
    if (attempt >= 2)
      throw new Error(`nginx did not start: ${readFileSync(join(dir, 'error.log'), 'utf8').slice(-300)}`);
  }
}

async function waitForPort(port: number, ms: number): Promise<boolean> {
  const { connect } = await import('node:net');
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
