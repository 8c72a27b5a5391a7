#!/usr/bin/env node
/**
 * The `gitmem` CLI: reads the command line (argv.ts, with the command's grammar from registry.ts), lazily imports the one command asked
 * for, and maps errors to exit codes (0 ok, 1 user error, 2 internal error) with a one-line message on
 * stderr (errors.ts).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config.js';
import { MemoryError } from '../errors.js';
import { parseCommandLine, splitCommand, type CommandLine } from './argv.js';
import { decodeTextInput } from './decode-text.js';
import { errorExit } from './errors.js';
import { loadCommand } from './load-command.js';
import { commandEntry } from './registry.js';
import { speakCli, spellingsOf } from './speak.js';
import type { CliContext, CliIo } from './types.js';
import { checkPositionals, globalHelp } from './usage.js';

async function version(): Promise<string> {
  return (await import('../memory.js')).gitmemVersion();
}

/** The io of this process: its own environment, directory and streams. */
function processIo(): CliIo {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: (t) => void process.stdout.write(t),
    stderr: (t) => void process.stderr.write(t),
    readStdin: async () => readFileSync(0).toString('latin1'),
  };
}

function stringValue(line: CommandLine, name: string): string | undefined {
  const v = line.values[name];
  return typeof v === 'string' ? v : undefined;
}

function makeContext(line: CommandLine, io: CliIo): CliContext {
  const json = line.values['json'] === true;
  const newline = (t: string): string => (t.endsWith('\n') ? t : `${t}\n`);
  const stdout = (t: string): void => io.stdout(newline(t));
  const agent = stringValue(line, 'agent');
  if (agent !== undefined && agent.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', '--agent is empty: pass an agent id');
  // The caller's directory, not the process's: a relative home or GITMEM_MEMORY_DIR is the caller's.
  const config = loadConfig({ env: io.env, cwd: io.cwd, home: stringValue(line, 'home') });
  const readText = async (source: string): Promise<string> => {
    if (source === '-') return decodeTextInput(Buffer.from(await io.readStdin(), 'latin1'), 'standard input');
    try {
      return decodeTextInput(readFileSync(resolve(io.cwd, source)), source);
    } catch (err) {
      if (err instanceof MemoryError) throw err;
      throw new MemoryError(
        'INVALID_ARGUMENT',
        `cannot read ${source}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  };
  return {
    args: line.positionals,
    values: line.values,
    json,
    home: config.home,
    config,
    openMemory: async () =>
      (await import('../memory.js')).createMemory({
        config,
        agentId: agent,
        launch: io.launch,
      }),
    agent,
    env: io.env,
    cwd: io.cwd,
    option: (name) => stringValue(line, name),
    readText,
    launch: io.launch,
    stdout,
    stderr: (t) => io.stderr(newline(t)),
    print: (value, text) => stdout(json ? JSON.stringify(value, null, 2) : text),
  };
}

/** `gitmem`, `gitmem --help`, `gitmem help [command]`, `gitmem --version`: answers without running a command. */
async function answerWithoutCommand(argv: string[], io: CliIo): Promise<number> {
  const line = parseCommandLine(argv);
  const [topic, ...extra] = line.command === 'help' ? line.positionals : [];
  if (line.values['version'] === true) return (io.stdout(`${await version()}\n`), 0);
  if (line.command === undefined && argv.length > 0 && line.values['help'] !== true) {
    throw new MemoryError('INVALID_ARGUMENT', 'no command given (run gitmem help)');
  }
  if (extra.length > 0)
    throw new MemoryError(
      'INVALID_ARGUMENT',
      `help: unexpected argument ${JSON.stringify(extra[0])} (usage: gitmem help [command])`,
    );
  if (topic === undefined) return (io.stdout(`${globalHelp()}\n`), 0);
  return (io.stdout(`${(await loadCommand(topic)).usage.trim()}\n`), 0);
}

/**
 * Runs the CLI; returns the exit code. `io` defaults to this process's; the daemon passes its client's.
 * @example process.exitCode = await main(['log', '-n', '5'])
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  let json = argv.slice(0, argv.includes('--') ? argv.indexOf('--') : argv.length).includes('--json');
  let speak = (err: unknown): unknown => err;
  try {
    const name = splitCommand(argv).command;
    if (name === undefined || name === 'help') return await answerWithoutCommand(argv, io);
    const command = await loadCommand(name);
    const { grammar, ownArgs } = commandEntry(name) ?? { grammar: {} };
    const options = grammar.options ?? {};
    const line = parseCommandLine(argv, options);
    json = line.values['json'] === true;
    if (line.values['version'] === true) return (io.stdout(`${await version()}\n`), 0);
    if (
      line.values['help'] === true ||
      checkPositionals(name, ownArgs ? undefined : grammar, line.positionals) === 'usage'
    ) {
      return (io.stdout(`${command.usage.trim()}\n`), 0);
    }
    // From here on, an error names what this command line calls things (its flags), not the library's names.
    const spellings = spellingsOf(grammar, options, grammar.subcommands ? line.positionals[0] : undefined);
    speak = (err) => speakCli(err, spellings);
    return (await command.run(makeContext(line, io))) ?? 0;
  } catch (err) {
    return errorExit(speak(err), json, io);
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
