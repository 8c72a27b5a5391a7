/**
 * `gitmem sandbox exec [--agent ID] -- <command…>`: the agent's own command with every other agent's memory
 * hidden (opt-in: GITMEM_SHELL_SANDBOX=1 or the config file's sandbox.shell). Thin: the work is sandboxExec.
 */
import { constants } from 'node:os';
import { MemoryError, sandboxExec, type SandboxExecResult } from '../../internals.js';
import type { CliCommand } from '../types.js';

const USAGE = `
Usage: gitmem sandbox exec [--agent <id>] [--timeout <seconds>] [--json] -- <command> [args…]

Runs the command (no shell: write sh -c '…' for one) with every agent's memory under the home hidden but
the agent's own, which stays readable and writable; the rest of the machine is as usual (writes allowed,
network on). Opt-in: only with GITMEM_SHELL_SANDBOX=1 (or "sandbox": { "shell": true } in $GITMEM_HOME/config);
switched off it is refused (SANDBOX_OFF), without a kernel sandbox too (SANDBOX_UNAVAILABLE; Linux: bubblewrap).
Inside a gitmem sandbox already, the command runs as is (the outer sandbox hides more).
Exit code: the command's (128 + N when killed by signal N, 124 when --timeout fired).
`;

function parseTimeout(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `--timeout must be a number of seconds in (0, 86400], got ${JSON.stringify(v)}`,
    );
  }
  return Math.round(n * 1000);
}

function exitCodeOf(r: SandboxExecResult): number {
  if (r.timedOut) return 124;
  if (r.exitCode !== null) return r.exitCode;
  const n = r.signal ? constants.signals[r.signal] : undefined;
  return n !== undefined ? 128 + n : 1;
}

export const command: CliCommand = {
  name: 'sandbox',
  usage: USAGE,
  async run(ctx) {
    const [sub, ...argv] = ctx.args;
    if (sub !== 'exec') {
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `gitmem sandbox: expected exec, got ${JSON.stringify(sub ?? '')} (see gitmem sandbox --help)`,
      );
    }
    if (argv.length === 0) {
      throw new MemoryError('INVALID_ARGUMENT', 'gitmem sandbox exec: no command given (write it after --)');
    }
    const timeoutMs = parseTimeout(ctx.option('timeout'));
    const r = await sandboxExec({
      command: argv,
      config: ctx.config,
      cwd: ctx.cwd,
      ...(ctx.agent !== undefined ? { agentId: ctx.agent } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      launch: ctx.launch,
    });
    if (ctx.json) ctx.print(r, '');
    else {
      if (r.stdout) ctx.stdout(r.stdout);
      if (r.stderr) ctx.stderr(r.stderr);
      if (r.truncated) ctx.stderr('[gitmem] the command’s output passed 16 MiB and it was stopped\n');
    }
    return exitCodeOf(r);
  },
};
