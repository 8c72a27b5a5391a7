/**
 * The contract between the CLI dispatcher (main.ts) and each lazily imported command module.
 */
import type { GitmemConfig, Launcher, Memory } from '../internals.js';

export interface CliContext {
  /** Positional arguments after the command name (sub-commands included). */
  args: string[];
  /** Parsed option values (global options included). */
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  json: boolean;
  /** Resolved gitmem home (`--home`, `GITMEM_HOME`, `~/.gitmem`). */
  home: string;
  /** The configuration of this call: the caller's environment and directory, `--home` (config.ts). */
  config: GitmemConfig;
  /** Opens the memory of `--agent` (else the default-agent rule) with this call's configuration and launcher. */
  openMemory: () => Promise<Memory>;
  /** `--agent`, when given. */
  agent: string | undefined;
  env: NodeJS.ProcessEnv;
  /** The caller's working directory (relative paths in options resolve against it, not the process's). */
  cwd: string;
  /** A string option's value, if given. */
  option: (name: string) => string | undefined;
  /**
   * The text of a file named on the command line (`-` = standard input, else relative to the caller's
   * directory): UTF-8, or UTF-16 with a byte-order mark, decoded; anything else is NOT_UTF8.
   */
  readText: (source: string) => Promise<string>;
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
  /**
   * All of standard input as a binary string (one character per byte, latin1), so the bytes arrive
   * unchanged through the daemon's JSON frames and are decoded, strictly, in one place (CliContext.readText).
   */
  readStdin: () => Promise<string>;
  launch?: Launcher;
}

/** A command's module; its name, help line and grammar are its entry in registry.ts. */
export interface CliCommand {
  name: string;
  /** Usage lines shown by `gitmem <name> --help`. */
  usage: string;
  /** Returns the exit code (default 0). Throw MemoryError for user errors. */
  run: (ctx: CliContext) => Promise<number | void>;
}
