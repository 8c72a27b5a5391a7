/**
 * `gitmem palace --export FILE.html`: one self-contained page for sharing or offline review — HEAD's
 * files (each up to 1 MiB, 32 MiB in all), up to 500 commits, the diffs of the 50 newest (each at most
 * 100 KB, 5 MB in all), kept branches, reflection runs and cursors, sync state. Written to a private temp
 * file (mode 0600) beside the target and renamed over it, so a reader never sees half a file and a link at
 * the target is replaced, not followed.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync, constants as fsc } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MemoryError } from '../index.js';
import { handleGit, readCommittedSnapshot, tryParseMemoryFile } from '../internals.js';
import { reflection, sync } from './api/activity.js';
import { conflicts } from './api/conflicts.js';
import { summary } from './api/reads.js';
import type { ApiRequest } from './api/request.js';
import type { DiffReply, ExportSnapshot } from './api-types.js';
import type { AgentView, PalaceHub } from './hub.js';
import { exportPage, pageAssets } from './page.js';

export const EXPORT_LIMITS = {
  commits: 500,
  diffs: 50,
  diffBytes: 100 * 1024,
  totalDiffBytes: 5 * 1024 * 1024,
  fileBytes: 1024 * 1024,
  totalFileBytes: 32 * 1024 * 1024,
};

async function exportFiles(view: AgentView): Promise<ExportSnapshot['files']> {
  const memory = view.memory;
  const [{ files }, snap] = await Promise.all([
    memory.files(),
    readCommittedSnapshot(handleGit(memory), memory.memoryDir),
  ]);
  let budget = EXPORT_LIMITS.totalFileBytes;
  const out: ExportSnapshot['files'] = [];
  for (const f of files) {
    const entry = { path: f.path, size: f.size, ...(f.description ? { description: f.description } : {}) };
    if (f.size > EXPORT_LIMITS.fileBytes || f.size > budget) {
      out.push({
        ...entry,
        omitted: f.size > EXPORT_LIMITS.fileBytes ? 'larger than 1 MiB' : 'past the export size budget',
      });
      continue;
    }
    const text = snap.markdown.get(f.path) ?? (await memory.read(f.path)).text;
    budget -= f.size;
    const parsed = f.path.endsWith('.md') ? tryParseMemoryFile(text) : null;
    out.push({ ...entry, text, frontmatter: parsed?.data ?? null, body: parsed ? parsed.body : text });
  }
  return out;
}

async function exportDiffs(view: AgentView, shas: readonly string[]): Promise<Record<string, DiffReply>> {
  const diffs: Record<string, DiffReply> = {};
  let budget = EXPORT_LIMITS.totalDiffBytes;
  for (const sha of shas.slice(0, EXPORT_LIMITS.diffs)) {
    if (budget <= 0) break;
    const d = await view.memory.diff({ to: sha, maxBytes: Math.min(EXPORT_LIMITS.diffBytes, budget) });
    budget -= Buffer.byteLength(d.text);
    diffs[sha] = d;
  }
  return diffs;
}

/**
 * Everything the exported page shows, read through the Memory handle.
 * @example const snap = await buildSnapshot(hub, 'ada')
 */
export async function buildSnapshot(
  hub: PalaceHub,
  agent: string,
  clock: () => Date = () => new Date(),
): Promise<ExportSnapshot> {
  const view = await hub.agent(agent);
  const req: ApiRequest = { hub, view, query: new URLSearchParams(), body: {} };
  const [head, commits] = await Promise.all([view.head(), view.memory.history({ limit: EXPORT_LIMITS.commits })]);
  const s = await summary(req);
  return {
    agent,
    exportedAt: clock().toISOString(),
    head,
    system: s.system,
    files: await exportFiles(view),
    commits,
    diffs: await exportDiffs(
      view,
      commits.map((c) => c.sha),
    ),
    conflicts: (await conflicts(req)).branches,
    reflection: await reflection(req),
    sync: await sync(req).catch(() => null),
    limits: {
      commits: EXPORT_LIMITS.commits,
      diffs: EXPORT_LIMITS.diffs,
      diffBytes: EXPORT_LIMITS.diffBytes,
      totalDiffBytes: EXPORT_LIMITS.totalDiffBytes,
    },
  };
}

/** Writes `text` to `target` with mode 0600, atomically (temp file in the same directory, then rename). */
export function writePrivateFile(target: string, text: string): void {
  const tmp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  let fd: number;
  try {
    fd = openSync(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, 0o600);
  } catch (err) {
    throw new MemoryError(
      'IO_ERROR',
      `cannot write the export next to ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      { data: { errno: (err as NodeJS.ErrnoException).code }, cause: err },
    );
  }
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, target);
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    throw new MemoryError(
      'IO_ERROR',
      `cannot write the export ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
      { data: { errno: (err as NodeJS.ErrnoException).code }, cause: err },
    );
  }
}

/**
 * Exports one agent's palace to `target`; returns the bytes written.
 * @example await exportPalace(hub, 'ada', '/tmp/ada.html')
 */
export async function exportPalace(
  hub: PalaceHub,
  agent: string,
  target: string,
): Promise<{ bytes: number; files: number; commits: number; diffs: number }> {
  const snapshot = await buildSnapshot(hub, agent);
  const text = exportPage(pageAssets(), snapshot);
  writePrivateFile(target, text);
  return {
    bytes: Buffer.byteLength(text),
    files: snapshot.files.length,
    commits: snapshot.commits.length,
    diffs: Object.keys(snapshot.diffs).length,
  };
}
