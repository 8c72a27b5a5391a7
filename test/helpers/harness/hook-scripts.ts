/**
 * Hook commands for harness tests: a POSIX shell script that keeps the JSON the harness wrote on its stdin
 * (one file per call), notes how big the transcript was at that moment, and prints a fixed answer (e.g. a
 * SessionStart hook's `additionalContext`). Same script for Claude Code and Codex: their hook input and
 * output formats are the same shape.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `value` as one single-quoted shell word. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * Writes `<dir>/hook-<label>.sh` and returns the command to configure: on each call it saves stdin to
 * `<dir>/<label>-<ns>-<pid>.json`, the transcript's size then to `….transcript-bytes` (when the input names
 * an existing `transcript_path`), and prints `output` (nothing when absent); exit 0.
 * @example const cmd = writeRecordingHook(dir, 'SessionStart', JSON.stringify({ hookSpecificOutput: { … } }))
 */
export function writeRecordingHook(dir: string, label: string, output?: string): string {
  const script = join(dir, `hook-${label}.sh`);
  const lines = [
    '#!/bin/sh',
    `f=${shellQuote(dir)}/${label}-$(date +%s%N)-$$.json`,
    'cat > "$f.tmp" && mv "$f.tmp" "$f"',
    // Plain paths only (tests use temp dirs without quotes or backslashes).
    `tp=$(sed -n 's/.*"transcript_path": *"\\([^"]*\\)".*/\\1/p' "$f")`,
    'if [ -n "$tp" ] && [ -f "$tp" ]; then wc -c < "$tp" | tr -d " " > "$f.transcript-bytes"; fi',
    ...(output === undefined ? [] : [`printf '%s' ${shellQuote(output)}`]),
    'exit 0',
    '',
  ];
  writeFileSync(script, lines.join('\n'));
  chmodSync(script, 0o755);
  return script;
}

/** One recorded hook call: the parsed stdin, and the transcript's size when the hook ran (undefined: absent). */
export interface HookCall {
  input: Record<string, unknown>;
  transcriptBytesAtHook: number | undefined;
}

/** The calls a recording hook saw, in order. */
export function hookCalls(dir: string, label: string): HookCall[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.startsWith(`${label}-`) && n.endsWith('.json'))
    .sort()
    .map((n) => {
      const bytesFile = join(dir, `${n}.transcript-bytes`);
      return {
        input: JSON.parse(readFileSync(join(dir, n), 'utf8')) as Record<string, unknown>,
        transcriptBytesAtHook: existsSync(bytesFile) ? Number(readFileSync(bytesFile, 'utf8').trim()) : undefined,
      };
    });
}

/** The records of a JSONL file (blank lines skipped). */
export function readJsonl(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
