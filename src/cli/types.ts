/**
 * The contract between the CLI dispatcher (main.ts) and each lazily imported command module.
 */
import type { ParseArgsConfig } from 'node:util';
import type { Launcher } from '../process.js';

export type CliOptions = NonNullable<ParseArgsConfig['options']>;

export interface CliContext {
  /** Positional arguments after the command name (sub-commands included). */
  args: string[];
  /** Parsed option values (global options included). */
  values: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
  /** Resolved gitmem home (`--home`, `GITMEM_HOME`, `~/.gitmem`). */
  home: string;
  /** `--agent`, when given. */
  agent: string | undefined;
  env: NodeJS.ProcessEnv;
  /** The caller's working directory (relative paths in options resolve against it, not the process's). */
  cwd: string;
  /** Reads all of standard input (the caller's, also when a daemon runs the command). */
  readStdin: () => Promise<string>;
  /** How git processes start, when the host has a better way than a spawn (the daemon). */
  launch: Launcher | undefined;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Prints `value` as JSON with --json, else `text`. */
  print: (value: unknown, text: string) => void;
}

/** Where a CLI run reads and writes: the process's own streams, or a daemon client's (see daemon/server.ts). */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Raw writes (no newline added). */
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  launch?: Launcher;
}

export interface CliCommand {
  name: string;
  summary: string;
  /** Usage lines shown by `gitmem <name> --help`. */
  usage: string;
  options?: CliOptions;
  /** Returns the exit code (default 0). Throw MemoryError for user errors. */
  run: (ctx: CliContext) => Promise<number | void>;
}
