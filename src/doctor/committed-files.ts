/**
 * HEAD's files with their bytes, read once per doctor run (ls-tree + one cat-file --batch) and shared by the
 * checks that look at content (format, budgets, links, duplicates).
 */
import { catFileBatchRawOp, lsTreeOp } from '../git/commands/plumbing.js';
import type { DoctorContext } from './types.js';

export interface CommittedFile {
  path: string;
  mode: string;
  data: Buffer;
}

const cache = new WeakMap<DoctorContext, Promise<CommittedFile[]>>();

async function read(ctx: DoctorContext): Promise<CommittedFile[]> {
  if (ctx.head === null) return [];
  const entries = (await ctx.git.exec(lsTreeOp(ctx.head), { cwd: ctx.memoryDir })).filter((e) => e.type === 'blob');
  if (entries.length === 0) return [];
  const objects = await ctx.git.exec(catFileBatchRawOp(entries.map((e) => e.id)), { cwd: ctx.memoryDir });
  return entries.map((e, i) => ({ path: e.path, mode: e.mode, data: objects[i]?.data ?? Buffer.alloc(0) }));
}

/**
 * The committed files at HEAD (cached per context).
 * @example for (const f of await committedFiles(ctx)) f.path
 */
export function committedFiles(ctx: DoctorContext): Promise<CommittedFile[]> {
  let p = cache.get(ctx);
  if (p === undefined) {
    p = read(ctx);
    cache.set(ctx, p);
  }
  return p;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a file, or null when it is not UTF-8. */
export function textOf(f: CommittedFile): string | null {
  try {
    return UTF8.decode(f.data);
  } catch {
    return null;
  }
}
