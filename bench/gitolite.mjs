// A private gitolite3 behind its own sshd on loopback, for the writers section (the tests' twin is
// test/helpers/git-servers.ts). Returns null, with the reason, when gitolite3 or sshd is not installed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SHELL = '/usr/share/gitolite3/gitolite-shell';

function run(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
}

export function gitoliteMissing() {
  const missing = ['/usr/bin/gitolite', SHELL, '/usr/sbin/sshd'].filter((p) => !existsSync(p));
  return missing.length === 0 ? null : `missing ${missing.join(', ')}`;
}

/** Starts it in `dir` with `users` and gitolite.conf text `conf`; { url(repo), envFor(user, base), stop() }. */
export async function startGitolite(dir, users, conf) {
  const home = join(dir, 'gl-home');
  mkdirSync(home, { recursive: true });
  mkdirSync('/run/sshd', { recursive: true });
  for (const name of ['host', 'admin', ...users])
    if (!existsSync(join(dir, name))) run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, name)]);
  const glEnv = { ...process.env, HOME: home };
  run('gitolite', ['setup', '-pk', join(dir, 'admin.pub')], glEnv);
  writeFileSync(join(home, '.gitolite/conf/gitolite.conf'), `repo gitolite-admin\n    RW+ = admin\n\n${conf}`);
  run('gitolite', ['compile'], glEnv);
  run('gitolite', ['trigger', 'POST_COMPILE'], glEnv);
  const keys = ['admin', ...users].map(
    (u) => `command="HOME=${home} ${SHELL} ${u}",no-pty ${readFileSync(join(dir, `${u}.pub`), 'utf8').trim()}`,
  );
  writeFileSync(join(dir, 'authorized_keys'), `${keys.join('\n')}\n`, { mode: 0o600 });
  const port = 20_000 + Math.floor(Math.random() * 20_000);
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
    'MaxStartups 200:30:400',
  ];
  writeFileSync(join(dir, 'sshd_config'), `${config.join('\n')}\n`);
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`sshd did not start: ${err}`)), 5000);
    child.stderr.on('data', (d) => {
      err += d.toString();
      if (!/Server listening/.test(err)) return;
      clearTimeout(timer);
      resolve();
    });
    child.on('exit', () => reject(new Error(`sshd exited: ${err}`)));
  });
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${readFileSync(join(dir, 'host.pub'), 'utf8')}`);
  return {
    home,
    url: (repo) => `ssh://root@127.0.0.1:${port}/${repo}`,
    envFor: (user, base) => ({
      ...base,
      GIT_SSH_COMMAND: `ssh -i ${join(dir, user)} -o IdentitiesOnly=yes -o UserKnownHostsFile=${knownHosts} -o BatchMode=yes`,
    }),
    stop: () => child.kill('SIGTERM'),
  };
}
