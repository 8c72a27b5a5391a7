/**
 * Turns a `memory_apply_patch` input into a plan of writes and deletes without touching disk:
 * file access is injected, so every rule here is tested as a pure function and the caller applies the
 * plan under its own lock, commit and rollback.
 *
 * Decisions the patch grammar leaves open (documented for the tool description):
 * - Add onto a path deleted earlier in the same patch is allowed (as for Move), since the net effect is a
 *   rewrite; otherwise adding onto an existing file is FILE_EXISTS.
 * - Add content that carries `read_only: true` is refused; any other `read_only` value is dropped, since
 *   the agent may not set that key at all (the pre-commit hook would reject it). Every other key it brings
 *   is kept (the validator names any it does not allow); frontmatter without a description gets
 *   `Memory block <label>`, a SKILL.md without a name its folder (commands/new-file.ts, shared with create).
 * - A plain file (not markdown memory: another extension, a skill's other files) is added exactly as given
 *   and updated as a whole, with no frontmatter rules.
 * - Update may not add, change or remove `read_only` (true is refused with the message the memory tool gives).
 * - Delete of a file added earlier in the same patch just cancels the add.
 */
import {
  descriptionOf,
  isReadOnlyValue,
  normalizeText,
  parseMemoryFile,
  setFrontmatterKeys,
  tryParseMemoryFile,
  type FrontmatterData,
} from '../../blocks/frontmatter.js';
import { LAYOUTS, type LayoutRow } from '../../blocks/layouts.js';
import { isProtectedText, OPERATOR_HINTS } from '../../blocks/validate-protection.js';
import { isMemoryError, MemoryError } from '../../errors.js';
import { toolFileKind } from '../commands/context.js';
import { newFileText } from '../commands/new-file.js';
import { restyle } from '../line-style.js';
import { normalizeMemoryPath, type MemoryPath } from '../paths.js';
import { applyHunks } from './apply-hunks.js';
import { parsePatch, type PatchOp } from './parse.js';

/** Read access to the memory repository, injected by the caller. */
export interface PatchFs {
  /** Current content of a repo-relative file, or null if absent. Throws MemoryError('NOT_UTF8', …) for
   *  non-UTF-8 files. */
  read(file: string): string | null;
}

/** What to do on disk: write each file (creating directories), then delete each listed file. */
export interface PatchPlan {
  writes: Array<{ file: string; content: string }>;
  deletes: string[];
  /** Every affected repo-relative path, de-duplicated, in the order the patch touched them. */
  paths: string[];
}

interface Staging {
  fs: PatchFs;
  memoryDir: string;
  /** The repository's layout: which paths are memory files (an index layout's MEMORY.md is plain). */
  layout: LayoutRow;
  /** Every path must lie under this directory (`shared/<name>`) and is planned relative to it. */
  within: string | undefined;
  disk: Map<string, string | null>;
  writes: Map<string, string>;
  deletes: Set<string>;
  paths: string[];
}

const TOOL = 'memory_apply_patch';

type PathField = 'Add File path' | 'Update File path' | 'Move to path' | 'Delete File path';

function target(s: Staging, path: string, field: PathField): MemoryPath {
  const named = normalizeMemoryPath(path, { memoryDir: s.memoryDir, field, tool: TOOL });
  if (s.within === undefined) return named;
  const prefix = `${s.within}/`;
  // The caller routed the whole patch into one repository; a path elsewhere must not land in it.
  if (!named.file.startsWith(prefix))
    throw new MemoryError('INVALID_ARGUMENT', `${TOOL}: ${path} is not under ${prefix}`, {
      data: { file: named.file },
    });
  return { label: named.label.slice(prefix.length), file: named.file.slice(prefix.length) };
}

function readDisk(s: Staging, file: string): string | null {
  if (!s.disk.has(file)) s.disk.set(file, s.fs.read(file));
  return s.disk.get(file) ?? null;
}

/** Whether the file is on disk and not already scheduled for deletion (an unreadable file exists too). */
function occupied(s: Staging, file: string): boolean {
  if (s.deletes.has(file)) return false;
  try {
    return readDisk(s, file) !== null;
  } catch (err) {
    if (isMemoryError(err, 'NOT_UTF8')) return true;
    throw err;
  }
}

/** The file's content as this patch currently sees it (staged write, else disk), LF-normalised. */
function currentText(s: Staging, file: string, verb: 'update' | 'delete'): string {
  const staged = s.writes.get(file);
  if (staged !== undefined) return staged;
  const disk = s.deletes.has(file) ? null : readDisk(s, file);
  if (disk === null) {
    throw new MemoryError('FILE_NOT_FOUND', `${TOOL}: file not found for ${verb}: ${file}`, { data: { file } });
  }
  return normalizeText(disk);
}

function parseOrThrow(file: string, text: string, what: string): FrontmatterData {
  let data: FrontmatterData;
  try {
    data = parseMemoryFile(text).data;
  } catch (err) {
    if (!isMemoryError(err)) throw err;
    throw new MemoryError(err.code, `${TOOL}: ${what} ${file}: ${err.message}`, { data: { file }, cause: err });
  }
  if (descriptionOf(data) === '') {
    throw new MemoryError('FRONTMATTER_INVALID', `${TOOL}: ${what} ${file} frontmatter is missing 'description'`, {
      data: { file },
    });
  }
  return data;
}

/** Loads an editable file: not read_only, and for a memory file valid frontmatter with a description. */
function editable(s: Staging, file: string, text: string, verb: 'modified' | 'deleted'): FrontmatterData {
  const refused = (): MemoryError =>
    new MemoryError(
      'READ_ONLY',
      `${TOOL}: ${file} is read_only and cannot be ${verb}; ${verb === 'deleted' ? OPERATOR_HINTS.unlock : OPERATOR_HINTS.write}`,
      { data: { file } },
    );
  if (toolFileKind(file, s.layout) === 'plain') {
    if (isProtectedText(text)) throw refused();
    return {};
  }
  const data = parseOrThrow(file, text, 'target');
  if (isReadOnlyValue(data['read_only'])) throw refused();
  return data;
}

function refuseReadOnlyTrue(file: string, data: FrontmatterData): void {
  if (isReadOnlyValue(data['read_only'])) {
    throw new MemoryError(
      'READ_ONLY',
      `${TOOL}: ${file} cannot be written with read_only=true; ${OPERATOR_HINTS.write}`,
      { data: { file } },
    );
  }
}

/** The patched text must still be a memory file, and its read_only key must be exactly as before. */
function checkPatched(s: Staging, file: string, text: string, before: FrontmatterData): void {
  if (toolFileKind(file, s.layout) === 'plain') return; // no frontmatter rules (the validator still refuses setting read_only)
  const after = parseOrThrow(file, text, 'patched');
  refuseReadOnlyTrue(file, after);
  const had = Object.hasOwn(before, 'read_only');
  const has = Object.hasOwn(after, 'read_only');
  if (had !== has || JSON.stringify(before['read_only']) !== JSON.stringify(after['read_only'])) {
    throw new MemoryError(
      'READ_ONLY',
      `${TOOL}: ${file}: 'read_only' is a protected field and cannot be changed by a patch; ${OPERATOR_HINTS.write}`,
      {
        data: { file },
      },
    );
  }
}

function refuseDuplicate(s: Staging, file: string): void {
  if (s.writes.has(file)) {
    throw new MemoryError('PATCH_INVALID', `${TOOL}: duplicate add/update target in patch: ${file}`, {
      data: { file },
    });
  }
}

/** Content for an Add: see the decisions above (the `+` lines joined with `\n`, no final newline added). */
function addContent(s: Staging, file: string, label: string, lines: string[]): string {
  const raw = lines.join('\n');
  const parsed = toolFileKind(file, s.layout) === 'plain' ? null : tryParseMemoryFile(raw);
  let text = raw;
  if (parsed !== null && Object.hasOwn(parsed.data, 'read_only')) {
    refuseReadOnlyTrue(file, parsed.data);
    text = setFrontmatterKeys(normalizeText(raw), [['read_only', undefined]]);
  }
  return newFileText({
    operation: TOOL,
    file,
    text,
    fallbackDescription: `Memory block ${label}`,
    finalNewline: false,
    layout: s.layout,
  });
}

function stageWrite(s: Staging, file: string, content: string): void {
  s.writes.set(file, content);
  s.deletes.delete(file);
}

function stageDelete(s: Staging, file: string): void {
  s.writes.delete(file);
  s.deletes.add(file);
}

function planAdd(s: Staging, op: Extract<PatchOp, { type: 'add' }>): void {
  const { label, file } = target(s, op.path, 'Add File path');
  refuseDuplicate(s, file);
  if (occupied(s, file)) {
    throw new MemoryError('FILE_EXISTS', `${TOOL}: cannot add existing memory file: ${file}`, { data: { file } });
  }
  stageWrite(s, file, addContent(s, file, label, op.lines));
  s.paths.push(file);
}

function planUpdate(s: Staging, op: Extract<PatchOp, { type: 'update' }>): void {
  const source = target(s, op.path, 'Update File path').file;
  const dest = op.moveTo === undefined ? source : target(s, op.moveTo, 'Move to path').file;
  const before = currentText(s, source, 'update');
  const fromDisk = !s.writes.has(source);
  const beforeData = editable(s, source, before, 'modified');
  if (dest !== source) {
    refuseDuplicate(s, dest);
    if (occupied(s, dest)) {
      throw new MemoryError('FILE_EXISTS', `${TOOL}: cannot move to existing memory file: ${dest}`, {
        data: { file: dest },
      });
    }
  }
  const patched = applyHunks(source, before, op.hunks);
  checkPatched(s, dest, patched, beforeData);
  // Hunks match normalised text; a file read from disk keeps its own line endings and BOM.
  const disk = fromDisk ? readDisk(s, source) : null;
  const after = disk === null ? patched : restyle(disk, patched);
  if (dest !== source) stageDelete(s, source);
  stageWrite(s, dest, after);
  s.paths.push(source, dest);
}

function planDelete(s: Staging, op: Extract<PatchOp, { type: 'delete' }>): void {
  const { file } = target(s, op.path, 'Delete File path');
  editable(s, file, currentText(s, file, 'delete'), 'deleted');
  stageDelete(s, file);
  s.paths.push(file);
}

/**
 * Parses and validates a patch against the current files and returns what to write and delete. With `within`
 * (`shared/<name>`: the patch was routed into that shared repository), every path must lie under it and the
 * plan's files are relative to it; paths are still read as the agent wrote them, from `memoryDir`.
 * Nothing is written; any failure throws a MemoryError (PATCH_INVALID, PATCH_MISMATCH, FILE_NOT_FOUND,
 * FILE_EXISTS, READ_ONLY, FRONTMATTER_INVALID, INVALID_PATH, PATH_ESCAPE, or the reader's NOT_UTF8).
 * @example
 *   const plan = planPatch(input, { read: (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null) },
 *     { memoryDir: dir });
 *   // plan.writes → write files; plan.deletes → unlink; plan.paths → stage and commit
 */
export function planPatch(
  input: string,
  fs: PatchFs,
  options: { memoryDir: string; layout?: LayoutRow; within?: string },
): PatchPlan {
  const ops = parsePatch(input);
  const s: Staging = {
    fs,
    memoryDir: options.memoryDir,
    layout: options.layout ?? LAYOUTS.system,
    within: options.within,
    disk: new Map(),
    writes: new Map(),
    deletes: new Set(),
    paths: [],
  };
  for (const op of ops) {
    if (op.type === 'add') planAdd(s, op);
    else if (op.type === 'update') planUpdate(s, op);
    else planDelete(s, op);
  }
  return {
    writes: [...s.writes].map(([file, content]) => ({ file, content })),
    deletes: [...s.deletes].filter((file) => readDisk(s, file) !== null),
    paths: [...new Set(s.paths)],
  };
}
