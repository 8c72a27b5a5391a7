/**
 * `connect claude-code --auto-memory`, first step: Claude Code's existing auto-memory folder copied into the
 * agent's checkout as one commit (judged by the pre-commit hook like every write), before the settings point
 * Claude Code at the checkout. Nothing is lost: the folder stays where it was; a file already in the checkout
 * with other bytes is a refusal (not an overwrite), bar a MEMORY.md index, whose missing lines are appended;
 * a refused import puts back every file it wrote.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { MemoryError, type Memory } from '../index.js';
import { handleGit, withMemoryOperation } from '../internals.js';
import { commitPaths } from './auto-memory-hooks.js';
import { claudeProjectDir } from './claude-project-dir.js';
import { readSetting } from './json-settings.js';
import { readIfExists } from './files.js';

/** More files than this is not an auto-memory folder (refused rather than copied). */
const MAX_FILES = 5_000;
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * Where Claude Code keeps this project's auto memory now: `autoMemoryDirectory` of the user settings (`~/`
 * expanded), else `<config dir>/projects/<project key>/memory` (a long path's folder found as
 * claude-project-dir.ts says). The checkout itself is no folder to import.
 */
export function autoMemorySource(o: {
  settingsPath: string;
  configDir: string;
  userHome: string;
  projectRoot: string;
  memoryDir: string;
}): string {
  const set = readSetting(o.settingsPath, readIfExists(o.settingsPath), 'autoMemoryDirectory');
  if (typeof set === 'string' && set.trim() !== '') {
    const dir = set.startsWith('~/') ? join(o.userHome, set.slice(2)) : set;
    if (isAbsolute(dir) && dir !== o.memoryDir) return dir;
  }
  return join(claudeProjectDir(join(o.configDir, 'projects'), o.projectRoot), 'memory');
}

/** The regular files under `dir`, relative, sorted (links and `.git` skipped; too many or too big refused). */
function filesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.toLowerCase() === '.git') continue;
      const full = join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile()) {
        if (lstatSync(full).size > MAX_FILE_BYTES)
          throw new MemoryError('INVALID_ARGUMENT', `${full} is larger than ${MAX_FILE_BYTES} bytes: not imported`);
        out.push(relative(dir, full).split('\\').join('/'));
      }
      if (out.length > MAX_FILES)
        throw new MemoryError('INVALID_ARGUMENT', `${dir} holds more than ${MAX_FILES} files: not imported`);
    }
  };
  walk(dir);
  return out.sort();
}

/** One file the import writes: new, or a routing index merged with the checkout's. */
interface ImportFile {
  rel: string;
  bytes: Buffer;
  merged: boolean;
}

/**
 * Two routing indexes as one: the checkout's text, then the folder's lines it lacks (nothing lost on
 * either side; a link already listed is not listed twice).
 */
export function mergeIndex(ours: string, theirs: string): string {
  const have = new Set(ours.split('\n').map((l) => l.trim()));
  const add = theirs.split('\n').filter((l) => l.trim() !== '' && !have.has(l.trim()));
  if (add.length === 0) return ours;
  return `${ours.endsWith('\n') || ours === '' ? ours : `${ours}\n`}${add.join('\n')}\n`;
}

/**
 * The files to write: those the checkout lacks, and MEMORY.md indexes merged; the same bytes are skipped,
 * any other file with other bytes is refused.
 */
function plan(source: string, memoryDir: string): ImportFile[] {
  const out: ImportFile[] = [];
  for (const rel of filesOf(source)) {
    const bytes = readFileSync(join(source, rel));
    const target = join(memoryDir, rel);
    let st;
    try {
      st = lstatSync(target);
    } catch {
      out.push({ rel, bytes, merged: false });
      continue;
    }
    const current = st.isFile() ? readFileSync(target) : undefined;
    if (current?.equals(bytes)) continue;
    if (current && rel.split('/').at(-1) === 'MEMORY.md') {
      const merged = mergeIndex(current.toString('utf8'), bytes.toString('utf8'));
      if (merged !== current.toString('utf8')) out.push({ rel, bytes: Buffer.from(merged, 'utf8'), merged: true });
      continue;
    }
    throw new MemoryError(
      'FILE_EXISTS',
      `${rel} is in both ${source} and the checkout with other contents: merge them by hand, then connect again; gitmem changed nothing`,
      { data: { path: rel } },
    );
  }
  return out;
}

/** Copies and commits; on a refusal, every file written goes again (the checkout is as it was). */
async function copyAndCommit(memory: Memory, source: string, files: readonly ImportFile[]): Promise<void> {
  const git = handleGit(memory);
  const cwd = memory.memoryDir;
  const written: ImportFile[] = [];
  const paths = files.map((f) => f.rel);
  try {
    for (const f of files) {
      const target = join(cwd, f.rel);
      mkdirSync(dirname(target), { recursive: true });
      written.push(f);
      writeFileSync(target, f.bytes, f.merged ? {} : { flag: 'wx', mode: 0o644 });
    }
    await commitPaths(memory, paths, `Import Claude Code's auto memory from ${source} (${files.length} files)`);
  } catch (err) {
    await git.run(['reset', '-q', '--', ...paths], { cwd, okExitCodes: [0, 1] });
    for (const f of written) {
      if (f.merged) await git.run(['checkout', '-q', 'HEAD', '--', f.rel], { cwd });
      else rmSync(join(cwd, f.rel), { force: true });
    }
    const stderr = (err as { stderr?: unknown }).stderr;
    const why = (typeof stderr === 'string' && stderr.trim() !== '' ? stderr : (err as Error).message).trim();
    throw new MemoryError(
      'VALIDATION_FAILED',
      `importing ${source} was refused: ${why.split('\n')[0] ?? ''}; gitmem changed nothing`,
      { cause: err },
    );
  }
}

/**
 * Imports `source` into the checkout (one commit); the paths imported (empty when there was nothing new).
 * `dryRun` only says what would be imported.
 */
export async function importAutoMemory(memory: Memory, source: string, dryRun = false): Promise<string[]> {
  try {
    if (!lstatSync(source).isDirectory()) return [];
  } catch {
    return [];
  }
  const status = await handleGit(memory).run(['status', '--porcelain'], { cwd: memory.memoryDir });
  if (status.stdout.trim() !== '')
    throw new MemoryError('REPO_DIRTY', `${memory.memoryDir} has uncommitted changes: commit them before importing`);
  const files = plan(source, memory.memoryDir);
  if (files.length === 0 || dryRun) return files.map((f) => f.rel);
  await withMemoryOperation(memory.memoryDir, () => copyAndCommit(memory, source, files), {
    purpose: 'auto-memory import',
  });
  return files.map((f) => f.rel);
}
