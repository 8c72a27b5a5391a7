/**
 * memory_apply_patch as a write: validate the call, plan the patch against the clean work tree, and
 * commit every file it touches in one commit.
 */
import { join } from 'node:path';
import { MemoryError } from '../../errors.js';
import { assertInsideRepo } from '../paths.js';
import { readMemoryText } from '../read-text.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from '../tool.js';
import { planPatch } from './plan.js';

/**
 * Runs a memory_apply_patch call `{ reason, input }` (`patch` is accepted as an alias of `input`).
 * @example await runApplyPatch(deps, { reason: 'split notes', input: '*** Begin Patch\n…\n*** End Patch' })
 */
export async function runApplyPatch(deps: WriteDeps, call: unknown): Promise<WriteResult> {
  if (typeof call !== 'object' || call === null) {
    throw new MemoryError('INVALID_ARGUMENT', 'memory_apply_patch: the call must be an object with reason and input');
  }
  const args = call as Record<string, unknown>;
  const input = args['input'] ?? args['patch'];
  const reason = args['reason'];
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: 'reason' must be a non-empty string", { data: { field: 'reason' } });
  }
  if (typeof input !== 'string' || input.trim() === '') {
    throw new MemoryError('INVALID_ARGUMENT', "memory_apply_patch: 'input' must be a non-empty string", { data: { field: 'input' } });
  }
  const fs = { read: (file: string) => readMemoryText(join(deps.memoryDir, file), file) };
  return writeUnderLease(deps, 'memory_apply_patch', reason.trim(), () => {
    const plan = planPatch(input, fs, { memoryDir: deps.memoryDir });
    const before = new Map<string, string | null>();
    for (const f of [...plan.writes.map((w) => w.file), ...plan.deletes]) {
      assertInsideRepo(deps.memoryDir, f, 'path', 'memory_apply_patch');
      before.set(f, fs.read(f));
    }
    return [
      ...plan.deletes.map((file) => ({ file, before: before.get(file) ?? null, after: null })),
      ...plan.writes.map((w) => ({ file: w.file, before: before.get(w.file) ?? null, after: w.content })),
    ];
  });
}
