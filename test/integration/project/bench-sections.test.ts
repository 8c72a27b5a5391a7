// Every benchmark section loads against the built package and exports bench(): a section importing a name the
// public surface no longer has (building blocks moved to gitmem/internals) failed only when `npm run bench` ran.
// Loaded by plain Node in a child: vitest's own module loader does not check named imports.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SECTIONS = join(process.cwd(), 'bench', 'sections');

describe('bench sections', () => {
  it('each loads in plain Node and exports bench()', () => {
    const urls = readdirSync(SECTIONS)
      .filter((f) => f.endsWith('.mjs'))
      .map((f) => pathToFileURL(join(SECTIONS, f)).href);
    const script = `const out = {}; for (const u of ${JSON.stringify(urls)}) { try { out[u.split('/').pop()] = typeof (await import(u)).bench; } catch (e) { out[u.split('/').pop()] = String(e.message).split('\\n')[0]; } } console.log(JSON.stringify(out));`;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
    ) as Record<string, string>;
    expect(Object.keys(loaded).length).toBeGreaterThan(5);
    for (const [file, kind] of Object.entries(loaded)) expect(kind, file).toBe('function');
  });
});
