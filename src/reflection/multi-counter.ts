/**
 * The post-turn trigger's count of successful single-conversation reflections since the last
 * multi-conversation run (`<agentDir>/reflection-multi-counter.json`). Several harness processes may finish
 * runs of one agent at once, so each update holds a lock file (`…json.lock`, created exclusively; one older
 * than 30 s is a crashed holder's and is taken over: file-lock.ts).
 */
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from './file-lock.js';

const FILE = 'reflection-multi-counter.json';

/** The counter file of an agent. */
export function multiCounterPath(agentDir: string): string {
  return join(agentDir, FILE);
}

function readCount(path: string): number {
  try {
    const v = (JSON.parse(readFileSync(path, 'utf8')) as { successful_single_runs?: unknown }).successful_single_runs;
    return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
  } catch {
    return 0; // absent or unreadable: start again
  }
}

/**
 * Counts one successful single run; true (and the count reset) when it is the `every`-th, i.e. a
 * multi-conversation run is due. `every` <= 0 is off: nothing is counted.
 * @example if (countSingleRun(agentDir, 5)) launchMulti()
 */
export function countSingleRun(agentDir: string, every: number): boolean {
  if (!Number.isInteger(every) || every <= 0) return false;
  mkdirSync(agentDir, { recursive: true });
  const path = multiCounterPath(agentDir);
  return withFileLock(path, 'the reflection counter', () => {
    const next = readCount(path) + 1;
    const due = next >= every;
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ successful_single_runs: due ? 0 : next })}\n`);
    renameSync(tmp, path);
    return due;
  });
}

/** The current count (for status displays and tests). */
export function readSingleRunCount(agentDir: string): number {
  return readCount(multiCounterPath(agentDir));
}
