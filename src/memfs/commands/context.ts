/**
 * What a memory-tool command may see while planning: strict reads of the (clean) work tree through the
 * call's race-safe RepoFs (no link is ever followed), path normalisation and the "editable file" rule
 * shared by every command.
 */
import { isReadOnlyValue, normalizeText, parseMemoryFile, type FrontmatterData } from '../../blocks/frontmatter.js';
import { LAYOUTS, type LayoutRow } from '../../blocks/layouts.js';
import { pathProblem } from '../../blocks/path-rules.js';
import { isProtectedText, OPERATOR_HINTS } from '../../blocks/validate-protection.js';
import { frontmatterKeysFor } from '../../blocks/validate.js';
import { MemoryError, isMemoryError } from '../../errors.js';
import { linkRefusal } from '../fs-errors.js';
import { normalizeMemoryPath, type MemoryPath } from '../paths.js';
import { decodeMemoryText } from '../read-text.js';
import type { RepoFs } from '../repo-fs.js';

export interface CommandContext {
  memoryDir: string;
  /** Tool name for messages (`memory`). */
  tool: string;
  /** The call's file access (see repo-fs.ts). */
  fs: RepoFs;
  /** The repository's layout (blocks/layouts.ts); the `system` row when absent. */
  layout?: LayoutRow;
}

/**
 * What a file is to the tool: memory markdown and a skill's SKILL.md carry frontmatter (their own key sets);
 * anything else is a plain file, edited as a whole, with no frontmatter rules.
 */
export type ToolFileKind = 'memory' | 'skill' | 'plain';

/** The kind of a repo-relative file (the validator's rules decide, under the repository's layout). */
export function toolFileKind(file: string, layout: LayoutRow = LAYOUTS.system): ToolFileKind {
  if (frontmatterKeysFor(file, layout) === null) return 'plain';
  return layout.classify(file) === 'skill' ? 'skill' : 'memory';
}

/** A loaded, editable file: normalised text split into frontmatter prefix (empty for a plain file) and body. */
export interface EditableFile {
  file: string;
  kind: ToolFileKind;
  /** Exact text on disk (what HEAD has, since the repo is clean). */
  original: string;
  /** Normalised text (BOM stripped, LF). */
  text: string;
  prefix: string;
  body: string;
  data: FrontmatterData;
}

/**
 * Normalises a path argument; refuses it when the path or its label is a symbolic link, or passes
 * through one (checked without following anything).
 */
export function resolvePath(ctx: CommandContext, value: unknown, field: string): MemoryPath {
  const mp = normalizeMemoryPath(value, { memoryDir: ctx.memoryDir, field, tool: ctx.tool });
  for (const p of [mp.file, mp.label]) if (ctx.fs.info(p)?.kind === 'link') throw linkRefusal(p);
  return mp;
}

/** Reads a repo-relative file strictly as UTF-8 text (null when absent). */
export function readFile(ctx: CommandContext, file: string): string | null {
  const bytes = ctx.fs.readFile(file);
  return bytes === null ? null : decodeMemoryText(bytes, file);
}

/** True when `label` names an existing directory in the repo. */
export function isDirectory(ctx: CommandContext, label: string): boolean {
  return ctx.fs.info(label)?.kind === 'dir';
}

/**
 * Every file below a directory label, repo-relative, sorted. Refuses a directory holding anything the
 * tool could not put back or commit as it is: a link, a device, a name that is not UTF-8 or that the path
 * rule refuses (e.g. a nested `.git`).
 */
export function listFilesUnder(ctx: CommandContext, label: string): string[] {
  const out: string[] = [];
  const refuse = (path: string, why: string): never => {
    throw new MemoryError(
      'INVALID_PATH',
      `${ctx.tool} delete: ${label}/ cannot be deleted by the tool: ${path} ${why}`,
      { data: { path } },
    );
  };
  const walk = (rel: string): void => {
    for (const entry of ctx.fs.list(rel) ?? []) {
      const name = entry.name.toString('utf8');
      const child = `${rel}/${name}`;
      if (!Buffer.from(name, 'utf8').equals(entry.name)) refuse(`${rel}/${name}`, 'has a name that is not UTF-8');
      const problem = pathProblem(child);
      if (problem) refuse(child, `is refused (${problem})`);
      if (entry.kind === 'link') throw linkRefusal(child);
      if (entry.kind === 'dir') walk(child);
      else if (entry.kind === 'file') out.push(child);
      else refuse(child, 'is not a regular file');
    }
  };
  walk(label);
  return out.sort();
}

/** True when the repo-relative path exists (any type, a link included). */
export function fileExists(ctx: CommandContext, file: string): boolean {
  return ctx.fs.info(file) !== null;
}

/**
 * Loads a file the tool may change: exists, is UTF-8, is not read_only, and — unless it is a plain file — has
 * frontmatter. `shown` is the path as the caller gave it (used in messages).
 */
export function loadEditable(ctx: CommandContext, file: string, shown: string): EditableFile {
  const original = readFile(ctx, file);
  if (original === null) {
    throw new MemoryError('FILE_NOT_FOUND', `${ctx.tool}: no memory file at ${shown}`, { data: { path: file } });
  }
  const kind = toolFileKind(file, ctx.layout);
  if (kind === 'plain') {
    // The validator protects any file whose text declares read_only, plain or not: refuse before planning.
    if (isProtectedText(original))
      throw new MemoryError(
        'READ_ONLY',
        `${ctx.tool}: ${shown} is read_only and cannot be modified; ${OPERATOR_HINTS.write}`,
        { data: { path: file } },
      );
    const text = normalizeText(original);
    return { file, kind, original, text, prefix: '', body: text, data: {} };
  }
  let parsed;
  try {
    parsed = parseMemoryFile(original);
  } catch (err) {
    const why = isMemoryError(err) ? err.message : String(err);
    throw new MemoryError('FRONTMATTER_INVALID', `${ctx.tool}: ${file}: ${why}`, { data: { path: file } });
  }
  if (isReadOnlyValue(parsed.data['read_only'])) {
    throw new MemoryError(
      'READ_ONLY',
      `${ctx.tool}: ${shown} is read_only and cannot be modified; ${OPERATOR_HINTS.write}`,
      { data: { path: file } },
    );
  }
  const text = normalizeText(original);
  return {
    file,
    kind,
    original,
    text,
    prefix: text.slice(0, text.length - parsed.body.length),
    body: parsed.body,
    data: parsed.data,
  };
}

/** A required string parameter (non-empty after trimming; the value itself is used untrimmed). */
export function requireString(
  ctx: CommandContext,
  command: string,
  call: Record<string, unknown>,
  field: string,
): string {
  const v = call[field];
  if (typeof v !== 'string' || v.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} ${command}: '${field}' must be a non-empty string`, {
      data: { field },
    });
  }
  return v;
}
