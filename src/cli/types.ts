/**
 * The contract between the CLI dispatcher (main.ts) and each lazily imported command module.
 */
import type { ParseArgsConfig } from 'node:util';

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
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Prints `value` as JSON with --json, else `text`. */
  print: (value: unknown, text: string) => void;
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
