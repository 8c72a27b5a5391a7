// The multi-run counter: counts to K then resets, off when K <= 0, never loses a count when several
// processes update it at once (the lock file), and takes over a lock left by a crashed holder.
import { spawn } from 'node:child_process';
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupTmp, makeTmpDir } from '../../test/helpers/tmp.js';
import { countSingleRun, multiCounterPath, readSingleRunCount } from './multi-counter.js';

afterAll(cleanupTmp);
const TSX = pathToFileURL(join(import.meta.dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const MODULE = pathToFileURL(join(import.meta.dirname, 'multi-counter.ts')).href;

describe('countSingleRun', () => {
  it('is due on every K-th run and resets; K <= 0 counts nothing', () => {
    const dir = makeTmpDir('gitmem-counter-');
    expect([1, 2, 3, 4, 5, 6].map(() => countSingleRun(dir, 3))).toEqual([false, false, true, false, false, true]);
    expect(readSingleRunCount(dir)).toBe(0);
    expect(countSingleRun(dir, 0)).toBe(false);
    expect(readSingleRunCount(dir)).toBe(0);
  });

  it('loses no count when four processes update it at once', async () => {
    const dir = makeTmpDir('gitmem-counter-');
    const code = `const { countSingleRun } = await import(${JSON.stringify(MODULE)}); for (let i = 0; i < 25; i++) countSingleRun(${JSON.stringify(dir)}, 1000);`;
    await Promise.all(
      [1, 2, 3, 4].map(
        () =>
          new Promise<void>((res, rej) => {
            const child = spawn(process.execPath, ['--import', TSX, '--input-type=module', '-e', code], {
              stdio: 'inherit',
            });
            child.on('exit', (c) => (c === 0 ? res() : rej(new Error(`child exited ${c}`))));
          }),
      ),
    );
    expect(readSingleRunCount(dir)).toBe(100);
  }, 60_000);

  it('takes over a stale lock', () => {
    const dir = makeTmpDir('gitmem-counter-');
    const lock = `${multiCounterPath(dir)}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    expect(countSingleRun(dir, 5)).toBe(false);
    expect(readSingleRunCount(dir)).toBe(1);
  });
});
