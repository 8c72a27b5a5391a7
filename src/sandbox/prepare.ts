/**
 * The I/O step between a pure policy and a backend: resolves every root through symbolic links (kernel
 * rules match real paths) while remembering the links on the way (a sandbox with an allow-listed view must
 * recreate `/bin -> usr/bin` or a linked home, or those spellings would not exist inside), refuses to start
 * when a re-opened root is missing, creates missing writable roots, and drops denied roots that do not exist
 * (nothing to hide, and bwrap could not mount over them).
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { MemoryError } from '../errors.js';
import { depth, hasAncestorIn, isWithin, normalizePolicy, type SandboxPolicy } from './policy.js';

/** A symbolic link to recreate inside the sandbox: `path` pointing to `target` (verbatim). */
export interface SandboxLink {
  path: string;
  target: string;
}

/** A policy ready to render, plus what the backends need to know about the disk. */
export interface PreparedPolicy {
  policy: SandboxPolicy;
  /** Read-only carve-outs that do not exist: rendered as empty read-only directories. */
  absentReadonly: string[];
  /** Links met while resolving the visible roots, outside every visible root (bwrap recreates them). */
  links: SandboxLink[];
  /** Denied roots that are files (bwrap covers them with an empty device instead of a tmpfs). */
  deniedFiles: string[];
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

/** What one lstat said about a path: a link (and its target), a directory, something else, nothing, or an error. */
type Entry = { kind: 'link'; target: string } | { kind: 'dir' | 'other' | 'absent' | 'unknown' };

const [DIR, OTHER, ABSENT, UNKNOWN]: Entry[] = [
  { kind: 'dir' },
  { kind: 'other' },
  { kind: 'absent' },
  { kind: 'unknown' },
];

function entryAt(path: string): Entry {
  try {
    // (no exception for a missing path: most system roots and secrets are absent on any one host)
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return ABSENT as Entry;
    return st.isSymbolicLink()
      ? { kind: 'link', target: readlinkSync(path) }
      : ((st.isDirectory() ? DIR : OTHER) as Entry);
  } catch {
    return UNKNOWN as Entry; // walked past as a plain component; whether anything is there is asked again
  }
}

/** The link target an entry names, if it is a link. */
function linkTarget(e: Entry): string | undefined {
  return e.kind === 'link' ? e.target : undefined;
}

/**
 * Walks `path` component by component, following links (at most 40 hops, like the kernel) and recording
 * each one met, then appends what does not exist unchanged.
 * @example resolveWithLinks('/bin/sh') // { real: '/usr/bin/sh', links: [{ path: '/bin', target: 'usr/bin' }] } on merged /usr
 */
export function resolveWithLinks(
  path: string,
  seen: Map<string, Entry> = new Map(),
): { real: string; links: SandboxLink[] } {
  const links: SandboxLink[] = [];
  let done: string = sep;
  let rest = path.split(sep).filter(Boolean);
  for (let hops = 0; rest.length > 0;) {
    const next = join(done, rest[0] as string);
    const target = hops < 40 ? linkTarget(memo(seen, next, entryAt)) : undefined;
    if (target === undefined) {
      done = next;
      rest = rest.slice(1);
      continue;
    }
    hops++;
    links.push({ path: next, target });
    const resolved = isAbsolute(target) ? resolve(target) : resolve(done, target);
    done = sep;
    rest = [...resolved.split(sep).filter(Boolean), ...rest.slice(1)];
  }
  return { real: done, links };
}

/** `f(path)`, asked once per path within one preparation (roots share most of their components). */
function memo<T>(seen: Map<string, T>, path: string, f: (path: string) => T): T {
  if (seen.has(path)) return seen.get(path) as T;
  const v = f(path);
  seen.set(path, v);
  return v;
}

function missingReopened(path: string, policy: SandboxPolicy): MemoryError {
  const top = !policy.reopenedRoots.some((r) => r.path !== path && isWithin(r.path, path));
  const what = top ? 'the memory directory or worktrees directory' : 'a required part of the memory repository';
  return new MemoryError('MEMORY_DIR_MISSING', `cannot start the sandboxed writer: ${path} does not exist (${what})`, {
    data: { path },
  });
}

function isFile(path: string): boolean {
  const st = statSync(path, { throwIfNoEntry: false });
  return st !== undefined && !st.isDirectory();
}

/** Links that are not visible anyway (inside a visible root, where the real one shows). */
function hiddenLinks(links: SandboxLink[], p: SandboxPolicy): SandboxLink[] {
  const visible = new Set([...p.readonlyRoots, ...p.writableRoots, ...p.reopenedRoots.map((r) => r.path)]);
  const seen = new Map<string, SandboxLink>();
  for (const l of links) if (!hasAncestorIn(l.path, visible)) seen.set(l.path, l);
  return [...seen.values()].sort((a, b) => depth(a.path) - depth(b.path));
}

/**
 * Canonicalises and checks `policy` on disk. Throws MEMORY_DIR_MISSING when a re-opened root is absent,
 * unless it is read-only and sits inside an existing writable re-opened root (then it is listed in
 * `absentReadonly` so the backend can pin it as an empty read-only directory).
 * @example preparePolicy(buildMemoryWriterPolicy({...})).policy.deniedRoots // ['/real/home']
 */
export function preparePolicy(input: SandboxPolicy): PreparedPolicy {
  const base = normalizePolicy(input);
  const links: SandboxLink[] = [];
  const [linksSeen, existing] = [new Map<string, Entry>(), new Map<string, boolean>()];
  const exists = (path: string): boolean => memo(existing, path, existsSync);
  // A resolved root's last component was just lstat'ed on the way: a directory or file is there, or nothing is.
  const resolvedExists = (path: string): boolean => {
    const kind = linksSeen.get(path)?.kind;
    return kind === 'dir' || kind === 'other' ? true : kind === 'absent' ? false : exists(path);
  };
  const real = (path: string): string => {
    const r = resolveWithLinks(path, linksSeen);
    links.push(...r.links);
    return r.real;
  };
  const policy = normalizePolicy({
    ...base,
    readonlyRoots: base.readonlyRoots.map(real).filter(resolvedExists),
    writableRoots: base.writableRoots.map(real),
    deniedRoots: base.deniedRoots.filter(exists).map(canonicalPath),
    reopenedRoots: base.reopenedRoots.map((r) => ({ ...r, path: real(r.path) })),
    ...(base.emptyHome !== undefined ? { emptyHome: canonicalPath(base.emptyHome) } : {}),
    // (their real path, without recreating the links on the way: a moved root is seen at its new place only)
    ...(base.movedRoots ? { movedRoots: base.movedRoots.map((m) => ({ ...m, path: canonicalPath(m.path) })) } : {}),
  });
  for (const r of policy.reopenedRoots) if (r.create === true) mkdirSync(r.path, { recursive: true });
  const absentReadonly = absentReopened(policy);
  for (const root of policy.writableRoots) mkdirSync(root, { recursive: true });
  return { policy, absentReadonly, links: hiddenLinks(links, policy), deniedFiles: policy.deniedRoots.filter(isFile) };
}

/**
 * The re-opened roots that do not exist but may be pinned as empty read-only directories (inside an existing
 * writable one); throws MEMORY_DIR_MISSING for any other missing one. Roots to be created are not asked about.
 * @example absentReopened(normalizePolicy(p)) // [] when every re-opened root exists
 */
export function absentReopened(policy: SandboxPolicy): string[] {
  const absent: string[] = [];
  for (const r of [...policy.reopenedRoots].sort((a, b) => depth(a.path) - depth(b.path))) {
    if (r.create === true || existsSync(r.path)) continue;
    const holder = policy.reopenedRoots.find(
      (h) => h.writable && h.path !== r.path && isWithin(h.path, r.path) && existsSync(h.path),
    );
    if (r.writable || !holder) throw missingReopened(r.path, policy);
    absent.push(r.path);
  }
  return absent;
}
