/**
 * The per-agent record of background LLM runs (`<agentDir>/runs.jsonl`): what ran, how long, how many steps
 * and tokens, and how it ended — so cost and behaviour of reflection can be audited afterwards.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactText } from '../git/redact.js';

/** One line of the run log. */
export interface RunLogEntry {
  /** e.g. `reflection`, `dream`, `defrag`. */
  kind: string;
  startedAt: string;
  durationMs: number;
  steps: number;
  inputTokens: number;
  outputTokens: number;
  /** e.g. `merged`, `no_changes`, `merge_conflict`, `timeout`, `failed`. */
  outcome: string;
  /** `provider:modelId` (see describeModel). */
  model: string;
  [extra: string]: unknown;
}

/**
 * Path of an agent's run log.
 * @example runLogPath('/h/agents/a1') === '/h/agents/a1/runs.jsonl'
 */
export function runLogPath(agentDir: string): string {
  return join(agentDir, 'runs.jsonl');
}

/** Every string in `value`, however deep, through the one redaction (before JSON: a rule never meets an escape). */
function redacted(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map(redacted);
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redacted(v)]));
  return value;
}

/**
 * Appends one run to the agent's log (one write call, so concurrent appends do not interleave), with every
 * string redacted as gitmem's messages are (a provider's error may quote a URL with its key).
 * @example appendRunLog(agentDir, { kind: 'reflection', startedAt, durationMs: 812, steps: 4,
 *   inputTokens: 5120, outputTokens: 410, outcome: 'merged', model: 'local.chat:qwen3' })
 */
export function appendRunLog(agentDir: string, entry: RunLogEntry): void {
  mkdirSync(agentDir, { recursive: true });
  appendFileSync(runLogPath(agentDir), `${JSON.stringify(redacted(entry))}\n`);
}

/**
 * Reads the run log (malformed lines are skipped).
 * @example readRunLog(agentDir).at(-1)?.outcome
 */
export function readRunLog(agentDir: string): RunLogEntry[] {
  const path = runLogPath(agentDir);
  if (!existsSync(path)) return [];
  const out: RunLogEntry[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as RunLogEntry);
    } catch {
      // a torn or hand-edited line; keep the rest readable
    }
  }
  return out;
}
