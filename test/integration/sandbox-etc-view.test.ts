/**
 * The etc view under real bubblewrap: a confined process sees the same /etc through one bind of a private
 * snapshot as through a bind per entry (names, bytes, links, directory binds), none of what the allow-list
 * leaves out, and not the snapshot itself; a changed source gets a new snapshot while a sandbox started
 * from the old one keeps it whole until it ends. /etc cannot be edited here, so freshness is shown on a
 * directory of the test's own standing in for it.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitmemRuntimeDir } from '../../src/process/runtime-dir.js';
import { createEtcViews, type EtcViews } from '../../src/sandbox/etc-view.js';
import { lockedFiles, lockId } from '../../src/sandbox/etc-view-build.js';
import { confineCommand, type ConfineOptions } from '../../src/sandbox/launch.js';
import { buildMemoryWriterPolicy, type SandboxPolicy } from '../../src/sandbox/policy.js';
import { runConfined, type RunConfinedResult } from '../../src/sandbox/run.js';
import { cleanupTmp, makeTmpDir } from '../helpers/tmp.js';
import { sharedShellLauncher } from '../../src/process/shell-launcher.js';

let home: string;
let policy: SandboxPolicy;

beforeAll(() => {
  home = makeTmpDir('gitmem-etcview-');
  const memoryDir = join(home, 'agents', 'a1', 'memory');
  const worktreesDir = join(home, 'agents', 'a1', 'memory-worktrees');
  mkdirSync(join(memoryDir, '.git', 'hooks'), { recursive: true });
  mkdirSync(worktreesDir, { recursive: true });
  writeFileSync(join(memoryDir, '.git', 'config'), '');
  policy = buildMemoryWriterPolicy({ gitmemHome: home, agentId: 'a1', memoryDir, worktreesDir });
});
afterAll(cleanupTmp);

const env = { PATH: '/usr/bin:/bin', LANG: 'C' };

function confine(script: string, o: Partial<ConfineOptions> = {}): { argv: string[]; run: () => Promise<RunConfinedResult> } {
  const c = confineCommand({ command: ['sh', '-c', script], policy, env, ...o });
  expect(c.backend).toBe('bwrap');
  return { argv: c.argv, run: () => runConfined(c, { launch: sharedShellLauncher(), cwd: '/', timeoutMs: 20_000 }) };
}

/** The directory bound over `root`, if the argv binds a view there. */
function viewDir(argv: string[], root = '/etc'): string | undefined {
  const i = argv.findIndex((a, k) => a === '--ro-bind' && argv[k + 2] === root);
  return i === -1 ? undefined : argv[i + 1];
}

// Every name under /etc two levels down with its type and link target, and a checksum of every file there.
const LIST_ETC = 'find /etc -mindepth 1 -maxdepth 2 -printf "%p %y %l\\n" | sort; find /etc -mindepth 1 -maxdepth 2 -type f -exec cksum {} + | sort';

describe('sandbox: the /etc view under real bubblewrap', { tags: ['sandbox'] }, () => {
  it("shows /etc exactly as the per-entry binds do, through one bind from the process's second sandbox on", async () => {
    const perEntry = confine(LIST_ETC); // this test file's process starts its first sandbox
    const viaView = confine(LIST_ETC);
    expect(viewDir(perEntry.argv)).toBeUndefined();
    expect(viewDir(viaView.argv)).toBeDefined();
    expect(viewDir(confine('true', { etcViews: null }).argv)).toBeUndefined();
    expect(viaView.argv.filter((a) => a.startsWith('--ro-bind')).length).toBeLessThan(perEntry.argv.filter((a) => a.startsWith('--ro-bind')).length);
    const [a, b] = await Promise.all([viaView.run(), perEntry.run()]);
    expect(a.exitCode).toBe(0);
    expect(a.stdout).toContain('/etc/passwd f');
    expect(a.stdout).toBe(b.stdout);
  });

  it("has the host's bytes and links, not the secrets, is read-only, and hides the snapshot itself", async () => {
    const runtime = gitmemRuntimeDir(process.env) as string;
    // The operator exposes the runtime dir's parent: the runtime dir inside it stays hidden (an empty tmpfs,
    // holding only the mount points of other hidden dirs inside it).
    const readPaths = [dirname(runtime)];
    const dir = viewDir(confine('true', { readPaths }).argv) as string; // the same view serves the next call
    expect(dir.startsWith(`${runtime}/`)).toBe(true);
    const sep = "printf '\\n=SEP=\\n'";
    const c = confine(
      `cat /etc/passwd; ${sep}; readlink /etc/localtime; ${sep}; ls -A /etc/ssl/certs 2>/dev/null; ${sep}; ` +
        `test -e /etc/shadow && echo SHADOW; echo x >> /etc/passwd && echo WROTE; test -e ${dir} && echo VIEW-SEEN; ` +
        `ls -A ${runtime} 2>/dev/null | grep etcview && echo VIEW-LISTED; true`,
      { readPaths },
    );
    expect(viewDir(c.argv)).toBe(dir);
    const r = await c.run();
    const [passwd, localtime, certs, rest] = r.stdout.split('\n=SEP=\n');
    expect(passwd).toBe(`${readFileSync('/etc/passwd', 'utf8')}`);
    if (lstatSync('/etc/localtime', { throwIfNoEntry: false })?.isSymbolicLink()) expect(localtime).toBe(`${readlinkSync('/etc/localtime')}\n`);
    if (existsSync('/etc/ssl/certs')) expect((certs ?? '').split('\n').filter(Boolean).sort()).toEqual(readdirSync('/etc/ssl/certs').sort());
    expect(rest).toBe('');
    expect(r.stderr).toMatch(/\/etc\/passwd/); // the write was refused
    expect(existsSync(join(dir, 'shadow'))).toBe(false);
  });
});

/** Resolves once some process holds the lock on the view file the argv's `--lock-file` names (fails after 20 s). */
async function heldLock(argv: string[], root: string, dir: string): Promise<void> {
  const rel = (argv[argv.indexOf('--lock-file') + 1] ?? '').slice(root.length + 1);
  const id = lockId(lstatSync(join(dir, rel)));
  for (const start = Date.now(); !lockedFiles()?.has(id); ) {
    if (Date.now() - start > 20_000) throw new Error(`no sandbox took the lock on ${join(dir, rel)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox: a changed source gets a new view, the old one untouched while used', { tags: ['sandbox'] }, () => {
  let fake: string;
  let views: EtcViews;

  beforeAll(() => {
    const base = makeTmpDir('gitmem-etcview-root-');
    fake = join(base, 'etc');
    mkdirSync(join(fake, 'conf.d'), { recursive: true });
    writeFileSync(join(fake, 'passwd'), 'v1\n');
    writeFileSync(join(fake, 'conf.d', 'a.conf'), 'a\n');
    writeFileSync(join(fake, 'shadow'), 'SECRET\n');
    const parent = join(base, 'runtime');
    mkdirSync(parent, { mode: 0o700 });
    views = createEtcViews({ parent, root: fake, retireMs: 100, warmUp: 0 });
  });
  afterAll(() => views.close());

  const confineFake = (script: string): { argv: string[]; run: () => Promise<RunConfinedResult> } =>
    confine(script, { etcViews: views, readPaths: [join(fake, 'passwd'), join(fake, 'conf.d')] });

  it('copies the source again once it changes, and keeps the view a running sandbox started from', async () => {
    const long = confineFake(`cat ${fake}/passwd; sleep 1.5; cat ${fake}/passwd; ls ${fake}; cat ${fake}/conf.d/a.conf`);
    const dir1 = viewDir(long.argv, fake) as string;
    expect(dir1).toBeDefined();
    const running = long.run();
    await heldLock(long.argv, fake, dir1); // the sandbox is up and holds its lock (however slow the machine)
    writeFileSync(join(fake, 'passwd'), 'v2 longer\n');
    const next = confineFake(`cat ${fake}/passwd`);
    const dir2 = viewDir(next.argv, fake) as string;
    expect(dir2).not.toBe(dir1);
    expect((await next.run()).stdout).toBe('v2 longer\n');
    await new Promise((r) => setTimeout(r, 400)); // past retireMs: only the lock keeps the old view
    expect(readFileSync(join(dir1, 'passwd'), 'utf8')).toBe('v1\n');
    const r = await running;
    expect(r.stdout).toBe('v1\nv1\nconf.d\npasswd\na\n'); // no shadow: it is not on the allow-list
    expect(readFileSync(join(dir1, 'passwd'), 'utf8')).toBe('v1\n');
    for (const start = Date.now(); existsSync(dir1) && Date.now() - start < 10_000; ) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(dir1)).toBe(false); // its sandbox is gone: removed at a sweep of the retired views
    expect(existsSync(dir2)).toBe(true);
  });
});
