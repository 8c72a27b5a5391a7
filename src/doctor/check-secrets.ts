/**
 * Secrets anywhere in history: every blob reachable from any ref (main, kept branches, proposals, backups)
 * and every commit message, through the one scanner (blocks/secrets.ts) with the operator's allow list.
 * Findings name path, blob, rule, line and fingerprint — never the value. Not repaired: rewriting history
 * is the owner's decision (and the credential must be rotated anyway).
 */
import { scanText } from '../blocks/secrets.js';
import { catFileBatchRawOp } from '../git/commands/plumbing.js';
import { readAllowedSecrets } from '../hooks/secret-allow.js';
import { capped, ok, problem, type DoctorCheck, type DoctorContext } from './types.js';

/** Larger blobs are not memory text; they are named, not scanned. */
const MAX_SCAN_BYTES = 4 * 1024 * 1024;
const BATCH = 2_000;

async function reachableBlobs(ctx: DoctorContext): Promise<Array<{ id: string; path: string }>> {
  const r = await ctx.git.run(['rev-list', '--objects', '--all', '--filter=object:type=blob'], {
    cwd: ctx.memoryDir,
    okExitCodes: [128],
  });
  if (r.exitCode !== 0) return [];
  const seen = new Set<string>();
  const out: Array<{ id: string; path: string }> = [];
  for (const line of r.stdout.split('\n')) {
    const [id = '', ...rest] = line.split(' ');
    if (rest.length === 0 || seen.has(id)) continue; // commits and trees have no path here
    seen.add(id);
    out.push({ id, path: rest.join(' ') });
  }
  return out;
}

async function scanBlobs(
  ctx: DoctorContext,
  allowed: ReadonlySet<string>,
): Promise<{ found: string[]; blobs: number }> {
  const blobs = await reachableBlobs(ctx);
  const found: string[] = [];
  for (let i = 0; i < blobs.length; i += BATCH) {
    const part = blobs.slice(i, i + BATCH);
    const objects = await ctx.git.exec(catFileBatchRawOp(part.map((b) => b.id)), { cwd: ctx.memoryDir });
    objects.forEach((o, j) => {
      const b = part[j];
      if (o === null || b === undefined || o.type !== 'blob' || o.data.length > MAX_SCAN_BYTES || o.data.includes(0))
        return;
      for (const f of scanText(o.data.toString('utf8'), { allowed }))
        found.push(
          `${b.path} (blob ${b.id.slice(0, 12)}):${f.line}: ${f.rule} ${f.preview} (fingerprint ${f.fingerprint})`,
        );
    });
  }
  return { found, blobs: blobs.length };
}

async function scanMessages(ctx: DoctorContext, allowed: ReadonlySet<string>): Promise<string[]> {
  if (ctx.head === null) return [];
  const r = await ctx.git.run(['log', '--all', '--format=%H%x00%B%x00'], { cwd: ctx.memoryDir });
  const parts = r.stdout.split('\0');
  const found: string[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const sha = (parts[i] ?? '').trim();
    for (const f of scanText(parts[i + 1] ?? '', { allowed }))
      found.push(`commit ${sha.slice(0, 12)} message:${f.line}: ${f.rule} ${f.preview} (fingerprint ${f.fingerprint})`);
  }
  return found;
}

export const secretsCheck: DoctorCheck = {
  title: 'secrets anywhere in history',
  async run(ctx) {
    const allowed = readAllowedSecrets(ctx.memoryDir);
    const { found, blobs } = await scanBlobs(ctx, allowed);
    found.push(...(await scanMessages(ctx, allowed)));
    if (found.length === 0) return ok(`none in ${blobs} blob(s) and the commit messages of every ref`);
    return problem(
      `${found.length} credential(s) in history: rotate them, then rewrite history or allow false positives (gitmem secrets allow)`,
      capped(found),
    );
  },
};
