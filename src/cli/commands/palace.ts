/**
 * `gitmem palace`: the Memory Palace, a live local web view of one home's agents (files, history, diffs,
 * kept branches, reflection, sync), or `--export FILE.html` for a self-contained copy. The server is
 * src/palace/; this adapter checks the options, prints the URL and runs until interrupted.
 */
import { spawnDetached } from '../../process/detached.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { listAgents, MemoryError } from '../../index.js';
import { openMemoryDir } from '../../internals.js';
import type { CliCommand, CliContext } from '../types.js';

const USAGE = `Usage: gitmem palace [--agent ID] [--port N] [--host 127.0.0.1] [--open] [--token-file F]
       gitmem palace --export FILE.html [--agent ID]
  Serves a web view of the home's memory on http://127.0.0.1:<port>/<token>/ until interrupted (Ctrl-C).
  --port N        port to listen on (default: any free port)
  --host H        address to bind (default 127.0.0.1); anything but loopback needs --token-file
  --token-file F  the token (created with a fresh one, mode 0600, when F does not exist)
  --open          open the page in a browser (not under SSH or tmux: the URL is printed either way)
  --export FILE   write one self-contained HTML page (mode 0600) instead of serving`;

/** The agent the page opens: --agent, else the home's default agent, else its first. */
function startAgent(ctx: CliContext): string {
  if (ctx.agent !== undefined) return ctx.agent;
  try {
    const found = openMemoryDir({ home: ctx.home, env: ctx.env }).agentId;
    if (found) return found;
  } catch {
    // several agents and no default: the first one
  }
  const first = listAgents(ctx.home)[0]?.agentId;
  if (!first)
    throw new MemoryError('MEMORY_DIR_MISSING', `${ctx.home} has no agents yet (run \`gitmem init\`)`, {
      data: { home: ctx.home },
    });
  return first;
}

function portOf(ctx: CliContext): number {
  const raw = ctx.option('port') ?? '0';
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port > 65535)
    throw new MemoryError('INVALID_ARGUMENT', `--port must be 0 to 65535, got ${raw}`, { data: { field: 'port' } });
  return port;
}

/** Opens the page through a private redirect file, so the token never sits on a process's command line. */
function openBrowser(ctx: CliContext, url: string): (() => void) | undefined {
  if (ctx.env['SSH_CONNECTION'] || ctx.env['SSH_TTY'] || ctx.env['TMUX']) {
    ctx.stderr('gitmem palace: not opening a browser under SSH or tmux; open the URL above yourself');
    return undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gitmem-palace-'));
  const file = join(dir, 'open.html');
  writeFileSync(
    file,
    `<!doctype html><meta http-equiv="refresh" content="0;url=${url}"><meta name="referrer" content="no-referrer">`,
    { mode: 0o600 },
  );
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  spawnDetached(opener, [pathToFileURL(file).href], {
    onError: () => ctx.stderr(`gitmem palace: could not start ${opener}; open the URL above yourself`),
  });
  return () => rmSync(dir, { recursive: true, force: true });
}

async function serve(ctx: CliContext, agent: string): Promise<number> {
  const host = ctx.option('host') ?? '127.0.0.1';
  const tokenFile = ctx.option('token-file');
  const { isLoopbackHost, newToken } = await import('../../palace/security.js');
  if (!isLoopbackHost(host) && tokenFile === undefined) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `--host ${host} is reachable from other machines: give --token-file F (a private token file) to serve there`,
      { data: { field: 'host' } },
    );
  }
  const { readOrCreateToken } = await import('../../palace/token-file.js');
  const token = tokenFile !== undefined ? readOrCreateToken(resolve(ctx.cwd, tokenFile)) : newToken();
  // A long-lived server: git starts through the process's resident shells (the handle's default launcher).
  const { startPalace } = await import('../../palace/server.js');
  const palace = await startPalace({
    home: ctx.home,
    env: ctx.env,
    launch: ctx.launch,
    token,
    host,
    port: portOf(ctx),
    agent,
    onError: (err) => ctx.stderr(`gitmem palace: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`),
  });
  ctx.print({ url: palace.url, port: palace.port, agent }, `Memory Palace of ${agent}: ${palace.url}`);
  const cleanup = ctx.values['open'] === true ? openBrowser(ctx, palace.url) : undefined;
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  cleanup?.();
  await palace.close();
  return 0;
}

export const command: CliCommand = {
  name: 'palace',
  usage: USAGE,
  async run(ctx) {
    const agent = startAgent(ctx);
    const target = ctx.option('export');
    if (target === undefined) return serve(ctx, agent);
    const { PalaceHub } = await import('../../palace/hub.js');
    const { exportPalace } = await import('../../palace/export.js');
    const path = resolve(ctx.cwd, target);
    const r = await exportPalace(new PalaceHub({ home: ctx.home, env: ctx.env }), agent, path);
    ctx.print(
      { path, ...r },
      `Exported the palace of ${agent} to ${path} (${r.files} files, ${r.commits} commits, ${r.diffs} diffs, ${r.bytes} bytes).`,
    );
    return 0;
  },
};
