// Reads: memory.tree() and memory.compilePrompt() against `git ls-tree -r HEAD` on the same repository,
// interleaved in the same run — warm (the same commit again), after a one-file commit (the cache moves by the
// diff of loose trees, or by git's diff when the objects are packed), and cold (a fresh copy of the repository: no cache file, nothing in the process) next to today's
// uncached path (ls-tree + cat-file of every markdown blob + a parse of each). Repositories made with
// git fast-import at 10 / 1,000 / 10,000 / 50,000 files.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import {
  compilePrompt,
  createGitRunner,
  DEFAULT_TREE_LIMITS,
  readCommittedSnapshot,
  renderTree,
  tryParseMemoryFile,
} from '../../dist/internals.js';
import { readPrompt, readTree } from '../../dist/read/prompt-read.js';
import { benchEnv, execFileP, fastImportEdit, fastImportRepo, interleavedPairs, round, tmpDir } from '../lib.mjs';

const OPTIONS = { mode: 'local-memfs', treeLimits: DEFAULT_TREE_LIMITS };

/** What compilePrompt and tree() cost before the read cache: every markdown blob read and parsed. */
async function uncached(git, dir, kind) {
  const snap = await readCommittedSnapshot(git, dir);
  const files = snap.paths.map((path) => ({ path, content: snap.markdown.get(path) ?? '' }));
  if (kind === 'prompt') return compilePrompt(files, { ...OPTIONS, revision: snap.revision });
  const entries = files.map((f) => {
    const d = f.path.endsWith('.md') ? String(tryParseMemoryFile(f.content)?.data?.description ?? '').trim() : '';
    return d ? { path: f.path, description: d } : { path: f.path };
  });
  return renderTree(entries, DEFAULT_TREE_LIMITS, { alwaysShow: ['system'] });
}

const ours = (git, dir, kind) =>
  kind === 'prompt' ? readPrompt(git, dir, OPTIONS) : readTree(git, dir, DEFAULT_TREE_LIMITS);

async function sizeRows(size, pairs) {
  const root = tmpDir('gitmem-bench-reads-');
  const env = benchEnv(root);
  const git = createGitRunner({ env });
  const dir = join(root, 'repo');
  fastImportRepo(dir, size, env);
  const lsTree = () => execFileP('git', ['ls-tree', '-r', 'HEAD'], { cwd: dir, env, maxBuffer: 1 << 30 });
  const rows = [];
  const target = size >= 10000 ? '<= 1.0x' : '';
  const row = (name, r, floorName, t) => ({
    section: 'reads',
    name: `${name} @ ${size} files`,
    median_ms: round(r.ours.median),
    p95_ms: round(r.ours.p95),
    floor_name: floorName,
    floor_median_ms: round(r.floor.median),
    ratio: round(r.ratio),
    target: t,
  });
  for (const kind of ['tree', 'prompt']) {
    const label = kind === 'prompt' ? 'compilePrompt' : 'tree()';
    await ours(git, dir, kind);
    rows.push(
      row(
        `${label} warm`,
        await interleavedPairs(pairs, lsTree, () => ours(git, dir, kind)),
        'git ls-tree -r HEAD',
        target,
      ),
    );
    let n = 0;
    const edit = async () =>
      fastImportEdit(dir, 'bulk/d0/f0.md', `---\ndescription: edited ${kind} ${n++}\n---\nx\n`, env);
    rows.push(
      row(
        `${label} after a 1-file commit`,
        await interleavedPairs(pairs, lsTree, () => ours(git, dir, kind), { prepare: edit }),
        'git ls-tree -r HEAD',
        target,
      ),
    );
    // The same with the new commit packed too (as after a gc): no loose trees, so the diff is git's.
    const packedEnv = {
      ...env,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'fastimport.unpackLimit',
      GIT_CONFIG_VALUE_0: '0',
    };
    const packedEdit = async () =>
      fastImportEdit(dir, 'bulk/d0/f0.md', `---\ndescription: packed ${kind} ${n++}\n---\nx\n`, packedEnv);
    rows.push(
      row(
        `${label} after a 1-file commit, packed`,
        await interleavedPairs(pairs, lsTree, () => ours(git, dir, kind), { prepare: packedEdit }),
        'git ls-tree -r HEAD',
        target,
      ),
    );
    let copy = 0;
    const fresh = () => {
      const to = join(root, `copy-${kind}-${copy++}`);
      cpSync(join(dir, '.git'), join(to, '.git'), { recursive: true });
      return to;
    };
    let next = fresh();
    const cold = await interleavedPairs(
      Math.max(4, Math.floor(pairs / 3)),
      () => uncached(git, dir, kind),
      () => ours(git, next, kind),
      { prepare: () => (next = fresh()), warmup: 1 },
    );
    rows.push(row(`${label} cold`, cold, `uncached ${label} (before the cache)`, '<= 1.0x'));
  }
  return rows;
}

export async function bench({ iterations = 30 } = {}) {
  const rows = [];
  for (const size of [10, 1000, 10000, 50000])
    rows.push(...(await sizeRows(size, size >= 50000 ? 6 : size >= 10000 ? 12 : iterations)));
  return rows;
}
