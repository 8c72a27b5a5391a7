/**
 * How the runner starts one git process (through the shared process runner). Only src/git/runner.ts
 * calls it; everything else goes through the runner.
 */
import { runProcess, type Launcher, type ProcessResult } from '../process.js';

export type SpawnResult = ProcessResult;

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  input: string | Buffer | undefined;
  timeoutMs: number;
  signal: AbortSignal | undefined;
}

/** Runs git with a timeout and abort that signal its whole process group. */
export function spawnGit(bin: string, argv: string[], o: SpawnOptions, launch: Launcher = runProcess): Promise<SpawnResult> {
  return launch(bin, argv, o);
}
