/**
 * A kept branch made on purpose: `gitmem/<kind>/<id>` leaves main at its current commit with `files` written
 * (raw git, hook skipped: this is the setup, not the write under test), and main is back where it was.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { git } from './tmp.js';

/** Creates the branch and returns its tip. `null` deletes a file. */
export function makeKeptBranch(
  dir: string,
  env: Record<string, string>,
  branch: string,
  files: Record<string, string | null>,
  message = 'worker edit',
): string {
  git(dir, ['checkout', '-q', '-b', branch], env);
  for (const [path, text] of Object.entries(files)) {
    if (text === null) rmSync(join(dir, path));
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    git(dir, ['add', '-A', '--', path], env);
  }
  git(dir, ['commit', '-q', '--no-verify', '-m', message], env);
  const tip = git(dir, ['rev-parse', 'HEAD'], env);
  git(dir, ['checkout', '-q', 'main'], env);
  return tip;
}
