/**
 * `gitmem mcp --http`: the MCP server over Streamable HTTP, for every agent of the home at
 * `/agents/<id>/mcp` and for the default agent (or `--agent`) at `/mcp`. The bearer token comes from
 * `--token-file` or is generated; a generated token is printed once, to stderr, and nowhere else (the
 * server's log lines redact it). Runs until SIGINT/SIGTERM, then closes every session and exits 0.
 */
import { resolve } from 'node:path';
import { createMemory, MemoryError } from '../../index.js';
import type { CliContext } from '../types.js';

/** The port when --port is not given. */
export const DEFAULT_MCP_PORT = 8377;

function portOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_MCP_PORT;
  const n = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || n > 65535)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `--port must be a port number 0-65535 (0 = any free port), got '${raw.slice(0, 40)}'`,
      { data: { field: 'port' } },
    );
  return n;
}

/** Resolves when the process is asked to stop. */
function stopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: string): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * Serves until stopped.
 * @example await serveHttp(ctx) // gitmem mcp --http --port 0
 */
export async function serveHttp(ctx: CliContext): Promise<number> {
  const { readTokenFile, startMcpHttpServer } = await import('../../mcp/index.js');
  const host = ctx.option('host') ?? '127.0.0.1';
  const port = portOf(ctx.option('port'));
  const tokenFile = ctx.option('token-file');
  const token = tokenFile === undefined ? undefined : readTokenFile(resolve(ctx.cwd, tokenFile));
  // A long-lived server: git starts through the process's resident shells (the handle's default launcher).
  const open = (agentId: string | undefined): ReturnType<typeof createMemory> => {
    const id = agentId ?? ctx.agent;
    return createMemory({
      home: ctx.home,
      env: ctx.env,
      launch: ctx.launch,
      ...(id !== undefined ? { agentId: id } : {}),
    });
  };
  // A named agent is opened first, so a bad --agent is one error line before the server listens.
  const memory = ctx.agent === undefined ? undefined : await open(undefined);
  const server = await startMcpHttpServer({
    memory,
    home: ctx.home,
    openMemory: open,
    ...(token !== undefined ? { token } : {}),
    host,
    port,
    log: (line) => ctx.stderr(`gitmem mcp: ${line}`),
  });
  const stopped = stopSignal();
  ctx.stderr(
    `gitmem mcp: serving ${server.url} (${memory?.agentId ?? 'the default agent'}) and ${server.url.replace(/\/mcp$/, '/agents/<id>/mcp')} (every agent of ${ctx.home})`,
  );
  if (server.tokenGenerated)
    ctx.stderr(`gitmem mcp: bearer token (generated; --token-file F to set one): ${server.token}`);
  ctx.stderr(`gitmem mcp: stopped (${await stopped})`);
  await server.close();
  return 0;
}
