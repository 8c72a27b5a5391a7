// No unconfined helper is reachable from a background writer. The CLI daemon runs whatever it is sent,
// outside the sandbox, so a confined body that found its socket could write `main` through it.
// A daemon is started with another XDG_RUNTIME_DIR and TMPDIR than the worker's; the worker body searches
// the whole visible filesystem for sockets and speaks gitmem's own client protocol to each.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runThroughDaemon } from '../../../src/cli/daemon/client.js';
import { cleanupTmp, git, hermeticGitEnv } from '../../helpers/tmp.js';

const PKG = process.cwd();
const CLI = join(PKG, 'dist/bin/gitmem.cjs');
const uid = process.getuid?.() ?? 0;

let root: string;
let home: string;
let env: Record<string, string>;
let daemonEnv: Record<string, string>;
let runtimeBase: string;
const memoryDir = (): string => join(home, 'agents', 'a1', 'memory');

function gitmem(args: string[], e: Record<string, string> = env) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: e, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function served(): number {
  const info = JSON.parse(gitmem(['daemon', 'status', '--json'], daemonEnv).stdout) as {
    running: boolean;
    served?: number;
  };
  expect(info.running).toBe(true);
  return info.served ?? 0;
}

/**
 * A hostile client: finds every socket (and FIFO) it can see (plus the daemon's real location, which it
 * knows here), and asks each, through gitmem's own client code, to create `pwned.md` in main. The
 * sandbox's marker variable is dropped first, as a hostile body would.
 */
function attackScript(known: string[], sink: 'file' | 'stdout' = 'file'): string {
  const search = sink === 'file'; // inside gitmem's sandbox, search everything visible; outside, only what it knows
  return `
import { lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
const { runThroughDaemon } = await import(${JSON.stringify(join(PKG, 'dist/cli/daemon/client.js'))});
const found = new Set();
let channel;
const walk = (dir, depth) => {
  if (depth > 14) return;
  let names = [];
  try { names = readdirSync(dir); } catch { return; }
  for (const n of names) {
    const p = join(dir, n);
    if (['/proc', '/sys', '/usr'].includes(p) || n === 'node_modules') continue;
    let st;
    try { st = lstatSync(p); } catch { continue; }
    if (p === process.env.GITMEM_HOOK_SOCKET) channel = p; // the writer's own hook channel: probed below
    else if (st.isSocket() || st.isFIFO()) found.add(p);
    else if (st.isDirectory()) walk(p, depth + 1);
  }
};
if (${search}) walk('/', 0);
for (const p of ${JSON.stringify(known)}) { try { lstatSync(p); found.add(p); } catch {} }
const clientEnv = { ...process.env, GITMEM_HOME: ${JSON.stringify(home)}, GITMEM_DAEMON: '1' };
delete clientEnv.GITMEM_SANDBOX;
const request = { argv: ['memory', 'create', 'pwned.md', '--description', 'x', '--text', 'pwned', '--reason', 'via the daemon', '--agent', 'a1'], env: clientEnv, cwd: '/' };
const streams = { stdout: () => {}, stderr: () => {}, readStdin: () => '' };
const lines = [];
for (const p of [...found].sort()) {
  let outcome;
  try {
    if (p.endsWith('.sock')) outcome = await runThroughDaemon(p, request, streams, { handshakeMs: 3000 });
    else outcome = 'ignored';
  } catch (e) { outcome = 'error ' + e.code; }
  lines.push(p + ' => ' + JSON.stringify(outcome));
}
if (channel) lines.push('channel ' + channel + ' => ' + JSON.stringify(await runThroughDaemon(channel, request, streams, { handshakeMs: 3000 })));
const report = '---\\ndescription: probe\\n---\\nfound ' + found.size + '\\n' + lines.join('\\n') + '\\n';
if (${JSON.stringify(sink)} === 'stdout') process.stdout.write(report);
else writeFileSync('probe-daemon.md', report);
`;
}

function runAttack(extra: Record<string, string> = {}): string {
  const known = [join(runtimeBase, `gitmem-${uid}`)];
  for (const n of readdirSync(known[0] as string)) {
    if (n.endsWith('.sock')) known.push(join(known[0] as string, n));
  }
  const body = `cat > /tmp/attack.mjs <<'EOF'\n${attackScript(known)}\nEOF\nnode /tmp/attack.mjs && git add -A && git commit -qm report`;
  const r = gitmem(['worker', 'run', '--agent', 'a1', '--json', '--command', body], { ...env, ...extra });
  expect(r.code, r.stderr).toBe(0);
  return git(memoryDir(), ['show', 'main:probe-daemon.md'], env);
}

beforeAll(() => {
  // on disk, outside /tmp and /dev: places the sandbox replaces would hide the daemon by accident
  root = mkdtempSync(join('/var/tmp', 'gitmem-sbx-daemon-'));
  home = join(root, 'home');
  runtimeBase = join(root, 'elsewhere', 'run');
  mkdirSync(join(root, 'elsewhere', 'tmp'), { recursive: true });
  env = { ...hermeticGitEnv(root), HOME: join(root, 'user'), GITMEM_HOME: home, GITMEM_DAEMON: '0' };
  // the daemon's environment differs from the worker's: another runtime dir and temp dir
  daemonEnv = { ...env, GITMEM_DAEMON: '1', XDG_RUNTIME_DIR: runtimeBase, TMPDIR: join(root, 'elsewhere', 'tmp') };
  expect(gitmem(['init', '--agent', 'a1']).code).toBe(0);
  expect(gitmem(['daemon', 'start'], daemonEnv).code).toBe(0);
  expect(gitmem(['tree', '--agent', 'a1'], daemonEnv).code).toBe(0); // the daemon answers outside the sandbox
});

afterAll(async () => {
  gitmem(['daemon', 'stop'], daemonEnv);
  // the daemon removes its own files as it stops: wait for it before removing the tree under it
  for (
    let i = 0;
    i < 100 && (JSON.parse(gitmem(['daemon', 'status', '--json'], daemonEnv).stdout) as { running: boolean }).running;
    i++
  ) {
    await new Promise((r) => setTimeout(r, 50));
  }
  cleanupTmp();
  rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
});

describe('a confined worker cannot reach a CLI daemon', { tags: ['sandbox'] }, () => {
  it('finds no daemon socket started with another XDG_RUNTIME_DIR / TMPDIR, and main is unchanged', () => {
    const before = served();
    const report = runAttack();
    expect(report).toMatch(/^found 0$/m);
    // The one socket it sees is its own hook channel, which runs nothing it is sent (it only validates).
    expect(report).toMatch(/^channel \S+ => \{"ran":false,"reason":"(absent|refused)"\}$/m);
    expect(served()).toBe(before);
    expect(git(memoryDir(), ['ls-tree', '-r', '--name-only', 'main'], env)).not.toContain('pwned.md');
  });

  it('is refused by the daemon even when an added read path exposes the runtime dir', () => {
    const before = served();
    const report = runAttack({ GITMEM_SANDBOX_READ: runtimeBase });
    expect(report).toMatch(/\.sock => \{"ran":false,"reason":"refused"\}/);
    expect(report).not.toContain('"ran":true');
    expect(served()).toBe(before);
    expect(git(memoryDir(), ['ls-tree', '-r', '--name-only', 'main'], env)).not.toContain('pwned.md');
  });

  it('refuses a client in another mount namespace even when it can write the runtime dir and drops the marker', () => {
    // The strongest position a confined body could be in: the whole host visible and writable (raw bwrap,
    // not gitmem's policy), so it can create a socket ticket like a real client.
    const before = served();
    const dir = join(runtimeBase, `gitmem-${uid}`);
    const known = readdirSync(dir).flatMap((n) => (n.endsWith('.sock') ? [join(dir, n)] : []));
    const script = attackScript(known, 'stdout');
    const r = spawnSync(
      'bwrap',
      [
        '--bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--unshare-all',
        '--die-with-parent',
        '--',
        process.execPath,
        '--input-type=module',
        '-e',
        script,
      ],
      {
        env: { ...env, GITMEM_SANDBOX: 'bwrap' },
        encoding: 'utf8',
        cwd: root,
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/\.sock => \{"ran":false,"reason":"refused"\}/);
    expect(served()).toBe(before);
    expect(git(memoryDir(), ['ls-tree', '-r', '--name-only', 'main'], env)).not.toContain('pwned.md');
  });

  it('serves a plain client outside, and refuses one whose environment carries the sandbox marker', async () => {
    const before = served();
    const ok = gitmem(
      [
        'memory',
        'create',
        'notes/outside.md',
        '--description',
        'x',
        '--text',
        'fine',
        '--reason',
        'outside',
        '--agent',
        'a1',
      ],
      daemonEnv,
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(served()).toBe(before + 1);
    const dir = join(runtimeBase, `gitmem-${uid}`);
    const socket = join(dir, readdirSync(dir).find((n) => n.endsWith('.sock')) ?? '');
    const streams = { stdout: () => undefined, stderr: () => undefined, readStdin: () => '' };
    const request = { argv: ['tree', '--agent', 'a1'], env: { ...daemonEnv, GITMEM_SANDBOX: 'bwrap' }, cwd: root };
    expect(await runThroughDaemon(socket, request, streams)).toEqual({ ran: false, reason: 'refused' });
    expect(await runThroughDaemon(socket, { ...request, env: daemonEnv }, streams)).toEqual({ ran: true, code: 0 });
    expect(served()).toBe(before + 2);
  });
});
