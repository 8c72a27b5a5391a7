#!/usr/bin/env node
/**
 * The `gitmem` executable. A call the daemon serves (daemon/eligible.ts) goes to the daemon for this home
 * when one is running; otherwise, or when the daemon cannot take it, the full CLI (main.ts) runs here and,
 * if no daemon was running, one is started for the next call. `GITMEM_DAEMON=0` keeps everything local.
 * Everything this file loads up front is on every call's critical path: keep it to `fs`, `path`, `url`
 * and `net` (the socket to the daemon).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { daemonAddress, isPrivateDir } from './daemon/address.js';
import { runThroughDaemon } from './daemon/client.js';
import { servedCall } from './daemon/eligible.js';
import { gitmemHome } from '../config.js';
import type * as MainNs from './main.js';

declare const __GITMEM_BUNDLED__: boolean | undefined;

type MainModule = typeof MainNs;

/** The full CLI: the core bundle next to this file when bundled, the module itself when run from source. */
async function loadMain(): Promise<MainModule> {
  if (typeof __GITMEM_BUNDLED__ !== 'undefined') return createRequire(import.meta.url)('./core.cjs') as MainModule;
  return import('./main.js');
}

async function runLocally(argv: string[]): Promise<number> {
  return (await loadMain()).main(argv);
}

/** The home a served call names, or undefined when it names none usable (the local run says why). */
function homeOf(explicit: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  try {
    return gitmemHome(explicit, env, process.cwd());
  } catch {
    return undefined;
  }
}

/** A daemon is started only for a home that exists, after a call that worked there. */
function worthADaemon(home: string, code: number): boolean {
  try {
    return code === 0 && statSync(home).isDirectory();
  } catch {
    return false;
  }
}

async function run(argv: string[]): Promise<number> {
  const env = process.env;
  const call = servedCall(argv, env);
  const home = call && homeOf(call.home, env);
  if (home === undefined) return runLocally(argv);
  const address = daemonAddress(home, env);
  if (!address || !isPrivateDir(address.dir)) {
    const code = await runLocally(argv);
    // No runtime directory yet: start the first daemon. One that exists but is not private: never use it.
    if (address && !existsSync(address.dir) && worthADaemon(home, code)) await startInBackground(home);
    return code;
  }
  const request = { argv, env, cwd: process.cwd() };
  const streams = {
    stdout: (t: string) => void process.stdout.write(t),
    stderr: (t: string) => void process.stderr.write(t),
    readStdin: () => readStdinOrEmpty(),
  };
  const outcome = await runThroughDaemon(address.socket, request, streams);
  if (outcome.ran) return outcome.code;
  const code = await runLocally(argv);
  if (outcome.reason === 'absent' && worthADaemon(home, code)) await startInBackground(home);
  return code;
}

/** Standard input as a binary string (one character per byte; see CliIo.readStdin). */
function readStdinOrEmpty(): string {
  try {
    return readFileSync(0).toString('latin1');
  } catch {
    return '';
  }
}

async function startInBackground(home: string): Promise<void> {
  const { startDaemon } = await import('./daemon/start.js');
  startDaemon({ entry: fileURLToPath(import.meta.url), home, env: process.env });
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`gitmem: INTERNAL: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 2;
  },
);
