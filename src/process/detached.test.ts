// One decision, one place: a child that outlives its caller (detached, unwaited) starts only through
// spawnDetached (process/detached.ts), so every such start detaches, reports a failure and treats its output alike.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnDetached } from './detached.js';

const SRC = new URL('..', import.meta.url).pathname;

/**
 * Files that may name `detached: true`: the one fire-and-forget start, and the two waited children that lead
 * their own process group so a timeout can stop every helper they started (never left running).
 */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ['process/detached.ts', 'spawnDetached: every child that outlives its caller'],
  ['process/run.ts', 'a waited child in its own process group (timeout, abort)'],
  ['process/shell-helper.ts', 'the resident shell, its own group, tied to the caller by a parent-death signal'],
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const DETACHED = /\bdetached\s*:\s*true\b/g;

describe('detached spawns', () => {
  it('start only through process/detached.ts (a `detached: true` elsewhere fails naming file:line)', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file);
      if (ALLOWED.has(name)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(DETACHED)) found.push(`${name}:${text.slice(0, m.index).split('\n').length}`);
    }
    expect(found, 'start it with spawnDetached (src/process/detached.ts)').toEqual([]);
  });

  it('names only files that exist and still detach', () => {
    for (const name of ALLOWED.keys()) expect(readFileSync(join(SRC, name), 'utf8'), name).toMatch(DETACHED);
  });
});

describe('spawnDetached', () => {
  it("appends the child's stdout and stderr to the log (0600) and returns at once", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitmem-detached-'));
    try {
      const log = join(dir, 'job.log');
      writeFileSync(log, 'before\n');
      spawnDetached('/bin/sh', ['-c', 'echo out; echo err >&2; echo "$X"'], { cwd: dir, env: { X: 'from-env' }, log });
      const deadline = Date.now() + 5000;
      while (!readFileSync(log, 'utf8').includes('from-env') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      expect(readFileSync(log, 'utf8').split('\n').sort()).toEqual(['', 'before', 'err', 'from-env', 'out']);
      const fresh = join(dir, 'fresh.log');
      spawnDetached('/bin/true', [], { log: fresh });
      expect(statSync(fresh).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tells onError of a start that fails later (no such command) or at once (a NUL byte), and never throws', async () => {
    const late = await new Promise<Error>((resolve) =>
      spawnDetached('/nonexistent/gitmem-no-such-command', [], { onError: resolve }),
    );
    expect((late as NodeJS.ErrnoException).code).toBe('ENOENT');
    const early: Error[] = [];
    expect(() => spawnDetached('/bin/true', ['a\0b'], { onError: (e) => early.push(e) })).not.toThrow();
    expect(early).toHaveLength(1);
    expect(() => spawnDetached('/nonexistent/gitmem-no-such-command', [])).not.toThrow();
  });
});
