/**
 * The I/O step between a pure policy and a backend: resolves every root through symbolic links (kernel
 * rules match real paths), refuses to start when a re-opened root is missing, creates missing writable
 * roots, and drops denied roots that do not exist (nothing to hide, and bwrap could not mount over them).
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MemoryError } from '../errors.js';
import { depth, isWithin, normalizePolicy, type SandboxPolicy } from './policy.js';

/** A policy ready to render, plus the read-only carve-outs that must be rendered as empty directories. */
export interface PreparedPolicy {
  policy: SandboxPolicy;
  absentReadonly: string[];
}

/**
 * Resolves symbolic links in the existing part of `path` and appends the missing tail unchanged.
 * @example canonicalPath('/tmp/x/new') // '/private/tmp/x/new' on macOS
 */
export function canonicalPath(path: string): string {
  const tail: string[] = [];
  let probe = path;
  for (;;) {
    try {
      return join(realpathSync(probe), ...tail);
    } catch {
      const parent = dirname(probe);
      if (parent === probe) return path;
      tail.unshift(basename(probe));
      probe = parent;
    }
  }
}

function missingReopened(path: string, policy: SandboxPolicy): MemoryError {
  const top = !policy.reopenedRoots.some((r) => r.path !== path && isWithin(r.path, path));
  const what = top ? 'the memory directory or worktrees directory' : 'a required part of the memory repository';
  return new MemoryError('MEMORY_DIR_MISSING', `cannot start the sandboxed writer: ${path} does not exist (${what})`, {
    data: { path },
  });
}

/**
 * Canonicalises and checks `policy` on disk. Throws MEMORY_DIR_MISSING when a re-opened root is absent,
 * unless it is read-only and sits inside an existing writable re-opened root (then it is listed in
 * `absentReadonly` so the backend can pin it as an empty read-only directory).
 * @example preparePolicy(buildMemoryWriterPolicy({...})).policy.deniedRoots // ['/real/home/agents']
 */
export function preparePolicy(input: SandboxPolicy): PreparedPolicy {
  const base = normalizePolicy(input);
  const policy = normalizePolicy({
    ...base,
    readonlyRoots: base.readonlyRoots.map(canonicalPath),
    writableRoots: base.writableRoots.map(canonicalPath),
    deniedRoots: base.deniedRoots.map(canonicalPath).filter((p) => existsSync(p)),
    reopenedRoots: base.reopenedRoots.map((r) => ({ path: canonicalPath(r.path), writable: r.writable })),
  });
  const absentReadonly: string[] = [];
  for (const r of [...policy.reopenedRoots].sort((a, b) => depth(a.path) - depth(b.path))) {
    if (existsSync(r.path)) continue;
    const holder = policy.reopenedRoots.find((h) => h.writable && h.path !== r.path && isWithin(h.path, r.path) && existsSync(h.path));
    if (r.writable || !holder) throw missingReopened(r.path, policy);
    absentReadonly.push(r.path);
  }
  for (const root of policy.writableRoots) mkdirSync(root, { recursive: true });
  return { policy, absentReadonly };
}
