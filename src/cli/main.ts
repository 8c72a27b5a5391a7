#!/usr/bin/env node
/**
 * The `gitmem` executable: parses global options, lazily imports the one command asked for, and maps
 * errors to exit codes (0 ok, 1 user error, 2 internal error) with a one-line message on stderr.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS } from './registry.js';
import type { CliCommand, CliContext, CliIo, CliOptions } from './types.js';
import { errorExit } from './errors.js';
import { homeFrom } from './home.js';

const GLOBAL_OPTIONS: CliOptions = {
  json: { type: 'boolean', default: false },
  agent: { type: 'string' },
  home: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
};

async function globalHelp(): Promise<string> {
  const lines = ['Usage: gitmem <command> [options]', '', 'Commands:'];
  for (const [name, load] of Object.entries(COMMANDS)) {
    const { command } = await load();
    lines.push(`  ${name.padEnd(12)} ${command.summary}`);
  }
  lines.push('', 'Global options: --agent <id>  --home <dir>  --json  --help', 'Run `gitmem <command> --help` for details.');
  return lines.join('\n');
}

/** `memory tool --json '{…}'`: the spelling passes the call through --json; turn it into --call. */
function rewriteToolCall(argv: string[]): string[] {
  const i = argv.indexOf('--json');
  if (argv.includes('tool') && i !== -1 && (argv[i + 1] ?? '').trimStart().startsWith('{')) {
    return [...argv.slice(0, i), '--call', argv[i + 1] as string, ...argv.slice(i + 2)];
  }
  return argv;
}

/** The io of this process: its own environment, directory and streams. */
export function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => readFileSync(0, 'utf8'),
  };
}

/** A relative GITMEM_MEMORY_DIR / MEMORY_DIR means relative to the caller's directory, whoever runs the command. */
function anchorEnv(env: NodeJS.ProcessEnv, cwd: string): NodeJS.ProcessEnv {
  const rel = ['GITMEM_MEMORY_DIR', 'MEMORY_DIR'].filter((k) => env[k]?.trim() && !isAbsolute(env[k]!.trim()));
  if (rel.length === 0) return env;
  return { ...env, ...Object.fromEntries(rel.map((k) => [k, resolve(cwd, env[k]!.trim())])) };
}

function makeContext(command: CliCommand, argv: string[], io: CliIo): CliContext {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...GLOBAL_OPTIONS, ...(command.options ?? {}) },
    allowPositionals: true,
    strict: true,
  });
  const json = values['json'] === true;
  const line = (t: string): string => (t.endsWith('\n') ? t : `${t}\n`);
  const stdout = (t: string): void => io.stdout(line(t));
  const agent = typeof values['agent'] === 'string' ? values['agent'] : undefined;
  const env = anchorEnv(io.env, io.cwd);
  return {
    args: positionals,
    values: values as CliContext['values'],
    json,
    home: homeFrom(typeof values['home'] === 'string' ? values['home'] : undefined, env, io.cwd),
    agent,
    env,
    cwd: io.cwd,
    readStdin: io.readStdin,
    launch: io.launch,
    stdout,
    stderr: (t) => io.stderr(line(t)),
    print: (value, text) => stdout(json ? JSON.stringify(value, null, 2) : text),
  };
}

/**
 * Runs the CLI; returns the exit code. `io` defaults to this process's; the daemon passes its client's.
 * @example process.exitCode = await main(['log', '-n', '5'])
 */
export async function main(rawArgv: string[], io: CliIo = processIo()): Promise<number> {
  const name = rawArgv.find((a) => !a.startsWith('-'));
  const jsonWanted = rawArgv.includes('--json');
  try {
    if (!name) {
      if (rawArgv.includes('--version')) return io.stdout('0.1.0\n'), 0;
      io.stdout(`${await globalHelp()}\n`);
      return rawArgv.length === 0 || rawArgv.includes('--help') || rawArgv.includes('-h') ? 0 : 1;
    }
    const load = COMMANDS[name];
    if (!load) {
      io.stderr(`gitmem: UNKNOWN_COMMAND: unknown command '${name}' (run gitmem --help)\n`);
      return 1;
    }
    const { command } = await load();
    const argv = rewriteToolCall(rawArgv.filter((a, i) => i !== rawArgv.indexOf(name)));
    if (argv.includes('--help') || argv.includes('-h')) return io.stdout(`${command.usage.trim()}\n`), 0;
    return (await command.run(makeContext(command, argv, io))) ?? 0;
  } catch (err) {
    return errorExit(err, jsonWanted, io);
  }
}

function isEntryPoint(): boolean {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
