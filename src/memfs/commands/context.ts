/**
 * What a memory-tool command may see while planning: strict reads of the (clean) work tree, path
 * normalisation and the "editable file" rule shared by every command.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isReadOnlyValue, normalizeText, parseMemoryFile, type FrontmatterData } from '../../blocks/frontmatter.js';
import { MemoryError, isMemoryError } from '../../errors.js';
import { assertInsideRepo, normalizeMemoryPath, type MemoryPath } from '../paths.js';
import { readMemoryText } from '../read-text.js';

export interface CommandContext {
  memoryDir: string;
  /** Tool name for messages (`memory`). */
  tool: string;
}

/** A loaded, editable memory file: normalised text split into frontmatter prefix and body. */
export interface EditableFile {
  file: string;
  /** Exact bytes on disk (what HEAD has, since the repo is clean). */
  original: string;
  /** Normalised text (BOM stripped, LF). */
  text: string;
  prefix: string;
  body: string;
  data: FrontmatterData;
}

/** Normalises a path argument and checks it does not escape through a symlink. */
export function resolvePath(ctx: CommandContext, value: unknown, field: string): MemoryPath {
  const mp = normalizeMemoryPath(value, { memoryDir: ctx.memoryDir, field, tool: ctx.tool });
  assertInsideRepo(ctx.memoryDir, mp.file, field, ctx.tool);
  return mp;
}

/** Reads a repo-relative file strictly (null when absent). */
export function readFile(ctx: CommandContext, file: string): string | null {
  return readMemoryText(join(ctx.memoryDir, file), file);
}

/** True when `label` names an existing directory in the repo. */
export function isDirectory(ctx: CommandContext, label: string): boolean {
  try {
    return lstatSync(join(ctx.memoryDir, label)).isDirectory();
  } catch {
    return false;
  }
}

/** Every file below a directory label, repo-relative, sorted. */
export function listFilesUnder(ctx: CommandContext, label: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(ctx.memoryDir, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else out.push(child);
    }
  };
  walk(label);
  return out.sort();
}

/** True when the repo-relative file exists (any type). */
export function fileExists(ctx: CommandContext, file: string): boolean {
  return existsSync(join(ctx.memoryDir, file));
}

/**
 * Loads a file the tool may change: exists, has frontmatter with a description, is not read_only.
 * `shown` is the path as the caller gave it (used in messages).
 */
export function loadEditable(ctx: CommandContext, file: string, shown: string): EditableFile {
  const original = readFile(ctx, file);
  if (original === null) {
    throw new MemoryError('FILE_NOT_FOUND', `${ctx.tool}: no memory file at ${shown}`, { data: { path: file } });
  }
  let parsed;
  try {
    parsed = parseMemoryFile(original);
  } catch (err) {
    const why = isMemoryError(err) ? err.message : String(err);
    throw new MemoryError('FRONTMATTER_INVALID', `${ctx.tool}: ${file}: ${why}`, { data: { path: file } });
  }
  if (isReadOnlyValue(parsed.data['read_only'])) {
    throw new MemoryError('READ_ONLY', `${ctx.tool}: ${shown} is read_only and cannot be modified`, { data: { path: file } });
  }
  const text = normalizeText(original);
  return { file, original, text, prefix: text.slice(0, text.length - parsed.body.length), body: parsed.body, data: parsed.data };
}

/** A required string parameter (non-empty after trimming; the value itself is used untrimmed). */
export function requireString(ctx: CommandContext, command: string, call: Record<string, unknown>, field: string): string {
  const v = call[field];
  if (typeof v !== 'string' || v.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', `${ctx.tool} ${command}: '${field}' must be a non-empty string`, { data: { field } });
  }
  return v;
}
