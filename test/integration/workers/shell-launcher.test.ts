// The shell launcher (how the CLI daemon starts git) must answer exactly like a plain spawn.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess, type ProcessOptions } from '../../../src/process/run.js';
import { createShellLauncher } from '../../../src/process/shell-launcher.js';
import { cleanupTmp, makeTmpDir } from '../../helpers/tmp.js';

const scratch = makeTmpDir('gitmem-launch-');
const launcher = createShellLauncher({ scratchParent: scratch, maxShells: 2 });
afterAll(() => {
  launcher.close();
  cleanupTmp();
});
const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', LANG: 'C', ODD: 'it\'s $HOME `x` "q"\nline2' };
const opts = (o: Partial<ProcessOptions> = {}): ProcessOptions => ({ cwd: scratch, env, ...o });

describe('shell launcher', () => {
  it('gives the same stdout, stderr and exit code as a spawn, for text and binary', async () => {
    const script = 'printf "out\\0bin"; printf "err" >&2; exit 3';
    const [a, b] = await Promise.all([
      launcher.launch('sh', ['-c', script], opts()),
      runProcess('sh', ['-c', script], opts()),
    ]);
    expect(a.exitCode).toBe(3);
    expect(a.stdoutBuffer.equals(b.stdoutBuffer)).toBe(true);
    expect([a.stdout, a.stderr, a.exitCode, a.signal]).toEqual([b.stdout, b.stderr, b.exitCode, b.signal]);
  });

  it('passes arguments and the environment through exactly (quotes, newlines, $, backticks)', async () => {
    const args = ['a b', "it's", '$HOME', '`id`', '', 'new\nline', '*'];
    const r = await launcher.launch(
      'node',
      ['-e', 'console.log(JSON.stringify({ a: process.argv.slice(1), e: process.env }))', ...args],
      opts(),
    );
    const out = JSON.parse(r.stdout) as { a: string[]; e: Record<string, string> };
    expect(out.a).toEqual(args);
    const { PWD: _pwd, OLDPWD: _old, ...rest } = out.e;
    expect(rest).toEqual(env);
  });

  it('feeds input (with NUL bytes) on stdin and runs in the given directory', async () => {
    const dir = mkdtempSync(join(scratch, 'cwd-'));
    const input = Buffer.from('one\0two\n');
    const r = await launcher.launch('sh', ['-c', 'pwd; od -An -c'], opts({ cwd: dir, input }));
    expect(r.stdout.split('\n')[0]).toBe(dir);
    expect(r.stdout).toContain('\\0');
  });

  it('keeps output larger than a pipe buffer', async () => {
    const r = await launcher.launch('sh', ['-c', 'head -c 300000 /dev/zero'], opts());
    expect(r.stdoutBuffer.length).toBe(300000);
  });

  it('reports a missing directory or command the way a spawn does', async () => {
    const missing = await launcher.launch('sh', ['-c', 'true'], opts({ cwd: join(scratch, 'nope') }));
    expect(missing.spawnError).toBeDefined();
    expect(missing.exitCode).toBeNull();
    const unknown = await launcher.launch('no-such-command-gitmem', [], opts());
    expect((unknown.spawnError as NodeJS.ErrnoException | undefined)?.code).toBe('ENOENT');
  });

  it('kills a child on timeout and on abort', async () => {
    const t0 = Date.now();
    const slow = await launcher.launch('sleep', ['30'], opts({ timeoutMs: 200, graceMs: 200 }));
    expect(slow.timedOut).toBe(true);
    expect(slow.exitCode).toBeNull();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const aborted = await launcher.launch('sleep', ['30'], opts({ signal: ac.signal, graceMs: 200 }));
    expect(aborted.aborted).toBe(true);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect([slow.signal, aborted.signal]).toEqual(['SIGTERM', 'SIGTERM']);
    // The stopped group took its shell with it: the next children run on fresh shells, none fails to start.
    const after = await Promise.all([1, 2, 3, 4, 5].map((i) => launcher.launch('sh', ['-c', `echo ${i}`], opts({}))));
    expect(after.map((r) => [r.exitCode, r.stdout.trim(), r.spawnError])).toEqual(
      [1, 2, 3, 4, 5].map((i) => [0, String(i), undefined]),
    );
  });

  it.runIf(process.platform === 'linux')(
    'a timeout stops the helpers a child started too, as a spawn does (its process group)',
    async () => {
      // Alive = exists and not a zombie (an orphan waits for whoever reaps it, which may be slow in a container).
      const alive = (pid: number): boolean => {
        try {
          return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
        } catch {
          return false;
        }
      };
      // The child starts a helper of its own (as git starts git-remote-https) and reports its pid.
      const script = 'sleep 30 & echo $! > helper.pid; wait';
      for (const launch of [launcher.launch, runProcess]) {
        const r = await launch('sh', ['-c', script], opts({ timeoutMs: 300, graceMs: 200 }));
        expect(r.timedOut).toBe(true);
        const pid = Number(readFileSync(join(scratch, 'helper.pid'), 'utf8'));
        for (let i = 0; i < 50 && alive(pid); i++) await new Promise((res) => setTimeout(res, 20));
        expect(alive(pid)).toBe(false);
      }
    },
  );

  it('holds a child until its fd-3 input settles, and kills it unreleased when that rejects (both launchers)', async () => {
    const later = <T>(ms: number, f: () => T): Promise<T> => new Promise((res) => setTimeout(res, ms)).then(f);
    const script = 'IFS= read -r x <&3; exec 3<&-; echo "got [$x]"';
    for (const launch of [launcher.launch, runProcess]) {
      const ok = await launch('sh', ['-c', script], opts({ heldInput: later(150, () => ': released\n') }));
      expect([ok.exitCode, ok.stdout]).toEqual([0, 'got [: released]\n']);
      const marker = join(scratch, `ran-${launch === runProcess ? 'spawn' : 'shell'}`);
      const refused = await launch(
        'sh',
        ['-c', `IFS= read -r x <&3; touch ${marker}`],
        opts({
          heldInput: later<string>(150, () => {
            throw new Error('no');
          }),
        }),
      );
      expect(refused.signal).toBe('SIGKILL');
      expect(existsSync(marker)).toBe(false);
    }
    // the launcher's shells keep working afterwards
    expect((await launcher.launch('sh', ['-c', 'echo fine'], opts())).stdout).toBe('fine\n');
  });

  it('starts a held or capped child from one of its shells, not from this process (so the heap does not slow it)', async () => {
    if (!existsSync('/usr/bin/setpriv')) {
      if (process.env['GITMEM_REQUIRE_SANDBOX'] === '1')
        throw new Error('GITMEM_REQUIRE_SANDBOX=1 but no /usr/bin/setpriv (util-linux)');
      return void console.log(
        'skipped: no setpriv (util-linux): held and capped children are spawned from this process',
      );
    }
    const parentOf = async (o: Partial<ProcessOptions>): Promise<number> =>
      Number((await launcher.launch('sh', ['-c', 'cat <&3 >/dev/null; echo $PPID'], opts(o))).stdout);
    const held = await parentOf({ heldInput: Promise.resolve('go\n') });
    const capped = await parentOf({ heldInput: Promise.resolve(''), killOnOverflow: true, maxBuffer: 1 << 20 });
    for (const ppid of [held, capped]) {
      expect(ppid).not.toBe(process.pid);
      expect(readFileSync(`/proc/${ppid}/comm`, 'utf8').trim()).toBe('sh');
    }
    // stdout and stderr stay apart, exit codes come through, and what is left in the scratch directory is at
    // most the FIFOs of the next jobs, made ahead
    for (let i = 0; i < 3; i++) {
      const r = await launcher.launch(
        'sh',
        ['-c', 'read -r x <&3; echo "o $x"; echo e >&2; exit 7'],
        opts({ heldInput: Promise.resolve(`v${i}\n`) }),
      );
      expect([r.stdout, r.stderr, r.exitCode, r.signal]).toEqual([`o v${i}\n`, 'e\n', 7, null]);
      await new Promise((res) => setTimeout(res, 50)); // the next job then takes FIFOs made ahead
    }
    await new Promise((r) => setTimeout(r, 100));
    const left = readdirSync(scratch)
      .filter((d) => d.startsWith('launch-'))
      .flatMap((d) => readdirSync(join(scratch, d)).map((f) => join(scratch, d, f)));
    expect(left.length).toBeLessThanOrEqual(3 * 8); // the FIFOs of the next jobs, made ahead in one batch
    expect(left.every((f) => statSync(f).isFIFO())).toBe(true);
  });

  it('stops a child whose output passes the cap when asked, keeping only the cap (both launchers)', async () => {
    for (const launch of [launcher.launch, runProcess]) {
      const r = await launch(
        'sh',
        ['-c', 'yes gitmem | head -c 200000000; echo finished'],
        opts({ maxBuffer: 1 << 20, killOnOverflow: true, graceMs: 200 }),
      );
      expect(r.truncated).toBe(true);
      expect(r.exitCode).toBeNull();
      expect(r.stdout.length).toBe(1 << 20);
      expect(r.stdout).not.toContain('finished');
    }
    expect(
      readdirSync(scratch).some(
        (d) => d.startsWith('launch-') && readdirSync(join(scratch, d)).some((f) => f.endsWith('.out')),
      ),
    ).toBe(false);
  });

  it('streams as a spawn answers: stdin input, a late rejection of an exited child, a grandchild holding stdout', async () => {
    const one = createShellLauncher({ scratchParent: scratch, maxShells: 1 });
    try {
      for (const launch of [one.launch, runProcess]) {
        const input = await launch('cat', [], opts({ input: 'hello\n', killOnOverflow: true }));
        expect([input.exitCode, input.stdout]).toEqual([0, 'hello\n']);
        // the child exits before its held input rejects: the rejection must not reach the shell's next job
        const late = new Promise<string>((_, reject) => setTimeout(() => reject(new Error('late')), 300));
        expect((await launch('sh', ['-c', 'exit 1'], opts({ heldInput: late }))).exitCode).toBe(1);
        const next = await launch('sh', ['-c', 'sleep 0.6; echo next done'], opts());
        expect([next.exitCode, next.signal, next.stdout]).toEqual([0, null, 'next done\n']);
        // the child exits 4 while a grandchild keeps its stdout: the timeout stops the group, the exit code stands
        const held = await launch(
          'sh',
          ['-c', 'sleep 3 & echo hi; exit 4'],
          opts({ timeoutMs: 300, graceMs: 200, heldInput: Promise.resolve('') }),
        );
        expect([held.exitCode, held.timedOut, held.stdout]).toEqual([4, true, 'hi\n']);
      }
    } finally {
      one.close();
    }
  });

  it('removes the scratch directories of launchers whose process died: same pid namespace, idle a minute, private parent only', () => {
    const dead = spawnSync('true').pid as number; // exited and reaped: no process has this pid now
    const ns = /\d+/.exec(readlinkSync('/proc/self/ns/pid'))?.[0] as string;
    const old = new Date(Date.now() - 120_000);
    for (const sweep of [true, false]) {
      const parent = mkdtempSync(join(scratch, 'runtime-'));
      const gone = `launch-${ns}-${dead}-aaaa`;
      const kept = [`launch-${ns}-${process.pid}-bbbb`, `launch-1-${dead}-cccc`, `launch-${dead}-dddd`, 'other'];
      for (const n of [gone, ...kept]) {
        mkdirSync(join(parent, n));
        utimesSync(join(parent, n), old, old);
      }
      mkdirSync(join(parent, `launch-${ns}-${dead}-fresh`)); // a dead pid's, but touched just now
      const l = createShellLauncher({ scratchParent: parent, sweep });
      const left = readdirSync(parent).filter(
        (n) => !n.startsWith(`launch-${ns}-${process.pid}-`) || n.endsWith('bbbb'),
      );
      expect(left.sort()).toEqual(
        (sweep ? [...kept, `launch-${ns}-${dead}-fresh`] : [gone, ...kept, `launch-${ns}-${dead}-fresh`]).sort(),
      );
      l.close();
    }
  });

  it('runs more children at once than it has shells (the rest spawn directly)', async () => {
    const rs = await Promise.all(
      Array.from({ length: 6 }, (_, i) => launcher.launch('sh', ['-c', `sleep 0.2; echo ${i}`], opts())),
    );
    expect(rs.map((r) => r.stdout.trim())).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('does not keep its host process alive when idle, but does while a child runs', () => {
    const lib = join(process.cwd(), 'dist', 'process', 'shell-launcher.js');
    const script = `import { createShellLauncher } from ${JSON.stringify(lib)};
      const l = createShellLauncher({ scratchParent: ${JSON.stringify(scratch)} });
      l.launch('sh', ['-c', 'sleep 0.3; echo late'], { cwd: '/', env: { PATH: process.env.PATH } }).then((r) => console.log(r.stdout.trim()));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 10_000 });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('late'); // it waited for the running child, then exited without close()
  });

  it('reports exit codes above 128 as exit codes (git exits 129 on a usage error), not as signals', async () => {
    const r = await launcher.launch('sh', ['-c', 'exit 129'], opts());
    expect([r.exitCode, r.signal]).toEqual([129, null]);
  });

  it('runs from a shell whatever names the environment holds: `_` (bash sets it), specials, exported functions', async () => {
    // What a program started from bash has: `_`, and often exported functions and odd names.
    const odd = {
      ...env,
      _: '/usr/bin/node',
      UID: '4242',
      SHELLOPTS: 'x',
      'BASH_FUNC_f%%': '() {  echo f\n}',
      'BAD-NAME': '1',
    };
    const script = 'console.log(JSON.stringify({ ppid: process.ppid, e: process.env }))';
    const r = await launcher.launch('node', ['-e', script], opts({ env: odd }));
    const out = JSON.parse(r.stdout) as { ppid: number; e: Record<string, string> };
    expect(out.ppid).not.toBe(process.pid); // a resident shell started it: no fork of this process
    const { PWD: _pwd, OLDPWD: _old, ...rest } = out.e;
    const { _: _dropped, ...expected } = odd;
    expect(rest).toEqual(expected);
    const streamed = await launcher.launch('node', ['-e', script], opts({ env: odd, killOnOverflow: true }));
    expect((JSON.parse(streamed.stdout) as { ppid: number }).ppid).not.toBe(process.pid);
  });

  it('falls back to a spawn for relative PATH entries', async () => {
    const dir = mkdtempSync(join(scratch, 'relpath-'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin', 'hello'), '#!/bin/sh\necho rel\n', { mode: 0o755 });
    const rel = await launcher.launch('hello', [], opts({ cwd: dir, env: { ...env, PATH: `bin:${env.PATH}` } }));
    expect(rel.stdout.trim()).toBe('rel');
  });
});
