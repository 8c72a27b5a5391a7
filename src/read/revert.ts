/**
 * `memory.revert(sha, { reason })`: one new commit that undoes one commit's change, through the same write
 * path and validator as every write (memfs/tool.ts writeUnderLease). Per file the commit changed: HEAD
 * still has the commit's version → the parent's comes back (a file it added is deleted, one it deleted is
 * restored); HEAD has the parent's → nothing to undo; otherwise the reverse change is merged three-way into
 * HEAD's version, and anything that does not apply cleanly refuses the whole revert with REVERT_CONFLICT
 * naming the files (nothing is written). A merge commit is reverted against its first parent: what it
 * brought to main goes. A restored file comes back as a regular file (mode 100644).
 */
import { MemoryError } from '../errors.js';
import { rawDiffOp, type RawDiffEntry } from '../git/commands/diff-raw.js';
import { commitOf } from '../git/committed-read.js';
import { writeUnderLease, type WriteDeps, type WriteResult } from '../memfs/tool.js';
import type { FileEdit } from '../memfs/edits.js';
import type { RepoFs } from '../memfs/repo-fs.js';
import { commitAt, readObjects } from './at.js';
import { EMPTY_TREE } from './diff.js';
import { mergeThreeWay } from './three-way.js';

export interface RevertResult extends WriteResult {
  /** The commit whose change was undone. */
  reverted: string;
}

/** One file's planned content: bytes, or null to delete; `head` is what HEAD had (null = absent). */
interface PlannedFile {
  path: string;
  head: Buffer | null;
  after: Buffer | null;
}

const REGULAR = new Set(['100644', '100755']);
const ZERO = /^0+$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Raised by the planner when the work tree is not the HEAD the plan was made against: plan again. */
class HeadMoved extends Error {}

function asText(b: Buffer | null): string | Buffer | null {
  if (b === null) return null;
  try {
    return utf8.decode(b);
  } catch {
    return b;
  }
}

async function planFile(
  deps: WriteDeps,
  e: RawDiffEntry,
  head: { id: string; data: Buffer } | null,
  blobs: ReadonlyMap<string, Buffer>,
): Promise<PlannedFile | 'same' | string> {
  if (![e.oldMode, e.newMode].every((m) => REGULAR.has(m) || ZERO.test(m)))
    return 'is not a regular file in the commit';
  const [oldId, newId, headId] = [
    ZERO.test(e.oldId) ? null : e.oldId,
    ZERO.test(e.newId) ? null : e.newId,
    head?.id ?? null,
  ];
  if (headId === oldId) return 'same';
  const oldData = oldId === null ? null : (blobs.get(oldId) ?? Buffer.alloc(0));
  if (headId === newId) return { path: e.path, head: head ? head.data : null, after: oldData };
  if (head === null) return 'was deleted since';
  if (oldData === null || newId === null) return 'was changed since';
  const merged = await mergeThreeWay(
    deps.git,
    deps.memoryDir,
    head.data,
    blobs.get(newId) ?? Buffer.alloc(0),
    oldData,
    e.path,
  );
  return merged === null
    ? 'was changed since and the change does not apply cleanly'
    : { path: e.path, head: head.data, after: merged };
}

/** The planned files of reverting `target` (against `base`) onto `head`; REVERT_CONFLICT when any file refuses. */
async function planRevert(deps: WriteDeps, target: string, base: string, head: string): Promise<PlannedFile[]> {
  const changes = await deps.git.exec(rawDiffOp('diff-tree', ['-r', '--no-renames', base, target]), {
    cwd: deps.memoryDir,
  });
  const heads = await readObjects(
    deps,
    changes.map((e) => `${head}:${e.path}`),
  );
  const ids = [...new Set(changes.flatMap((e) => [e.oldId, e.newId]).filter((id) => !ZERO.test(id)))];
  const blobs = new Map((await readObjects(deps, ids)).map((o, i) => [ids[i] as string, Buffer.from(o?.data ?? [])]));
  const planned: PlannedFile[] = [];
  const conflicts: Array<{ path: string; why: string }> = [];
  for (const [i, e] of changes.entries()) {
    const h = heads[i];
    const r = await planFile(deps, e, h?.type === 'blob' ? { id: h.id, data: Buffer.from(h.data) } : null, blobs);
    if (typeof r === 'string' && r !== 'same') conflicts.push({ path: e.path, why: r });
    else if (typeof r !== 'string') planned.push(r);
  }
  if (conflicts.length > 0) {
    const list = conflicts.map((c) => `${c.path} ${c.why}`).join('; ');
    throw new MemoryError('REVERT_CONFLICT', `revert ${target.slice(0, 7)}: does not apply cleanly to HEAD: ${list}`, {
      data: { commit: target, paths: conflicts.map((c) => c.path), conflicts },
    });
  }
  if (planned.length === 0)
    throw new MemoryError(
      'NO_CHANGES',
      `revert ${target.slice(0, 7)}: HEAD already has none of its change; nothing was committed`,
      { data: { commit: target } },
    );
  return planned;
}

/** FileEdits of the plan, checked against the call's view of the (clean) work tree. */
function editsFrom(planned: readonly PlannedFile[], fs: RepoFs): FileEdit[] {
  return planned.map((p) => {
    const current = fs.readFile(p.path);
    const same = current === null ? p.head === null : p.head !== null && current.equals(p.head);
    if (!same) throw new HeadMoved(p.path);
    return { file: p.path, before: asText(current), after: asText(p.after) };
  });
}

/**
 * Reverts one commit as a new commit whose message is `reason` (plus a `Reverts: <sha>` trailer).
 * @example await revertCommit(deps, 'e6a8099', { reason: 'that preference was wrong' })
 */
export async function revertCommit(deps: WriteDeps, sha: string, options: { reason: string }): Promise<RevertResult> {
  const reason = options?.reason;
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new MemoryError('INVALID_ARGUMENT', "revert: 'reason' must be a non-empty string", {
      data: { field: 'reason' },
    });
  if (typeof sha !== 'string')
    throw new MemoryError('INVALID_ARGUMENT', 'revert: the commit must be a string (a sha or revision)', {
      data: { field: 'sha' },
    });
  const target = await commitAt(deps, sha);
  const parent = await commitOf(deps.git, deps.memoryDir, `${target}^1`);
  const base = parent ?? (EMPTY_TREE[target.length] as string);
  const message = `${reason.trim()}\n\nReverts: ${target}`;
  for (let attempt = 0; ; attempt++) {
    const head = await commitAt(deps, undefined);
    const planned = await planRevert(deps, target, base, head);
    try {
      const r = await writeUnderLease(deps, 'Memory revert', message, (fs) => editsFrom(planned, fs));
      return { ...r, reverted: target };
    } catch (err) {
      if (!(err instanceof HeadMoved) || attempt >= 2)
        throw err instanceof HeadMoved
          ? new MemoryError('REPO_CONFLICT', 'revert: HEAD kept moving while the revert was planned; try again')
          : err;
    }
  }
}
