// The launcher is a dependency: layers take it as a parameter (`launch`), and only the composition root
// (wiring/open.ts launcherFor) reaches for the process-wide one, so no lower layer hides a singleton.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('..', import.meta.url).pathname;

/** Where the process-wide launcher may be named: its definition and the one place that picks it. */
const ALLOWED = new Set(['process/shell-launcher.ts', 'wiring/open.ts']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

const SHARED = /\bsharedShellLauncher\b/g;

describe('the shell launcher', () => {
  it('is fetched only by the composition root (a use of sharedShellLauncher elsewhere fails naming file:line)', () => {
    const found: string[] = [];
    for (const file of sourceFiles(SRC)) {
      const name = relative(SRC, file);
      if (ALLOWED.has(name)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(SHARED)) found.push(`${name}:${text.slice(0, m.index).split('\n').length}`);
    }
    expect(found, 'take the launcher as a parameter; wiring/open.ts launcherFor picks it').toEqual([]);
  });

  it('names only files that still pick it', () => {
    for (const name of ALLOWED) expect(readFileSync(join(SRC, name), 'utf8'), name).toMatch(SHARED);
  });
});
