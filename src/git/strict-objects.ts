/**
 * Strict readers of commit and tree objects for the import of a confined writer's objects without git. They
 * accept a deliberately small subset of what `git fsck --strict` accepts (the shapes git itself writes for
 * plain ASCII memory files) and answer null for anything else: the caller then hands the objects to
 * `unpack-objects --strict`, which decides. So a null is never a refusal, and an accepted object is one git's
 * checks would accept too (test/integration/workers/strict-objects-fuzz.test.ts holds them side by side). Pure.
 */

/** One tree entry as read strictly: git's own mode spelling, an ASCII name, a SHA-1 id in hex. */
export interface StrictTreeEntry {
  mode: StrictMode;
  name: string;
  id: string;
}

/** The modes accepted: files, executables, symbolic links and trees (no gitlinks, no zero-padded spellings). */
export type StrictMode = '100644' | '100755' | '120000' | '40000';

const MODES: ReadonlySet<string> = new Set<StrictMode>(['100644', '100755', '120000', '40000']);
const ID_BYTES = 20;
const NULL_ID = '0'.repeat(40);
// What `git commit` writes: tree, parents, author, committer and nothing else (no signature, encoding, mergetag).
const IDENT = String.raw`[^<>\n]* <[^<>\n]*> (?:0|[1-9][0-9]{0,15}) [+-][0-9]{4}`;
const TREE_LINE = /^tree ([0-9a-f]{40})$/;
const PARENT_LINE = /^parent ([0-9a-f]{40})$/;
const AUTHOR_LINE = new RegExp(`^author ${IDENT}$`);
const COMMITTER_LINE = new RegExp(`^committer ${IDENT}$`);
const MAX_NAME_BYTES = 255;

/**
 * A commit's tree and parents when its header is exactly `tree`, `parent`*, `author`, `committer` with
 * well-formed identities and a blank line before the message; null otherwise.
 * @example parseStrictCommit(Buffer.from(`tree ${t}\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nmsg\n`))
 */
export function parseStrictCommit(body: Buffer): { tree: string; parents: string[] } | null {
  const end = body.indexOf('\n\n');
  if (end < 0) return null;
  const header = body.subarray(0, end);
  if (header.includes(0)) return null;
  const lines = header.toString('latin1').split('\n');
  const tree = TREE_LINE.exec(lines[0] ?? '')?.[1];
  if (tree === undefined || tree === NULL_ID) return null;
  const parents: string[] = [];
  let i = 1;
  for (let p = PARENT_LINE.exec(lines[i] ?? ''); p?.[1] !== undefined; p = PARENT_LINE.exec(lines[i] ?? '')) {
    if (p[1] === NULL_ID) return null;
    parents.push(p[1]);
    i++;
  }
  if (lines.length !== i + 2 || !AUTHOR_LINE.test(lines[i] ?? '') || !COMMITTER_LINE.test(lines[i + 1] ?? ''))
    return null;
  return { tree, parents };
}

/**
 * True for a name git's checks can never object to on any file system: printable ASCII without `/`, `\`,
 * `:` or `~` (NTFS short names and streams), not `.`/`..`, not starting with `.git` in any case (the
 * repository, .gitmodules, .gitattributes …), not ending in a dot or a space (names NTFS trims). `name` is
 * the raw bytes as latin1 (one character a byte).
 */
function plainName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_NAME_BYTES) return false;
  for (let k = 0; k < name.length; k++) {
    const c = name.charCodeAt(k);
    if (c < 0x20 || c > 0x7e || c === 0x2f || c === 0x5c || c === 0x3a || c === 0x7e) return false;
  }
  const last = name.charCodeAt(name.length - 1);
  if (last === 0x2e || last === 0x20) return false; // also rejects '.' and '..'
  return name.charCodeAt(0) !== 0x2e || name.slice(0, 4).toLowerCase() !== '.git';
}

/**
 * The entries of a tree whose every entry is in the accepted subset (mode, plain name, non-null id), in
 * strictly increasing git order with no name twice (a file and a tree of one name included); null otherwise.
 * An empty tree is accepted (git writes one for an empty commit).
 * @example parseStrictTree(treeBody) // [{ mode: '100644', name: 'a.md', id: '…' }] | null
 */
export function parseStrictTree(body: Buffer): StrictTreeEntry[] | null {
  const out: StrictTreeEntry[] = [];
  const names = new Set<string>();
  // git's order: bytes, a tree's name as if it ended in '/'; latin1 strings compare as their bytes do.
  let prevKey = '';
  for (let pos = 0; pos < body.length;) {
    const space = body.indexOf(0x20, pos);
    const nul = space < 0 ? -1 : body.indexOf(0, space);
    if (space < 0 || nul < 0 || nul + 1 + ID_BYTES > body.length) return null;
    const mode = body.toString('latin1', pos, space);
    const name = body.toString('latin1', space + 1, nul);
    const id = body.toString('hex', nul + 1, nul + 1 + ID_BYTES);
    if (!MODES.has(mode) || !plainName(name) || id === NULL_ID) return null;
    const key = mode === '40000' ? `${name}/` : name;
    if ((out.length > 0 && prevKey >= key) || names.has(name)) return null;
    names.add(name);
    prevKey = key;
    out.push({ mode: mode as StrictMode, name, id });
    pos = nul + 1 + ID_BYTES;
  }
  return out;
}

/** The object type a mode names. */
export function typeOfMode(mode: StrictMode): 'tree' | 'blob' {
  return mode === '40000' ? 'tree' : 'blob';
}
