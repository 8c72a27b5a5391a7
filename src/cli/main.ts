#!/usr/bin/env node
/**
 * The `gitmem` executable: parses global options, lazily imports the one command asked for, and maps
 * errors to exit codes (0 ok, 1 user error, 2 internal error) with a one-line message on stderr.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS } from './registry.js';
import type { CliCommand, CliContext, CliOptions } from './types.js';
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

function makeContext(command: CliCommand, argv: string[], env: NodeJS.ProcessEnv): CliContext {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { ...GLOBAL_OPTIONS, ...(command.options ?? {}) },
    allowPositionals: true,
    strict: true,
  });
  const json = values['json'] === true;
  const stdout = (t: string): void => void process.stdout.write(t.endsWith('\n') ? t : `${t}\n`);
  const agent = typeof values['agent'] === 'string' ? values['agent'] : undefined;
  return {
    args: positionals,
    values: values as CliContext['values'],
    json,
    home: homeFrom(typeof values['home'] === 'string' ? values['home'] : undefined, env),
    agent,
    env,
    stdout,
    stderr: (t) => void process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    print: (value, text) => stdout(json ? JSON.stringify(value, null, 2) : text),
  };
}

/** Runs the CLI; returns the exit code. */
export async function main(rawArgv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const name = rawArgv.find((a) => !a.startsWith('-'));
  const jsonWanted = rawArgv.includes('--json');
  try {
    if (!name) {
      if (rawArgv.includes('--version')) return void process.stdout.write('0.1.0\n'), 0;
      process.stdout.write(`${await globalHelp()}\n`);
      return rawArgv.length === 0 || rawArgv.includes('--help') || rawArgv.includes('-h') ? 0 : 1;
    }
    const load = COMMANDS[name];
    if (!load) {
      process.stderr.write(`gitmem: UNKNOWN_COMMAND: unknown command '${name}' (run gitmem --help)\n`);
      return 1;
    }
    const { command } = await load();
    const argv = rewriteToolCall(rawArgv.filter((a, i) => i !== rawArgv.indexOf(name)));
    if (argv.includes('--help') || argv.includes('-h')) return void process.stdout.write(`${command.usage.trim()}\n`), 0;
    const ctx = makeContext(command, argv, env);
    return (await command.run(ctx)) ?? 0;
  } catch (err) {
    return errorExit(err, jsonWanted);
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
