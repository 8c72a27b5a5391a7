/**
 * Real bubblewrap, run as whatever user the suite runs as (root in CI): a fake $GITMEM_HOME with two agents
 * on /dev/shm, and confined shell commands that try to read, write and escape. Reads are an allow-list:
 * the home is visible only where the policy re-opens it.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import type { SandboxPolicy } from '../../../src/sandbox/policy.js';
import { buildMemoryWriterPolicy } from '../../../src/sandbox/writer-policy.js';
import { confineCommand, type ConfineOptions } from '../../../src/sandbox/launch.js';
import { runConfined, type RunConfinedResult } from '../../../src/sandbox/run.js';
import { createShellLauncher, launcherScratchDirs, sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { errorCodeOf } from '../../helpers/errors.js';

let home: string;
let memA: string;
let worktrees: string;
let wt: string;
let state: string;
let policy: SandboxPolicy;
let parentEnv: Record<string, string | undefined>;

function setup(): void {
  home = makeTmpDir('gitmem-sbx-');
  for (const id of ['a1', 'b2']) {
    const mem = join(home, 'agents', id, 'memory');
    mkdirSync(join(mem, 'system'), { recursive: true });
    writeFileSync(join(mem, 'system', 'secret.md'), `---\ndescription: x\n---\n${id} private fact\n`);
    git(mem, ['init', '-q']);
    git(mem, ['add', '-A']);
    git(mem, ['commit', '-q', '-m', 'init']);
  }
  memA = join(home, 'agents', 'a1', 'memory');
  worktrees = join(home, 'agents', 'a1', 'memory-worktrees');
  wt = join(worktrees, 'w1');
  mkdirSync(worktrees);
  git(memA, ['worktree', 'add', '-q', '-b', 'worker/w1', wt]);
  state = join(home, 'state');
  writeFileSync(join(home, 'public.md'), 'visible\n');
  policy = buildMemoryWriterPolicy({
    gitmemHome: home,
    agentId: 'a1',
    memoryDir: memA,
    worktreesDir: worktrees,
    stateDirs: [state],
    worktreeDir: wt,
  });
  parentEnv = {
    ...hermeticGitEnv(home),
    GIT_CONFIG_GLOBAL: '/nonexistent/gitconfig',
    SECRET_TOKEN: 'tok-123',
    LANG: 'C',
  };
}

async function sh(script: string, o: Partial<ConfineOptions> = {}, cwd = wt): Promise<RunConfinedResult> {
  const confined = confineCommand({ command: ['sh', '-c', script], policy, env: parentEnv, ...o });
  expect(confined.backend).toBe(o.env?.['GITMEM_FS_SANDBOX'] === '0' ? 'none' : 'bwrap');
  return runConfined(confined, { launch: sharedShellLauncher(), cwd, timeoutMs: 20_000 });
}

describe('sandbox: real bubblewrap', { tags: ['sandbox'] }, () => {
  beforeAll(setup);
  afterAll(cleanupTmp);

  it("cannot see another agent's memory nor the rest of the home, while its own memory stays readable", async () => {
    const r = await sh(
      `cat ${memA}/system/secret.md; ls ${home}/agents; cat ${home}/public.md || echo NO-PUBLIC; ` +
        `cat ${home}/agents/b2/memory/system/secret.md || echo HIDDEN; ls ${home}/agents/b2 || echo GONE`,
    );
    expect(r.stdout).toContain('a1 private fact');
    expect(r.stdout).not.toContain('b2 private fact');
    expect(r.stdout).not.toContain('visible');
    expect(r.stdout).toMatch(/^a1$/m);
    expect(r.stdout).not.toMatch(/^b2$/m);
    for (const marker of ['NO-PUBLIC', 'HIDDEN', 'GONE']) expect(r.stdout).toContain(marker);
  });

  it('sees the runtime it needs and none of the rest of the host', async () => {
    const r = await sh(
      'git --version >/dev/null && node -e 0 && echo RUNTIME-OK; ls /; ls /etc; ' +
        'for p in /home /root /var/tmp /opt /srv /mnt /run /etc/shadow /etc/ssh /proc/1/root/etc/shadow; do test -e $p && echo "SEEN $p"; done; true',
    );
    expect(r.stdout).toContain('RUNTIME-OK');
    expect(r.stdout).not.toContain('SEEN');
    expect(r.stdout).toMatch(/^passwd$/m);
    expect(r.stdout).not.toMatch(/^(shadow|gshadow|sudoers|ssh)$/m);
  });

  it('keeps secrets hidden inside a read path the operator adds (files and directories)', async () => {
    const r = await sh(
      'cat /etc/hostname >/dev/null && echo ETC-READ; cat /etc/shadow || echo NO-SHADOW; ls -A /etc/ssh | grep . || echo NO-SSH',
      { readPaths: ['/etc'] },
    );
    for (const marker of ['ETC-READ', 'NO-SHADOW', 'NO-SSH']) expect(r.stdout).toContain(marker);
    if (existsSync('/etc/shadow'))
      expect(r.stdout).not.toContain(readFileSync('/etc/shadow', 'utf8').split(':')[0] + ':');
  });

  it('can commit in its worktree (writing the common .git) but not edit its own memory checkout', async () => {
    const r = await sh(
      `echo new > ${wt}/note.md && git add note.md && git commit -q -m 'worker note' && echo COMMITTED; ` +
        `echo x > ${memA}/system/secret.md || echo RO-CHECKOUT; touch ${memA}/new.md || echo RO-NEW`,
    );
    expect(r.stdout).toContain('COMMITTED');
    expect(r.stdout).toContain('RO-CHECKOUT');
    expect(r.stdout).toContain('RO-NEW');
    expect(git(memA, ['log', '-1', '--format=%s', 'worker/w1'])).toBe('worker note');
    expect(readFileSync(join(memA, 'system', 'secret.md'), 'utf8')).toContain('a1 private fact');
    expect(existsSync(join(memA, 'new.md'))).toBe(false);
  });

  it('cannot plant hooks, rewrite git config or redirect its worktree link', async () => {
    const r = await sh(
      `echo evil > ${memA}/.git/hooks/pre-commit || echo NO-HOOK; echo evil >> ${memA}/.git/config || echo NO-CONFIG; ` +
        `echo 'gitdir: /tmp/x' > ${wt}/.git || echo NO-LINK; rm -f ${wt}/.git || echo NO-RM`,
    );
    expect(r.stdout).toContain('NO-HOOK');
    expect(r.stdout).toContain('NO-CONFIG');
    expect(r.stdout).toContain('NO-LINK');
    expect(r.stdout).toContain('NO-RM');
    expect(existsSync(join(memA, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(readFileSync(join(memA, '.git', 'config'), 'utf8')).not.toContain('evil');
  });

  it('cannot write outside its roots: /etc, $HOME, the home, the agents tree; /tmp is private', async () => {
    const r = await sh(
      `touch /etc/gitmem-x || echo NO-ETC; touch ${home}/x || echo NO-HOME; touch ${home}/agents/x || echo NO-AGENTS; ` +
        `touch /root/gitmem-x || echo NO-ROOT; echo s > ${state}/cursor && echo STATE-OK; ` +
        'echo t > /tmp/gitmem-private-probe && echo TMP-OK',
    );
    for (const marker of ['NO-ETC', 'NO-HOME', 'NO-AGENTS', 'NO-ROOT', 'STATE-OK', 'TMP-OK'])
      expect(r.stdout).toContain(marker);
    expect(existsSync('/etc/gitmem-x')).toBe(false);
    expect(existsSync(join(home, 'x'))).toBe(false);
    expect(readFileSync(join(state, 'cursor'), 'utf8')).toBe('s\n');
    expect(existsSync('/tmp/gitmem-private-probe')).toBe(false);
  });

  it('shows a moved path at its own place, not in the private /tmp, and names it there; elsewhere where it is', async () => {
    const given = mkdtempSync(join(tmpdir(), 'gitmem-moved-'));
    writeFileSync(join(given, 'f'), 'handed over\n');
    try {
      const movedPaths = [{ path: given, inside: '/run/gitmem-test' }];
      const extraEnv = (inside: (p: string) => string) => ({ GIVEN: inside(join(given, 'f')) });
      const r = await sh(
        `echo "AT $GIVEN"; cat "$GIVEN"; ls -A /tmp | grep -Fx ${basename(given)} || echo NOT-IN-TMP; touch "$GIVEN" || echo READ-ONLY`,
        { movedPaths, extraEnv },
      );
      expect(r.stdout).toContain('AT /run/gitmem-test/f\nhanded over\nNOT-IN-TMP\n');
      expect(r.stdout).toContain('READ-ONLY');
      // a place another root holds: shown where it is, and named there
      const taken = await sh('echo "AT $GIVEN"; cat "$GIVEN"', { movedPaths, extraEnv, readPaths: ['/run'] });
      expect(taken.stdout).toBe(`AT ${join(given, 'f')}\nhanded over\n`);
      const off = confineCommand({
        command: ['true'],
        policy,
        env: { ...parentEnv, GITMEM_FS_SANDBOX: '0' },
        movedPaths,
        extraEnv,
        onWarning: () => undefined,
      });
      expect(off.env['GIVEN']).toBe(join(given, 'f'));
    } finally {
      rmSync(given, { recursive: true, force: true });
    }
  });

  it('cannot unmount, remount or re-namespace its way out, even as root', async () => {
    const r = await sh(
      `grep CapEff /proc/self/status; umount ${home} || echo NO-UMOUNT; umount -l ${home} || echo NO-UMOUNT-L; ` +
        'mount -o remount,rw / || echo NO-REMOUNT; ' +
        `unshare -Urm sh -c 'umount -l ${home}; cat ${home}/agents/b2/memory/system/secret.md' || echo NO-USERNS; ` +
        `cat ${home}/agents/b2/memory/system/secret.md || echo STILL-HIDDEN; touch /escape-probe || echo STILL-RO`,
    );
    expect(r.stdout).toMatch(/CapEff:\s+0+$/m);
    for (const marker of ['NO-UMOUNT', 'NO-UMOUNT-L', 'NO-REMOUNT', 'NO-USERNS', 'STILL-HIDDEN', 'STILL-RO']) {
      expect(r.stdout).toContain(marker);
    }
    expect(r.stdout).not.toContain('b2 private fact');
  });

  describe('network', () => {
    let server: Server;
    let port = 0;
    beforeAll(async () => {
      server = createServer((s) => s.end('hello\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    const probe = (p: number) =>
      `${process.execPath} -e "require('net').connect(${p},'127.0.0.1').on('data',d=>{console.log('GOT',String(d).trim());process.exit(0)}).on('error',e=>{console.log('NET',e.code);process.exit(0)})"`;

    it('is off by default and on only when the policy allows it', async () => {
      const off = await sh(probe(port));
      expect(off.stdout).toMatch(/NET (ECONNREFUSED|ENETUNREACH)/);
      const saved = policy;
      policy = { ...policy, allowNetwork: true };
      try {
        expect((await sh(probe(port))).stdout).toContain('GOT hello');
      } finally {
        policy = saved;
      }
    });
  });

  it("hides the CLI daemon's runtime directory even inside a read path (its socket would run commands unconfined)", async () => {
    const shared = makeTmpDir('gitmem-sbx-shared-');
    const runtime = join(shared, 'run', `gitmem-${process.getuid?.() ?? 0}`);
    mkdirSync(runtime, { recursive: true, mode: 0o700 });
    writeFileSync(join(runtime, 'daemon.sock'), '');
    writeFileSync(join(shared, 'note.txt'), 'shared\n');
    const env = { ...parentEnv, XDG_RUNTIME_DIR: join(shared, 'run') };
    const r = await sh(`cat ${shared}/note.txt; test -e ${runtime}/daemon.sock && echo SEEN || echo HIDDEN`, {
      env,
      readPaths: [shared],
    });
    expect(r.stdout).toContain('shared');
    expect(r.stdout).toContain('HIDDEN');
  });

  it("hides this process's launcher scratch directories even inside a read path (their FIFOs take writes through a read-only mount)", async () => {
    const shared = makeTmpDir('gitmem-sbx-launch-');
    const launcher = createShellLauncher({ scratchParent: shared });
    try {
      const scratchDir = launcherScratchDirs().find((d) => d.startsWith(shared)) as string;
      writeFileSync(join(scratchDir, '7.out'), "another job's output\n");
      writeFileSync(join(shared, 'note.txt'), 'shared\n');
      const r = await sh(`cat ${shared}/note.txt; test -e ${scratchDir}/7.out && echo SEEN || echo HIDDEN`, {
        readPaths: [shared],
      });
      expect(r.stdout).toContain('shared');
      expect(r.stdout).toContain('HIDDEN');
    } finally {
      launcher.close();
    }
  });

  it('passes only the allow-listed environment plus the sentinel and what the caller adds', async () => {
    const r = await sh('env', { passEnv: ['LANG'], extraEnv: { GITMEM_AGENT_ID: 'a1' } });
    expect(r.stdout).toMatch(/^GITMEM_SANDBOX=bwrap$/m);
    expect(r.stdout).toMatch(/^HOME=\/var\/empty$/m);
    expect(r.stdout).toMatch(/^TMPDIR=\/tmp$/m);
    expect(r.stdout).toMatch(/^GITMEM_AGENT_ID=a1$/m);
    expect(r.stdout).toMatch(/^GIT_AUTHOR_NAME=Test User$/m);
    expect(r.stdout).not.toContain('SECRET_TOKEN');
    expect(r.stdout).not.toContain('tok-123');
  });

  it('refuses to nest: the confined environment carries the sentinel', () => {
    const inner = confineCommand({ command: ['true'], policy, env: parentEnv });
    expect(errorCodeOf(() => confineCommand({ command: ['true'], policy, env: inner.env }))).toBe('SANDBOX_NESTED');
    expect(
      errorCodeOf(() => confineCommand({ command: ['true'], policy, env: { ...parentEnv, GITMEM_SANDBOX: 'none' } })),
    ).toBe('SANDBOX_NESTED');
  });

  it('GITMEM_FS_SANDBOX=0 runs unconfined, but only after a loud warning', async () => {
    const warnings: string[] = [];
    const env = { ...parentEnv, GITMEM_FS_SANDBOX: '0' };
    const c = confineCommand({
      command: ['cat', join(home, 'agents/b2/memory/system/secret.md')],
      policy,
      env,
      onWarning: (m) => warnings.push(m),
    });
    expect(c.backend).toBe('none');
    expect(c.env['GITMEM_SANDBOX']).toBe('none');
    expect(warnings.join('\n')).toMatch(/WARNING: GITMEM_FS_SANDBOX=0 .*WITHOUT a filesystem sandbox/);
    expect((await runConfined(c, { launch: sharedShellLauncher(), cwd: wt })).stdout).toContain('b2 private fact');
  });

  it('fails closed without a backend: SANDBOX_UNAVAILABLE, never an unconfined run', () => {
    expect(
      errorCodeOf(() => confineCommand({ command: ['true'], policy, env: { ...parentEnv, PATH: '/nonexistent' } })),
    ).toBe('SANDBOX_UNAVAILABLE');
    expect(errorCodeOf(() => confineCommand({ command: ['true'], policy, env: parentEnv, platform: 'win32' }))).toBe(
      'SANDBOX_UNAVAILABLE',
    );
    expect(
      errorCodeOf(() =>
        confineCommand({ command: ['true'], policy, env: parentEnv, backend: { name: 'none', reason: 'test' } }),
      ),
    ).toBe('SANDBOX_UNAVAILABLE');
  });

  it('refuses a missing memory dir with a clear error and pins a missing hooks dir read-only', async () => {
    const ghost = buildMemoryWriterPolicy({
      gitmemHome: home,
      agentId: 'zz',
      memoryDir: join(home, 'agents/zz/memory'),
      worktreesDir: join(home, 'agents/zz/memory-worktrees'),
    });
    let err: unknown;
    try {
      confineCommand({ command: ['true'], policy: ghost, env: parentEnv });
    } catch (e) {
      err = e;
    }
    expect(isMemoryError(err, 'MEMORY_DIR_MISSING')).toBe(true);
    expect((err as Error).message).toContain(join(home, 'agents/zz/memory'));

    const memB = join(home, 'agents/b2/memory');
    mkdirSync(join(home, 'agents/b2/memory-worktrees'));
    const hooksGone = join(memB, '.git', 'hooks');
    rmSync(hooksGone, { recursive: true, force: true });
    const bPolicy = buildMemoryWriterPolicy({
      gitmemHome: home,
      agentId: 'b2',
      memoryDir: memB,
      worktreesDir: join(home, 'agents/b2/memory-worktrees'),
    });
    const c = confineCommand({
      command: ['sh', '-c', `mkdir -p ${hooksGone}; echo evil > ${hooksGone}/pre-commit || echo PINNED`],
      policy: bPolicy,
      env: parentEnv,
    });
    const r = await runConfined(c, { launch: sharedShellLauncher(), cwd: memB });
    expect(r.stdout).toContain('PINNED');
    expect(existsSync(join(hooksGone, 'pre-commit'))).toBe(false);
  });

  it('resolves symbolic links in the policy, so a linked home still hides the other agents, and keeps the linked spelling working', async () => {
    const link = join(makeTmpDir('gitmem-sbx-link-'), 'home');
    symlinkSync(home, link);
    const linked = buildMemoryWriterPolicy({
      gitmemHome: link,
      agentId: 'a1',
      memoryDir: join(link, 'agents/a1/memory'),
      worktreesDir: join(link, 'agents/a1/memory-worktrees'),
    });
    const script = `cat ${link}/agents/a1/memory/system/secret.md; cat ${home}/agents/b2/memory/system/secret.md || echo HIDDEN`;
    const c = confineCommand({ command: ['sh', '-c', script], policy: linked, env: parentEnv });
    expect(c.argv.join(' ')).toContain(`--tmpfs ${home} `);
    expect(c.argv.join(' ')).toContain(`--symlink ${home} ${link} `);
    const r = await runConfined(c, { launch: sharedShellLauncher(), cwd: wt });
    expect(r.stdout).toContain('a1 private fact');
    expect(r.stdout).toContain('HIDDEN');
    expect(r.stdout).not.toContain('b2 private fact');
  });

  it('runs in the given cwd via --chdir and refuses a cwd the policy hides', async () => {
    const c = confineCommand({ command: ['pwd'], policy, env: parentEnv, cwd: wt });
    expect((await runConfined(c, { launch: sharedShellLauncher(), cwd: '/' })).stdout.trim()).toBe(wt);
    const hiddenCwd = join(home, 'agents/b2/memory');
    expect(errorCodeOf(() => confineCommand({ command: ['pwd'], policy, env: parentEnv, cwd: hiddenCwd }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(errorCodeOf(() => confineCommand({ command: ['pwd'], policy, env: parentEnv, cwd: 'relative/dir' }))).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('stops a runaway command at its timeout and on abort (SIGTERM, then SIGKILL)', async () => {
    const slow = confineCommand({ command: ['sh', '-c', "trap '' TERM; sleep 30"], policy, env: parentEnv });
    const t0 = Date.now();
    const timed = await runConfined(slow, { launch: sharedShellLauncher(), cwd: wt, timeoutMs: 200, graceMs: 300 });
    expect(timed.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(5_000);
    const ac = new AbortController();
    const pending = runConfined(confineCommand({ command: ['sleep', '30'], policy, env: parentEnv }), {
      launch: sharedShellLauncher(),
      cwd: wt,
      signal: ac.signal,
    });
    setTimeout(() => ac.abort(), 100);
    const aborted = await pending;
    expect(aborted.aborted).toBe(true);
    expect(aborted.exitCode).not.toBe(0);
  });

  it('goes down with a caller killed mid-run (kill -9), though it was started from a launcher shell', async () => {
    const marker = `${(Date.now() % 1000) + 100}.4242`; // a sleep argument no other process has
    const dist = join(process.cwd(), 'dist');
    const script = `
      const { confineCommand } = await import(${JSON.stringify(join(dist, 'sandbox/launch.js'))});
      const { runConfined } = await import(${JSON.stringify(join(dist, 'sandbox/run.js'))});
      const { sharedShellLauncher } = await import(${JSON.stringify(join(dist, 'process/shell-launcher.js'))});
      const [policy, env, cwd] = JSON.parse(process.argv[1]);
      await runConfined(confineCommand({ command: ['sleep', ${JSON.stringify(marker)}], policy, env }), { cwd, heldInput: Promise.resolve(''), launch: sharedShellLauncher() });`;
    const caller = spawn(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify([policy, parentEnv, wt])],
      { stdio: 'ignore' },
    );
    const sleepers = (): string[] =>
      readdirSync('/proc').filter(
        (pid) =>
          /^\d+$/.test(pid) &&
          (() => {
            try {
              return readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${marker}\0`;
            } catch {
              return false;
            }
          })(),
      );
    const waitFor = async (ok: () => boolean): Promise<boolean> => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
      return ok();
    };
    expect(await waitFor(() => sleepers().length === 1)).toBe(true);
    caller.kill('SIGKILL');
    expect(await waitFor(() => sleepers().length === 0)).toBe(true);
  });
});
