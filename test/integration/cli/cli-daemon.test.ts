// The CLI daemon, end to end with the built CLI: served calls behave exactly like local ones, the
// daemon starts and stops itself, and no call is ever run twice or lost when the daemon misbehaves.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const MAIN = join(process.cwd(), 'dist/bin/gitmem.cjs');
const uid = process.getuid?.() ?? 0;

interface Setup {
  home: string;
  env: Record<string, string>;
  runtime: string;
}

function setup(name: string): Setup {
  const root = makeTmpDir(`gitmem-daemon-${name}-`);
  const home = join(root, 'home');
  const env = { ...hermeticGitEnv(root), GITMEM_HOME: home, GITMEM_DAEMON: '1', XDG_RUNTIME_DIR: join(root, 'run') };
  return { home, env, runtime: join(root, 'run', `gitmem-${uid}`) };
}

function cli(s: Setup, args: string[], o: { input?: string; cwd?: string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    env: { ...s.env, ...o.env },
    cwd: o.cwd,
    encoding: 'utf8',
    input: o.input ?? '',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function served(s: Setup): number {
  const r = cli(s, ['daemon', 'status', '--json']);
  const info = JSON.parse(r.stdout) as { running: boolean; served?: number };
  return info.running ? (info.served ?? 0) : -1;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const memoryDir = (s: Setup): string => join(s.home, 'agents', 'a', 'memory');
const commits = (s: Setup): number => Number(git(memoryDir(s), ['rev-list', '--count', 'HEAD']));
const started: Setup[] = [];
function init(name: string, daemonEnv: Record<string, string> = {}): Setup {
  const s = setup(name);
  expect(cli(s, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } }).code).toBe(0);
  expect(cli(s, ['daemon', 'start'], { env: daemonEnv }).code).toBe(0);
  started.push(s);
  return s;
}

afterAll(() => {
  for (const s of started) cli(s, ['daemon', 'stop']);
  cleanupTmp();
});

describe('CLI daemon: served calls are the same calls', () => {
  let s: Setup;
  let twin: Setup;
  beforeAll(() => {
    s = init('same');
    twin = setup('twin');
    cli(twin, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
  });

  it('writes, reads and errors answer exactly as without a daemon (output, stderr, exit code)', () => {
    const calls: Array<{ args: string[]; input?: string }> = [
      {
        args: [
          'memory',
          'create',
          'notes/a.md',
          '--description',
          'A',
          '--text',
          'alpha\n',
          '--reason',
          'add a',
          '--agent',
          'a',
        ],
      },
      {
        args: [
          'memory',
          'str-replace',
          'notes/a.md',
          '--old',
          'alpha',
          '--new',
          'beta',
          '--reason',
          'edit a',
          '--agent',
          'a',
        ],
      },
      {
        args: [
          'memory',
          'create',
          'notes/a.md',
          '--description',
          'A',
          '--text',
          'x',
          '--reason',
          'dup',
          '--agent',
          'a',
        ],
      },
      {
        args: [
          'memory',
          'str-replace',
          'notes/a.md',
          '--old',
          'zzz',
          '--new',
          'y',
          '--reason',
          'miss',
          '--agent',
          'a',
          '--json',
        ],
      },
      {
        args: [
          'memory',
          'create',
          '../evil.md',
          '--description',
          'x',
          '--text',
          'x',
          '--reason',
          'escape',
          '--agent',
          'a',
        ],
      },
      { args: ['memory', 'nope', '--agent', 'a'] },
      {
        args: ['memory', 'tool', '--call', '-', '--agent', 'a'],
        input: JSON.stringify({
          command: 'create',
          file_path: 'notes/b.md',
          description: 'B',
          file_text: 'b',
          reason: 'from stdin',
        }),
      },
      {
        args: ['memory', 'apply-patch', '--reason', 'patch', '--agent', 'a'],
        input: '*** Begin Patch\n*** Add File: notes/c.md\n+---\n+description: C\n+---\n+c\n*** End Patch\n',
      },
      { args: ['tree', '--agent', 'a'] },
      { args: ['status', '--agent', 'a', '--json'] },
      { args: ['agents', '--json'] },
      { args: ['log', '-n', '1', '--agent', 'nobody'] },
    ];
    const before = served(s);
    const hide = (t: string): string =>
      t
        .replace(/\b[0-9a-f]{7,40}\b/g, '<sha>')
        .split(s.home)
        .join('<home>')
        .split(twin.home)
        .join('<home>');
    for (const c of calls) {
      const viaDaemon = cli(s, c.args, c.input === undefined ? {} : { input: c.input });
      const local = cli(twin, c.args, {
        ...(c.input === undefined ? {} : { input: c.input }),
        env: { GITMEM_DAEMON: '0' },
      });
      expect({ args: c.args, code: viaDaemon.code, out: hide(viaDaemon.stdout), err: hide(viaDaemon.stderr) }).toEqual({
        args: c.args,
        code: local.code,
        out: hide(local.stdout),
        err: hide(local.stderr),
      });
    }
    expect(served(s) - before).toBe(calls.length); // every one of them ran in the daemon
    expect(git(memoryDir(s), ['log', '--format=%s', '-4'])).toBe('patch\nfrom stdin\nedit a\nadd a');
  });

  it("resolves relative paths against the caller's directory and uses the caller's environment", () => {
    const work = makeTmpDir('gitmem-daemon-cwd-');
    writeFileSync(join(work, 'body.txt'), 'from a file\n');
    const r = cli(
      s,
      [
        'memory',
        'create',
        'notes/file.md',
        '--description',
        'F',
        '--text-file',
        'body.txt',
        '--reason',
        'rel',
        '--agent',
        'a',
      ],
      { cwd: work },
    );
    expect(r.code).toBe(0);
    expect(git(memoryDir(s), ['show', 'HEAD:notes/file.md'])).toContain('from a file');
    const viaEnv = cli(
      s,
      ['memory', 'create', 'notes/env.md', '--description', 'E', '--text', 'e', '--reason', 'env scope'],
      {
        env: { GITMEM_AGENT_ID: 'a', GITMEM_AGENT_NAME: 'Someone Else' },
      },
    );
    expect(viaEnv.code).toBe(0);
    expect(git(memoryDir(s), ['log', '-1', '--format=%an|%s'])).toBe('Someone Else|env scope');
    const rel = cli(
      s,
      ['memory', 'create', 'notes/dir.md', '--description', 'D', '--text', 'd', '--reason', 'dir env'],
      {
        cwd: join(s.home, 'agents'),
        env: { GITMEM_MEMORY_DIR: 'a/memory' },
      },
    );
    expect(rel.code).toBe(0);
    expect(git(memoryDir(s), ['log', '-1', '--format=%s'])).toBe('dir env');
  });

  it('carries large requests, stdin and output whole, multi-byte characters included', () => {
    const before = served(s);
    const big = 'é€😀 '.repeat(18_000); // ~180 kB: larger than a pipe holds, characters split across reads
    const arg = big.slice(0, 50_000); // ~100 kB: under the kernel's 128 kB limit for one argument
    const text = cli(s, [
      'memory',
      'create',
      'notes/big.md',
      '--description',
      'big',
      '--text',
      arg,
      '--reason',
      'big text',
      '--agent',
      'a',
    ]);
    expect(text.code).toBe(0);
    const call = JSON.stringify({
      command: 'create',
      file_path: 'notes/big2.md',
      description: 'b',
      file_text: big,
      reason: 'big stdin ✓',
    });
    expect(cli(s, ['memory', 'tool', '--call', '-', '--agent', 'a'], { input: call }).code).toBe(0);
    const shown = cli(s, [
      'memory',
      'str-replace',
      'notes/big2.md',
      '--old',
      '😀 é€😀',
      '--new',
      'x',
      '--all',
      '--reason',
      'r',
      '--agent',
      'a',
    ]);
    expect(shown.code).toBe(0);
    expect(served(s) - before).toBe(3);
    expect(git(memoryDir(s), ['show', 'HEAD~1:notes/big2.md'])).toContain(big.trim());
    expect(git(memoryDir(s), ['show', 'HEAD~2:notes/big.md'])).toContain(arg.trim());
    const log = cli(s, ['log', '-n', '2', '--agent', 'a', '--json']);
    expect((JSON.parse(log.stdout) as Array<{ reason: string }>).map((e) => e.reason)).toEqual(['r', 'big stdin ✓']);
  });
});

describe('CLI daemon: lifecycle', () => {
  it('the first served call starts a daemon; GITMEM_DAEMON=0 never does', async () => {
    const s = setup('auto');
    cli(s, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
    cli(s, ['log', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
    // (the runtime directory may exist: the launcher keeps its scratch there; no daemon socket may)
    expect(existsSync(s.runtime) ? readdirSync(s.runtime).filter((f) => f.endsWith('.sock')) : []).toEqual([]);
    expect(cli(s, ['log', '--agent', 'a']).code).toBe(0);
    started.push(s);
    await until(() => served(s) >= 0);
    expect(
      cli(s, ['memory', 'create', 'n.md', '--description', 'n', '--text', 'n', '--reason', 'r', '--agent', 'a']).code,
    ).toBe(0);
    expect(served(s)).toBeGreaterThanOrEqual(1);
  });

  it('a starting daemon removes logs of daemons gone for a week, and only those', () => {
    const s = setup('logs');
    cli(s, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
    mkdirSync(s.runtime, { recursive: true, mode: 0o700 });
    writeFileSync(join(s.runtime, 'old.log'), 'x');
    writeFileSync(join(s.runtime, 'recent.log'), 'x');
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    utimesSync(join(s.runtime, 'old.log'), eightDaysAgo, eightDaysAgo);
    expect(cli(s, ['daemon', 'start']).code).toBe(0);
    started.push(s);
    expect(existsSync(join(s.runtime, 'old.log'))).toBe(false);
    expect(existsSync(join(s.runtime, 'recent.log'))).toBe(true);
  });

  it('stops when idle and when its home is removed', async () => {
    const idle = setup('idle');
    cli(idle, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
    expect(cli(idle, ['daemon', 'start'], { env: { GITMEM_DAEMON_IDLE: '1' } }).code).toBe(0);
    await until(() => served(idle) === -1);
    const gone = init('gone');
    rmSync(gone.home, { recursive: true, force: true });
    await until(() => served(gone) === -1);
  });

  it('after kill -9 the next call runs locally and starts a new daemon', async () => {
    const s = init('killed');
    const pid = (JSON.parse(cli(s, ['daemon', 'status', '--json']).stdout) as { pid: number }).pid;
    process.kill(pid, 'SIGKILL');
    const r = cli(s, [
      'memory',
      'create',
      'k.md',
      '--description',
      'k',
      '--text',
      'k',
      '--reason',
      'after kill',
      '--agent',
      'a',
    ]);
    expect(r.code).toBe(0);
    expect(git(memoryDir(s), ['log', '-1', '--format=%s'])).toBe('after kill');
    await until(() => served(s) >= 0);
    expect((JSON.parse(cli(s, ['daemon', 'status', '--json']).stdout) as { pid: number }).pid).not.toBe(pid);
  });

  it('never uses a runtime directory other users can enter', () => {
    const s = setup('unsafe');
    cli(s, ['init', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } });
    mkdirSync(s.runtime, { recursive: true });
    chmodSync(s.runtime, 0o755);
    expect(
      cli(s, ['memory', 'create', 'u.md', '--description', 'u', '--text', 'u', '--reason', 'r', '--agent', 'a']).code,
    ).toBe(0);
    expect(readdirSync(s.runtime)).toEqual([]); // no daemon was started there
    const start = cli(s, ['daemon', 'start']);
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/DAEMON_UNAVAILABLE|DAEMON_UNSAFE_DIR/);
  });
});

describe('CLI daemon: never twice, never lost', () => {
  it('many calls at once: every write lands once, the repo stays clean', async () => {
    const s = init('parallel');
    const before = commits(s);
    const run = (i: number): Promise<number | null> =>
      new Promise((resolve) => {
        const args = [
          MAIN,
          'memory',
          'create',
          `p/${i}.md`,
          '--description',
          `p${i}`,
          '--text',
          `${i}`,
          '--reason',
          `parallel ${i}`,
          '--agent',
          'a',
        ];
        spawn(process.execPath, args, { env: s.env, stdio: 'ignore' }).on('close', resolve);
      });
    const codes = await Promise.all(Array.from({ length: 12 }, (_, i) => run(i)));
    expect(codes).toEqual(Array(12).fill(0));
    expect(commits(s)).toBe(before + 12);
    expect(cli(s, ['status', '--agent', 'a']).stdout).toContain('clean');
    expect(served(s)).toBeGreaterThanOrEqual(12);
  });

  it('a daemon killed while it holds a command: the client says DAEMON_LOST (exit 2), nothing half-done', async () => {
    const s = init('lost', { GITMEM_DAEMON_TRACE: '1' });
    const pid = (JSON.parse(cli(s, ['daemon', 'status', '--json']).stdout) as { pid: number }).pid;
    const before = commits(s);
    const child = spawn(process.execPath, [MAIN, 'memory', 'apply-patch', '--reason', 'never', '--agent', 'a'], {
      env: s.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const log = join(s.runtime, readdirSync(s.runtime).find((n) => n.endsWith('.log')) as string);
    await until(() => readFileSync(log, 'utf8').includes('running memory apply-patch')); // the daemon took it: it waits for stdin
    process.kill(pid, 'SIGKILL');
    child.stdin.end('*** Begin Patch\n*** Add File: lost.md\n+---\n+description: l\n+---\n+l\n*** End Patch\n');
    expect(await exited).toBe(2);
    expect(stderr).toContain('DAEMON_LOST');
    expect(commits(s)).toBe(before);
    expect(cli(s, ['status', '--agent', 'a'], { env: { GITMEM_DAEMON: '0' } }).stdout).toContain('clean');
  });

  it('a stopping daemon never runs the command of a client still connected: it refuses or hangs up', async () => {
    const s = init('refuse');
    const before = commits(s);
    const socket = join(s.runtime, readdirSync(s.runtime).find((n) => n.endsWith('.sock')) as string);
    const conn = connect(socket);
    let received = '';
    conn.on('data', (c: Buffer) => (received += c.toString()));
    const closed = new Promise<void>((resolve) => conn.on('close', () => resolve()));
    conn.on('error', () => undefined);
    await until(() => received.includes('"ready"')); // accepted before the stop
    expect(cli(s, ['daemon', 'stop']).code).toBe(0);
    const argv = [
      'memory',
      'create',
      'late.md',
      '--description',
      'l',
      '--text',
      'l',
      '--reason',
      'late',
      '--agent',
      'a',
    ];
    conn.write(`${JSON.stringify({ t: 'run', v: 1, argv, env: s.env, cwd: '/' })}\n${JSON.stringify({ t: 'go' })}\n`);
    await closed;
    const frames = received
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string });
    expect(frames.map((f) => f.t).filter((t) => t !== 'ready' && t !== 'refused')).toEqual([]); // no output, no exit: never run
    expect(commits(s)).toBe(before);
  });

  it('a stalled daemon: the call is withdrawn and runs here, exactly once', async () => {
    const s = init('stalled');
    expect(
      cli(s, ['memory', 'create', 'once.md', '--description', 'o', '--text', 'o\n', '--reason', 'file', '--agent', 'a'])
        .code,
    ).toBe(0);
    const pid = (JSON.parse(cli(s, ['daemon', 'status', '--json']).stdout) as { pid: number }).pid;
    const before = commits(s);
    process.kill(pid, 'SIGSTOP');
    try {
      // An insert succeeds every time it runs, so a second run would show as a second commit.
      const r = cli(s, [
        'memory',
        'insert',
        'once.md',
        '--line',
        '3',
        '--text',
        'added',
        '--reason',
        'exactly once',
        '--agent',
        'a',
      ]);
      expect(r.code).toBe(0);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await new Promise((r) => setTimeout(r, 500)); // let the resumed daemon read its doorbell
    expect(commits(s)).toBe(before + 1);
    expect(git(memoryDir(s), ['log', '--format=%s', '-2'])).toBe('exactly once\nfile');
    expect(git(memoryDir(s), ['show', 'HEAD:once.md']).match(/added/g)).toHaveLength(1);
    expect(cli(s, ['status', '--agent', 'a']).stdout).toContain('clean');
  });
});
