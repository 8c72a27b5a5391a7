// The sandbox's read side is an allow-list: a hostile `gitmem worker run --command` body tries to read
// every secret a background writer could copy into memory (the user's ssh key, gitmem's credentials file,
// an agent in another GITMEM_HOME, /root, /etc/shadow), commits whatever it got, and gitmem merges it.
// Each probe must come back unreadable, and nothing secret may reach main (the next sync would push it).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const CLI = join(process.cwd(), 'dist/bin/gitmem.cjs');
const mark = (what: string): string => `FAKE-${what}-${process.pid}-7f3a`;

let userHome: string;
let gitmemHome: string;
let otherShm: string;
let otherDisk: string;
let env: Record<string, string>;
const memoryDir = (): string => join(gitmemHome, 'agents', 'a1', 'memory');

function gitmem(args: string[], extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...env, ...extra }, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A body that writes one top-level memory file per probe (its output, or UNREADABLE) and commits them all. */
function probeBody(probes: Record<string, string>): string {
  const fn =
    'probe() { f="probe-$1.md"; printf "%s\\n" --- "description: probe $1" --- > "$f"; ' +
    'if sh -c "$2" >> "$f" 2>&1; then :; else echo UNREADABLE >> "$f"; fi; }';
  const calls = Object.entries(probes).map(([name, cmd]) => `probe ${name} '${cmd.replace(/'/g, `'\\''`)}'`);
  return [fn, ...calls, 'git add -A && git commit -qm "probes"'].join('\n');
}

/** What a writer is given to run (host.ts): gitmem's package, Node's installation, the hook's packages — real paths. */
function writerRuntimeRoots(): string[] {
  const yaml = dirname(createRequire(join(process.cwd(), 'package.json')).resolve('yaml/package.json'));
  return [process.cwd(), dirname(dirname(process.execPath)), yaml].map((p) => realpathSync(p));
}

function onMain(name: string): string {
  return git(memoryDir(), ['show', `main:probe-${name}.md`], env);
}

// On disk, not on /dev/shm: bwrap's fresh /dev would hide a home there by accident, and real homes are on disk.
const onDisk: string[] = [];
function diskDir(prefix: string): string {
  const dir = mkdtempSync(join('/var/tmp', prefix));
  onDisk.push(dir);
  return dir;
}

beforeAll(() => {
  const root = diskDir('gitmem-probes-');
  userHome = join(root, 'user-home');
  gitmemHome = join(root, 'gitmem-home');
  mkdirSync(join(userHome, '.ssh'), { recursive: true, mode: 0o700 });
  writeFileSync(join(userHome, '.ssh', 'id_rsa'), `${mark('SSH-KEY')}\n`, { mode: 0o600 });
  writeFileSync(join(userHome, '.gitconfig'), `[user]\n\tname = ${mark('GITCONFIG')}\n`);
  env = { ...hermeticGitEnv(root), HOME: userHome, GITMEM_HOME: gitmemHome, GITMEM_DAEMON: '0' };
  expect(gitmem(['init', '--agent', 'a1']).code).toBe(0);
  writeFileSync(join(gitmemHome, 'credentials'), `${mark('TOKEN')}\n`, { mode: 0o600 });
  chmodSync(join(gitmemHome, 'credentials'), 0o600);
  // another gitmem home on /dev/shm, where tests (and some users) keep them
  // other gitmem homes: one on /dev/shm, where tests (and some users) keep them, one on disk
  otherShm = makeTmpDir('gitmem-probes-other-');
  otherDisk = diskDir('gitmem-probes-other-');
  for (const other of [otherShm, otherDisk]) {
    expect(gitmem(['init', '--agent', 'zz'], { GITMEM_HOME: other }).code).toBe(0);
    writeFileSync(
      join(other, 'agents', 'zz', 'memory', 'system', 'secret.md'),
      `---\ndescription: s\n---\n${mark('OTHER-AGENT')}\n`,
    );
  }
});

afterAll(() => {
  cleanupTmp();
  for (const dir of onDisk.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('sandbox read probes: a confined worker body reads no secret', { tags: ['sandbox'] }, () => {
  it('finds each secret location unreadable, and nothing secret reaches main', () => {
    const shadow = existsSync('/etc/shadow') ? (readFileSync('/etc/shadow', 'utf8').split('\n')[0] ?? '') : '';
    const probes = {
      ssh: `cat ${join(userHome, '.ssh', 'id_rsa')}`,
      userhome: `ls -A ${userHome}`,
      credentials: `cat ${join(gitmemHome, 'credentials')}`,
      othershm: `cat ${join(otherShm, 'agents', 'zz', 'memory', 'system', 'secret.md')}`,
      otherdisk: `cat ${join(otherDisk, 'agents', 'zz', 'memory', 'system', 'secret.md')}`,
      othertree: `ls ${join(otherDisk, 'agents')}`,
      shm: `ls -A /dev/shm | grep -Fx ${basename(otherShm)}`,
      root: 'ls -A /root',
      shadow: 'cat /etc/shadow',
      gshadow: 'cat /etc/gshadow',
      sshd: 'ls -A /etc/ssh',
      sudoers: 'cat /etc/sudoers',
    };
    const r = gitmem(['worker', 'run', '--agent', 'a1', '--json', '--command', probeBody(probes)]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'merged' });
    expect(Object.keys(probes).filter((name) => !onMain(name).includes('UNREADABLE'))).toEqual([]);
    const everything = git(memoryDir(), ['grep', '-h', '-e', '.', 'main', '--', 'probe-*.md'], env);
    for (const secret of ['SSH-KEY', 'TOKEN', 'OTHER-AGENT', 'GITCONFIG'])
      expect(everything).not.toContain(mark(secret));
    if (shadow !== '') expect(everything).not.toContain(shadow);
    for (const entry of existsSync('/root') ? readdirSync('/root') : []) {
      if (entry.length >= 4) expect(onMain('root'), entry).not.toContain(entry);
    }
  });

  it("gets an empty HOME and a private /tmp with nothing of the host's in it, wherever gitmem lives, and still runs git, sh and the node pre-commit hook", () => {
    // What the writer needs may live under the host's /tmp (a checkout or an install there): those roots are
    // bound at their own path, so their parent directories are mount points; nothing else of /tmp may show.
    const needed = writerRuntimeRoots().filter((r) => r.startsWith('/tmp/'));
    const hostMark = join('/tmp', `gitmem-host-tmp-${process.pid}`);
    writeFileSync(hostMark, 'host tmp\n');
    onDisk.push(hostMark);
    const prune = needed.map((r) => `-path '${r}'`).join(' -o ');
    const probes = {
      home: 'test "$HOME" != "" && test -d "$HOME" && test -z "$(ls -A "$HOME")" && echo "EMPTY HOME $HOME"',
      tmp: `${prune ? `find /tmp -mindepth 1 \\( ${prune} \\) -prune -o -print` : 'find /tmp -mindepth 1'}; test -w /tmp && echo WRITABLE-TMP`,
      mark: `cat ${hostMark}`,
      channel: 'test -S "$GITMEM_HOOK_SOCKET" && echo "SOCKET $GITMEM_HOOK_SOCKET"',
      tools: 'git --version && node -e "console.log(1+1)" && sh -c "echo shell-ok"',
    };
    const r = gitmem(['worker', 'run', '--agent', 'a1', '--json', '--command', probeBody(probes)]);
    expect(r.code, r.stderr).toBe(0);
    expect(onMain('home')).toMatch(/EMPTY HOME \//);
    expect(onMain('home')).not.toContain(userHome);
    const shown = onMain('tmp')
      .split('\n')
      .slice(3)
      .filter((l) => l !== '' && l !== 'WRITABLE-TMP');
    expect(shown.filter((p) => !needed.some((r) => r.startsWith(`${p}/`)))).toEqual([]); // only mount points of what is needed
    expect(onMain('tmp')).toContain('WRITABLE-TMP');
    expect(onMain('mark')).toContain('UNREADABLE');
    expect(onMain('channel')).toMatch(/^SOCKET \/run\/gitmem-hook\/h\.sock$/m); // the hook channel is not in /tmp
    expect(onMain('tools')).toMatch(/git version[\s\S]*2\n[\s\S]*shell-ok/);
    // the hook ran inside (node <gitmem>/dist/bin/pre-commit.cjs): a file without frontmatter is refused
    const bad = gitmem([
      'worker',
      'run',
      '--agent',
      'a1',
      '--json',
      '--command',
      'mkdir -p system && echo plain > system/bad.md && git add -A && git commit -qm bad',
    ]);
    expect(JSON.parse(bad.stdout)).toMatchObject({ status: 'discarded' });
  });

  it('reads a path the operator adds with GITMEM_SANDBOX_READ, read-only, and still hides the secrets inside it', () => {
    const shared = join(userHome, 'shared-notes');
    mkdirSync(shared, { recursive: true });
    writeFileSync(join(shared, 'glossary.txt'), 'gitmem: memory as a git repo\n');
    const probes = {
      shared: `cat ${join(shared, 'glossary.txt')}`,
      sharedwrite: `touch ${join(shared, 'x')}`,
      ssh: `cat ${join(userHome, '.ssh', 'id_rsa')}`,
    };
    const r = gitmem(['worker', 'run', '--agent', 'a1', '--json', '--command', probeBody(probes)], {
      GITMEM_SANDBOX_READ: `${shared}:${userHome}`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(onMain('shared')).toContain('gitmem: memory as a git repo');
    expect(onMain('sharedwrite')).toContain('UNREADABLE'); // (the marker for "failed")
    expect(existsSync(join(shared, 'x'))).toBe(false);
    expect(onMain('ssh')).toContain('UNREADABLE');
    expect(onMain('ssh')).not.toContain(mark('SSH-KEY'));
  });
});
