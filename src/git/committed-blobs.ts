/**
 * The blob side of git/committed-read.ts: which of many ids are loose (one readdir per fan-out directory), and
 * the blobs git must give, in sized batches that skip those over a limit unread. Apart because it is one
 * concern, bounding what a read of blobs costs; readCommittedBlobs in committed-read.ts stays the one entry.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { catFileBatchRawOp } from './commands/plumbing.js';
import type { GitOp, GitRunner } from './runner.js';

// Past this many ids, the loose ones are found by listing the fan-out directories (256 readdirs) instead of
// failing one open per packed object.
const PROBE_EACH_UP_TO = 256;

/** The ids stored loose among `ids`, or undefined to try each (few ids). */
export function looseAmong(objectsDir: string, ids: readonly string[]): Set<string> | undefined {
  if (ids.length <= PROBE_EACH_UP_TO) return undefined;
  const loose = new Set<string>();
  for (const fan of new Set(ids.map((id) => id.slice(0, 2)))) {
    try {
      for (const name of readdirSync(join(objectsDir, fan))) loose.add(fan + name);
    } catch {
      // no such fan-out directory (or removed by a concurrent gc): its objects are packed
    }
  }
  return loose;
}

/** `cat-file --batch-check`: each object's size (-1 when missing). */
function sizesOp(ids: readonly string[]): GitOp<number[]> {
  return {
    args: ['cat-file', '--batch-check'],
    input: ids.map((id) => `${id}\n`).join(''),
    parse: (r) =>
      r.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => (l.endsWith(' missing') ? -1 : Number(l.split(' ')[2]))),
  };
}

// One cat-file call reads at most this much (the runner's output cap is far above it).
const BATCH_BYTES = 24 * 1024 * 1024;

/** What a read of blobs may skip: blobs over `maxBytes` (their sizes from `sizes` when known, else asked). */
export interface BlobLimits {
  maxBytes: number;
  sizes?: ReadonlyMap<string, number> | undefined;
}

/** The blobs among `ids` from git: one `cat-file --batch`, or sized batches skipping large blobs unread. */
export async function blobsFromGit(
  git: GitRunner,
  memoryDir: string,
  ids: readonly string[],
  limits: BlobLimits | undefined,
  out: Map<string, Buffer>,
): Promise<void> {
  let wanted: string[][] = [[...ids]];
  if (limits) {
    const unsized = ids.filter((id) => !limits.sizes?.has(id));
    const checked = unsized.length > 0 ? await git.exec(sizesOp(unsized), { cwd: memoryDir }) : [];
    const sizes = new Map(unsized.map((id, i): [string, number] => [id, checked[i] ?? -1]));
    wanted = [[]];
    let bytes = 0;
    for (const id of ids) {
      const size = limits.sizes?.get(id) ?? sizes.get(id) ?? -1;
      if (size < 0 || size > limits.maxBytes) continue;
      if (bytes + size > BATCH_BYTES && (wanted.at(-1)?.length ?? 0) > 0) [wanted, bytes] = [[...wanted, []], 0];
      wanted.at(-1)?.push(id);
      bytes += size;
    }
  }
  for (const batch of wanted) {
    if (batch.length === 0) continue;
    const objects = await git.exec(catFileBatchRawOp(batch), { cwd: memoryDir });
    batch.forEach((id, i) => {
      const o = objects[i];
      if (o?.type === 'blob') out.set(id, o.data);
    });
  }
}
