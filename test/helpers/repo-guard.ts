/**
 * What a hostile memory-tool call must never change in a repository's `.git`, and the checks the integrity
 * tests run after each call: the object count never drops, the hooks (content and mode) and the config stay
 * as they were, nothing appears outside the repository, and HEAD's tree holds no `.git` look-alike.
 */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDotGitLike } from '../../src/blocks/path-rules.js';
import { git } from './tmp.js';

export interface GitSnapshot {
  /** Loose + packed objects (git count-objects). */
  objects: number;
  /** name, mode and content hash of every hook file. */
  hooks: string;
  config: string;
}

/** Hook files with mode and content hash, one line each. */
export function hookState(dir: string): string {
  const hooks = join(dir, '.git', 'hooks');
  return readdirSync(hooks)
    .sort()
    .map((name) => {
      const st = lstatSync(join(hooks, name));
      const sum = st.isFile()
        ? createHash('sha1')
            .update(readFileSync(join(hooks, name)))
            .digest('hex')
        : st.isDirectory()
          ? 'dir'
          : 'other';
      return `${name} ${(st.mode & 0o7777).toString(8)} ${sum}`;
    })
    .join('\n');
}

/** Number of objects in the store. */
export function objectCount(dir: string): number {
  const out = git(dir, ['count-objects', '-v']);
  const field = (k: string): number =>
    Number(/^(\S+): (\d+)$/m.exec(out.split('\n').find((l) => l.startsWith(`${k}:`)) ?? '')?.[2] ?? 0);
  return field('count') + field('in-pack');
}

export function snapshotGit(dir: string): GitSnapshot {
  return {
    objects: objectCount(dir),
    hooks: hookState(dir),
    config: readFileSync(join(dir, '.git', 'config'), 'utf8'),
  };
}

/** Every file below `dir` (recursive, links not followed), relative. */
export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const child = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk('');
  return out;
}

/** Paths in HEAD's tree with a component git (or a case-insensitive file system) would take for `.git`. */
export function dotGitNamesInHead(dir: string): string[] {
  const names = git(dir, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD'])
    .split('\0')
    .filter((p) => p !== '');
  return names.filter((p) => p.split('/').some(isDotGitLike));
}

/** `git fsck --strict`; returns its complaints ('' when clean). */
export function fsckProblems(dir: string): string {
  try {
    git(dir, ['fsck', '--strict', '--no-progress', '--no-dangling']);
    return '';
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message?: string };
    return `${e.stdout ?? ''}${e.stderr ?? e.message ?? ''}`.trim() || 'fsck failed';
  }
}

/** HEAD, index, work-tree status and refs: what a refused call must leave exactly as it was. */
export function repoState(dir: string): string {
  return [
    git(dir, ['rev-parse', 'HEAD']),
    git(dir, ['ls-files', '-s']),
    git(dir, ['status', '--porcelain', '--untracked-files=all', '--ignored']),
    git(dir, ['for-each-ref']),
  ].join('\n--\n');
}

/**
 * Awaits a call that must be refused with a MemoryError of `code` (or, when `code` is omitted, any code but
 * INTERNAL), and checks the repository is exactly as before. Returns the error.
 */
export async function expectRefused(
  dir: string,
  call: Promise<unknown>,
  code?: string,
): Promise<{ code: string; message: string; data: Record<string, unknown> }> {
  const before = repoState(dir);
  const err = await call.then(
    (r) => {
      throw new Error(`expected a refusal${code ? ` (${code})` : ''}, got success: ${JSON.stringify(r)}`);
    },
    (e: unknown) => e,
  );
  const e = err as { name?: string; code?: string; message?: string; data?: Record<string, unknown> };
  if (e.name !== 'MemoryError' && e.name !== 'GitCommandError') throw new Error(`not a MemoryError: ${String(err)}`);
  if (code) {
    if (e.code !== code) throw new Error(`expected ${code}, got ${e.code}: ${e.message}`);
  } else if (e.code === 'INTERNAL') throw new Error(`INTERNAL: ${e.message}`);
  const after = repoState(dir);
  if (after !== before)
    throw new Error(`repository changed by a refused call (${e.code}: ${e.message}):\n${before}\n=>\n${after}`);
  return { code: e.code ?? '', message: e.message ?? '', data: e.data ?? {} };
}
