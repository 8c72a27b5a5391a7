/**
 * memory_apply_patch as a write: validate the call, plan the patch against the clean work tree (read
 * through the call's race-safe RepoFs: no link is followed), and commit every file it touches in one commit.
 */
import { MemoryError } from '../../errors.js';
import { resolveGitCommonDir } from '../../git/common-dir.js';
import { readLayoutAt } from '../../hooks/layout-config.js';
import { linkRefusal } from '../fs-errors.js';
import { checkText, TOOL_LIMITS } from '../limits.js';
import { refuseUndeclared } from '../tool-args.js';
import { applyPatchToolSchema } from '../tool-schema.js';
import { decodeMemoryText } from '../read-text.js';
import type { RepoFs } from '../repo-fs.js';
import { withSyncNote } from '../sync-note.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from '../tool.js';
import { planPatch, type PatchFs } from './plan.js';
import { patchTargets } from './targets.js';
import { refuseFilesOutsideScope } from '../scope-guard.js';

function patchFs(fs: RepoFs): PatchFs {
  return {
    read: (file) => {
      if (fs.info(file)?.kind === 'link') throw linkRefusal(file);
      const bytes = fs.readFile(file);
      return bytes === null ? null : decodeMemoryText(bytes, file);
    },
  };
}

/** The schema's keys, and `patch`: the library's alias of `input`. */
const DECLARED = [...Object.keys(applyPatchToolSchema.properties), 'patch'];

/** The call's `{ input, reason }`, checked (`patch` is the library's alias of `input`). */
function patchCall(call: unknown): { input: string; reason: string } {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) {
    throw new MemoryError('INVALID_ARGUMENT', 'memory_apply_patch: the call must be an object with reason and input');
  }
  const args = call as Record<string, unknown>;
  refuseUndeclared('memory_apply_patch', DECLARED, args);
  if (args['input'] !== undefined && args['patch'] !== undefined) {
    throw new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: give 'input' or its alias 'patch', not both", {
      data: { field: 'patch' },
    });
  }
  const input = args['input'] ?? args['patch'];
  const reason = args['reason'];
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: 'reason' must be a non-empty string", {
      data: { field: 'reason' },
    });
  }
  if (typeof input !== 'string' || input.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: 'input' must be a non-empty string", {
      data: { field: 'input' },
    });
  }
  checkText('memory_apply_patch', 'reason', reason, TOOL_LIMITS.reasonChars);
  checkText('memory_apply_patch', 'input', input, TOOL_LIMITS.patchChars);
  return { input, reason: reason.trim() };
}

/**
 * A patch routed into another repository than the one `deps` names by path: the agent wrote its paths from
 * `memoryDir` (its own memory), all under `within` (`shared/<name>`), and they land in `deps.memoryDir`.
 */
export interface PatchRoute {
  memoryDir: string;
  within: string;
}

/**
 * Runs a memory_apply_patch call `{ reason, input }` (`patch` is accepted as an alias of `input`). A scoped
 * clone refuses a patch that touches a file outside its scope before anything is read.
 * @example await runApplyPatch(deps, { reason: 'split notes', input: '*** Begin Patch\n…\n*** End Patch' })
 */
export async function runApplyPatch(deps: WriteDeps, call: unknown, route?: PatchRoute): Promise<WriteResult> {
  const { input, reason } = patchCall(call);
  if (route === undefined) refuseFilesOutsideScope(deps.memoryDir, patchTargets(input, deps.memoryDir));
  const result = await writeUnderLease(deps, 'memory_apply_patch', reason, (fs) => {
    const read = patchFs(fs);
    // The layout decides which paths are memory files (the index layout's MEMORY.md is plain), as the memory tool.
    const layout = readLayoutAt(deps.gitDirs?.commonDir ?? resolveGitCommonDir(deps.memoryDir));
    const plan = planPatch(input, read, {
      memoryDir: route?.memoryDir ?? deps.memoryDir,
      layout,
      within: route?.within,
    });
    const before = new Map<string, string | null>();
    for (const f of [...plan.writes.map((w) => w.file), ...plan.deletes]) before.set(f, read.read(f));
    return [
      ...plan.deletes.map((file) => ({ file, before: before.get(file) ?? null, after: null })),
      ...plan.writes.map((w) => ({ file: w.file, before: before.get(w.file) ?? null, after: w.content })),
    ];
  });
  return withSyncNote(deps.hasRemote, result);
}
