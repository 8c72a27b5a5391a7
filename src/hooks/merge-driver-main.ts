/**
 * Process entry of gitmem's merge driver (started by the driver script for a file git's line merge could not
 * finish): `<node> merge-driver.cjs <base> <ours> <theirs> <path> <line-merge result>`. markdown-it is
 * imported here, so the bundle carries it: a confined writer running git inside its sandbox sees gitmem's
 * package but not its other dependencies.
 */
import { renameSync } from 'node:fs';
import markdownIt from 'markdown-it';
import { blockParser, type CreateMarkdownIt } from '../blocks/merge/index.js';
import { runMergeDriver } from './merge-driver.js';

const [base = '', ours = '', theirs = '', path = '', lines = ''] = process.argv.slice(2);
try {
  const r = runMergeDriver(
    { base, ours, theirs, path, lines },
    process.cwd(),
    blockParser(markdownIt as unknown as CreateMarkdownIt),
  );
  if (r.message) process.stderr.write(r.message);
  process.exitCode = r.code;
} catch (err) {
  process.stderr.write(`gitmem merge: ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
  try {
    renameSync(lines, ours); // git's conflict text, as if this merge had not been tried
  } catch {
    // nothing more to put back: git still holds every side in the index
  }
}
