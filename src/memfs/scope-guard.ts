/**
 * A scoped reader (`gitmem clone --scope <dir>`) has only its scope, system/ and the root files on disk; the
 * memory tool and memory_apply_patch work on the checkout, so a write elsewhere would plant a file beside the
 * sparse cone (or fail as "no such file" on one that exists in the tree). It is refused up front with one clear
 * line instead.
 */
import { join } from 'node:path';
import { MemoryError } from '../errors.js';
import { gitmemConfigValue, readGitConfigText } from '../git/config-text.js';
import { normalizeMemoryPath } from './paths.js';

/** The path arguments of a memory-tool call. */
const PATH_ARGS = ['file_path', 'old_path', 'new_path'] as const;

function scopeOf(memoryDir: string): string | undefined {
  const text = readGitConfigText(join(memoryDir, '.git'));
  const scope = text === undefined ? undefined : gitmemConfigValue(text, 'scope');
  return scope === '' ? undefined : scope;
}

function refusal(tool: string, raw: unknown, scope: string): MemoryError {
  return new MemoryError(
    'INVALID_ARGUMENT',
    `${tool}: ${String(raw)} is outside this clone's scope (${scope}/, system/ and the root files are checked out); write it from a full clone`,
  );
}

const inside = (scope: string, path: string): boolean =>
  !path.includes('/') || [scope, 'system'].some((d) => path === d || path.startsWith(`${d}/`));

/**
 * Throws INVALID_ARGUMENT when the memory at `memoryDir` is a scoped clone and `args` name a path outside it.
 * @example refuseOutsideScope('/m', { file_path: 'other/a.md' }) // throws when gitmem.scope = notes
 */
export function refuseOutsideScope(memoryDir: string, args: Readonly<Record<string, unknown>>): void {
  const scope = scopeOf(memoryDir);
  if (scope === undefined) return;
  for (const key of PATH_ARGS) {
    const raw = args[key];
    let path: string;
    try {
      path = normalizeMemoryPath(raw, { memoryDir, field: key }).file;
    } catch {
      continue; // the command refuses a bad path itself, with its own words
    }
    if (!inside(scope, path)) throw refusal('memory', raw, scope);
  }
}

/**
 * The same for a patch's files (apply-patch/targets.ts): any one outside the scope refuses the whole patch.
 * @example refuseFilesOutsideScope('/m', [{ raw: 'other/a.md', file: 'other/a.md' }]) // throws when gitmem.scope = notes
 */
export function refuseFilesOutsideScope(
  memoryDir: string,
  files: ReadonlyArray<{ raw: string; file: string }>,
  tool = 'memory_apply_patch',
): void {
  const scope = scopeOf(memoryDir);
  if (scope === undefined) return;
  for (const f of files) if (!inside(scope, f.file)) throw refusal(tool, f.raw, scope);
}
