/**
 * A memory write run by the real CLI under strace: its fsync/fdatasync and rename calls, in the order they
 * returned (an fsync strace shows as `<unfinished ...>` counts when it resumes). For the durable-order tests.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { GITMEM_BIN } from './cli.js';
import { makeTmpDir } from './tmp.js';

export type TraceEvent = { kind: 'fsync'; path: string } | { kind: 'rename'; from: string; to: string };

/** Runs `gitmem memory create <file>` under strace; the calls in order. */
export function tracedWrite(env: Record<string, string>, file: string): TraceEvent[] {
  const out = join(makeTmpDir('gitmem-strace-'), 'trace');
  const args = [
    'memory',
    'create',
    file,
    '--description',
    'durable',
    '--text',
    'hello',
    '--reason',
    'durable write',
    '--agent',
    'agent-1',
  ];
  const r = spawnSync(
    'strace',
    [
      '-f',
      '-y',
      '-qq',
      '-s',
      '4096',
      '-o',
      out,
      '-e',
      'trace=fsync,fdatasync,rename,renameat,renameat2',
      process.execPath,
      GITMEM_BIN,
      ...args,
    ],
    { env, encoding: 'utf8' },
  );
  expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  const events: TraceEvent[] = [];
  const pending = new Map<string, string>(); // pid → path of an fsync strace shows as <unfinished ...>
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const pid = /^(\d+) /.exec(line)?.[1] ?? '';
    const started = /\b(?:fsync|fdatasync)\(\d+<(.*)> <unfinished \.\.\.>/.exec(line);
    if (started?.[1] !== undefined) pending.set(pid, started[1]);
    const resumed = /<\.\.\. (?:fsync|fdatasync) resumed>\) += 0/.test(line) ? pending.get(pid) : undefined;
    if (resumed !== undefined) events.push({ kind: 'fsync', path: resumed }); // done: counted when it returned
    const sync = /\b(?:fsync|fdatasync)\(\d+<(.*)>\) += 0/.exec(line);
    if (sync?.[1] !== undefined) events.push({ kind: 'fsync', path: sync[1] });
    const moved = /\brename(?:at2?)?\((?:[^,]+, )?"([^"]*)", (?:[^,]+, )?"([^"]*)"/.exec(line);
    if (moved?.[1] !== undefined && moved[2] !== undefined)
      events.push({ kind: 'rename', from: moved[1], to: moved[2] });
  }
  return events;
}

/** The index of the first event after `after` that matches; fails the test when there is none. */
export function at(events: readonly TraceEvent[], pred: (e: TraceEvent) => boolean, after = -1): number {
  const i = events.findIndex((e, n) => n > after && pred(e));
  expect(i, `an expected call after #${after} is missing`).toBeGreaterThanOrEqual(0);
  return i;
}

export const synced =
  (re: RegExp) =>
  (e: TraceEvent): boolean =>
    e.kind === 'fsync' && re.test(e.path);
export const syncedPath =
  (path: string) =>
  (e: TraceEvent): boolean =>
    e.kind === 'fsync' && e.path === path;
export const renamedTo =
  (re: RegExp) =>
  (e: TraceEvent): boolean =>
    e.kind === 'rename' && re.test(e.to);
