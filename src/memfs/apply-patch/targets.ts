/**
 * The files a `memory_apply_patch` input names (each Add, Update, Move to and Delete path), normalised as the
 * plan normalises them, without reading anything: what routing (a shared repository's `shared/<name>/…`) and a
 * scoped clone's guard look at before the patch is planned. A path the plan would refuse is left out; the plan
 * refuses it in its own words.
 */
import { normalizeMemoryPath } from '../paths.js';
import { parsePatch } from './parse.js';

/** One path of a patch: as written, and as the repo-relative file it names. */
export interface PatchTarget {
  raw: string;
  file: string;
}

/**
 * The patch's targets; throws the parser's PATCH_INVALID for a malformed patch.
 * @example patchTargets('*** Begin Patch\n*** Delete File: notes/a.md\n*** End Patch', dir) // [{ raw: 'notes/a.md', file: 'notes/a.md' }]
 */
export function patchTargets(input: string, memoryDir: string): PatchTarget[] {
  const out: PatchTarget[] = [];
  for (const op of parsePatch(input)) {
    const raws = op.type === 'update' && op.moveTo !== undefined ? [op.path, op.moveTo] : [op.path];
    for (const raw of raws) {
      try {
        out.push({ raw, file: normalizeMemoryPath(raw, { memoryDir, field: 'path' }).file });
      } catch {
        continue; // planned later, and refused there
      }
    }
  }
  return out;
}
