/**
 * `gitmem daemon run|start|stop|status`: the resident process that serves quick CLI calls (see
 * cli/daemon/server.ts). The CLI starts one by itself; these commands are for inspection and control.
 */
import { existsSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hookHome, sandboxMarker } from '../../config.js';
import { MemoryError } from '../../index.js';
import { BUILD_ID, daemonAddress, ensurePrivateDir, isPrivateDir, type DaemonAddress } from '../daemon/address.js';
import { askDaemon } from '../daemon/client.js';
import { daemonLogger } from '../daemon/log-file.js';
import type { CliCommand, CliContext, CliIo } from '../types.js';

const USAGE = `Usage:
  gitmem daemon status            is a daemon serving this home? (pid, build, requests served)
  gitmem daemon start             start one in the background (the CLI also does this by itself)
  gitmem daemon stop              stop it (it also stops after --idle seconds without a request)
  gitmem daemon run [--idle S]    run one in the foreground (default idle: GITMEM_DAEMON_IDLE or 600 s)
GITMEM_DAEMON=0 makes every command run in its own process and never starts a daemon.`;

const DEFAULT_IDLE_SECONDS = 600;

function addressOf(ctx: CliContext): DaemonAddress {
  const address = daemonAddress(ctx.home, ctx.env);
  if (!address)
    throw new MemoryError(
      'DAEMON_UNAVAILABLE',
      'no daemon on this platform or for this home (unix sockets only; path too long?)',
    );
  return address;
}

function unsafeDir(dir: string): MemoryError {
  return new MemoryError(
    'DAEMON_UNSAFE_DIR',
    `${dir} is not a private directory of this user (mode 0700); no daemon will use it`,
  );
}

function idleSeconds(ctx: CliContext): number {
  const raw =
    (typeof ctx.values['idle'] === 'string' ? ctx.values['idle'] : undefined) ??
    ctx.config.daemon.idleSeconds ??
    String(DEFAULT_IDLE_SECONDS);
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0)
    throw new MemoryError('INVALID_ARGUMENT', `daemon: idle must be a positive number of seconds, got '${raw}'`);
  return n;
}

/** Logs of daemons gone for a week (other homes, older builds) are removed when a daemon starts. */
function pruneOldLogs(dir: string): void {
  const weekAgo = Date.now() - 7 * 24 * 3600 * 1000;
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    try {
      if (name.endsWith('.log') && statSync(file).mtimeMs < weekAgo) unlinkSync(file);
    } catch {
      // raced with another daemon: fine
    }
  }
}

async function runForeground(ctx: CliContext): Promise<number> {
  const address = addressOf(ctx);
  const idleMs = idleSeconds(ctx) * 1000;
  if (!ensurePrivateDir(address.dir)) throw unsafeDir(address.dir);
  pruneOldLogs(address.dir);
  const [
    { serveDaemon },
    { main },
    { createShellLauncher },
    { serveDaemonHooks, preCommitEntry, redactText },
    { peerRefusal, sweepTickets, ticketClaim },
  ] = await Promise.all([
    import('../daemon/server.js'),
    import('../main.js'),
    import('../../process/shell-launcher.js'),
    import('../../internals.js'),
    import('../daemon/peer.js'),
  ]);
  // Git calls go through resident shells: forking this (large) process per git call would cost more.
  const launcher = createShellLauncher({ scratchParent: address.dir });
  const run = (argv: string[], io: CliIo): Promise<number> => main(argv, { ...io, launch: launcher.launch });
  const log = daemonLogger(address.log, redactText);
  // Raw shell commits ask this daemon too (the hook's socket, named for this install's hook entry).
  const hooks = serveDaemonHooks({
    runtimeDir: address.dir,
    entry: preCommitEntry(),
    env: ctx.env,
    hookHome,
    launch: launcher.launch,
    log,
    sweep: sweepTickets,
    peerRefusal: (socket, request) =>
      peerRefusal(ticketClaim(socket, request.ticket), { GITMEM_SANDBOX: sandboxMarker(request.env) ?? '' }),
  });
  try {
    const why = await serveDaemon({
      socket: address.socket,
      home: ctx.home,
      build: BUILD_ID,
      idleMs,
      run,
      log,
      trace: ctx.config.daemon.trace,
    });
    ctx.print({ stopped: why }, `gitmem daemon stopped: ${why}`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'DAEMON_RUNNING') throw err;
    ctx.print({ stopped: 'already running' }, 'a gitmem daemon already serves this home');
  } finally {
    await hooks.close();
    launcher.close();
  }
  return 0;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

async function start(ctx: CliContext): Promise<number> {
  const address = addressOf(ctx);
  if (!ctx.config.daemon.enabled)
    throw new MemoryError('DAEMON_UNAVAILABLE', 'GITMEM_DAEMON is off in this environment');
  if (BUILD_ID === 'dev')
    throw new MemoryError('DAEMON_UNAVAILABLE', 'the daemon runs from the built CLI (npm run build), not from source');
  if (!existsSync(ctx.home))
    throw new MemoryError('MEMORY_DIR_MISSING', `no gitmem home at ${ctx.home} (run \`gitmem init\`)`);
  if (existsSync(address.dir) && !isPrivateDir(address.dir)) throw unsafeDir(address.dir);
  const before = await askDaemon(address.socket, 'ping');
  if (before && 'pid' in before) return (ctx.print(before, `gitmem daemon already running (pid ${before.pid})`), 0);
  const { startDaemon } = await import('../daemon/start.js');
  const entry = join(dirname(fileURLToPath(import.meta.url)), 'gitmem.cjs');
  startDaemon({ entry, home: ctx.home, env: ctx.env });
  let info: Awaited<ReturnType<typeof askDaemon>>;
  const up = await waitFor(async () => (info = await askDaemon(address.socket, 'ping')) !== undefined, 5000);
  if (!up || !info || !('pid' in info))
    throw new MemoryError('DAEMON_UNAVAILABLE', `the daemon did not come up; see ${address.log}`);
  ctx.print(info, `gitmem daemon started (pid ${info.pid})`);
  return 0;
}

async function stop(ctx: CliContext): Promise<number> {
  const address = addressOf(ctx);
  const r = await askDaemon(address.socket, 'stop');
  if (!r) return (ctx.print({ stopped: false }, 'no gitmem daemon is running for this home'), 0);
  await waitFor(async () => !existsSync(address.socket), 5000);
  ctx.print({ stopped: true }, 'gitmem daemon stopped');
  return 0;
}

async function status(ctx: CliContext): Promise<number> {
  const address = addressOf(ctx);
  const info = await askDaemon(address.socket, 'ping');
  if (!info || !('pid' in info))
    return (ctx.print({ running: false, socket: address.socket }, 'no gitmem daemon is running for this home'), 0);
  const text = `gitmem daemon: pid ${info.pid}, build ${info.build}, ${info.served} request(s) served since ${info.startedAt}\nsocket: ${address.socket}\nlog: ${address.log}`;
  ctx.print({ running: true, socket: address.socket, log: address.log, ...info }, text);
  return 0;
}

export const command: CliCommand = {
  name: 'daemon',
  usage: USAGE,
  async run(ctx) {
    const sub = ctx.args[0] ?? 'status';
    if (sub === 'run') return runForeground(ctx);
    if (sub === 'start') return start(ctx);
    if (sub === 'stop') return stop(ctx);
    if (sub === 'status') return status(ctx);
    throw new MemoryError('UNKNOWN_COMMAND', `unknown daemon command '${sub}'\n${USAGE}`);
  },
};
