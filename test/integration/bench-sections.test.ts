// Every benchmark section loads against the built package and exports bench(): a section importing a name the
// public surface no longer has (building blocks moved to gitmem/internals) failed only when `npm run bench` ran.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SECTIONS = join(process.cwd(), 'bench', 'sections');

describe('bench sections', () => {
  for (const file of readdirSync(SECTIONS).filter((f) => f.endsWith('.mjs'))) {
    it(`${file} loads and exports bench()`, async () => {
      const mod = (await import(pathToFileURL(join(SECTIONS, file)).href)) as { bench?: unknown };
      expect(typeof mod.bench).toBe('function');
    });
  }
});
