/**
 * `gitmem migrate --layout index|system [--dry-run]` (`memory.migrate`): the repository's files moved to the
 * other layout (blocks/layout-migration.ts) as ONE commit. The new tree is built with git plumbing in a
 * temporary index (blobs, write-tree, commit-tree), so neither main, the checkout's index nor its files change
 * until the end; it gets the checks every commit gets (memfs/migrate-check.ts: the target layout's validator,
 * the secret scan with the allow list, the core budget), its diff printed, and (without `dryRun`) it
 * lands by `update-ref` with HEAD's old value, under the write lease: a write that moved main meanwhile makes
 * it land nothing. Then the checkout follows (read-tree -m -u) and, last, `gitmem.layout` is set.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planLayoutMigration, type MigrationFile } from '../blocks/layout-migration.js';
import { layoutRow, parseLayoutName, type LayoutName } from '../blocks/layouts.js';
import { MemoryError } from '../errors.js';
import { catFileBatchRawOp, lsTreeOp } from '../git/commands/plumbing.js';
import type { GitRunner } from '../git/runner.js';
import { homeOfRepo, readSystemBudget } from '../hooks/budget-config.js';
import { readLayoutAt, REPO_LAYOUT_KEY } from '../hooks/layout-config.js';
import { protectPaths, readProtectedPaths } from '../hooks/protected.js';
import { identityEnv, type Identity } from '../identity.js';
import { checkMigration } from './migrate-check.js';

export interface MigrateDeps {
  git: GitRunner;
  memoryDir: string;
  commonDir: string;
  author: Identity;
  lease: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The core budget as configured (estimated tokens); default: the repository's, else its home's. */
  systemBudget?: () => number;
  /** Test seam: runs after the new commit is built and before it lands (a race is injected here). */
  beforeLand?: () => Promise<void>;
}

export interface MigrateResult {
  from: LayoutName;
  to: LayoutName;
  /** The commit that landed; null for a dry run. */
  commit: string | null;
  /** `git diff -M --stat` and the patch from HEAD to the migrated tree. */
  diff: string;
  moves: Array<{ from: string; to: string }>;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface Snapshot {
  head: string;
  texts: MigrationFile[];
  /** Files kept by id (not UTF-8): mode and blob. */
  binary: Array<{ path: string; mode: string; id: string }>;
  modes: Map<string, string>;
}

async function snapshot(d: MigrateDeps, head: string): Promise<Snapshot> {
  const all = await d.git.exec(lsTreeOp(head), { cwd: d.memoryDir });
  const entries = all.filter((e) => e.type === 'blob');
  const objects = await d.git.exec(catFileBatchRawOp(entries.map((e) => e.id)), { cwd: d.memoryDir });
  // A gitlink (or anything not a blob) is kept as it is, by id.
  const others = all.filter((e) => e.type !== 'blob' && e.type !== 'tree');
  const s: Snapshot = {
    head,
    texts: [],
    binary: others.map((e) => ({ path: e.path, mode: e.mode, id: e.id })),
    modes: new Map(),
  };
  entries.forEach((e, i) => {
    s.modes.set(e.path, e.mode);
    try {
      if (e.mode === '120000') throw new Error('link');
      s.texts.push({ path: e.path, text: UTF8.decode(objects[i]?.data ?? Buffer.alloc(0)) });
    } catch {
      s.binary.push({ path: e.path, mode: e.mode, id: e.id });
    }
  });
  return s;
}

/** Writes the migrated tree's objects through a temporary index; returns the tree id. */
async function writeTree(d: MigrateDeps, s: Snapshot, files: readonly MigrationFile[]): Promise<string> {
  const tmp = mkdtempSync(join(tmpdir(), 'gitmem-migrate-'));
  try {
    const paths = files.map((f, i) => {
      const p = join(tmp, `blob-${i}`);
      writeFileSync(p, f.text);
      return p;
    });
    const ids =
      paths.length === 0
        ? []
        : (
            await d.git.run(['hash-object', '-w', '--no-filters', '--stdin-paths'], {
              cwd: d.memoryDir,
              input: `${paths.join('\n')}\n`,
            })
          ).stdout
            .trim()
            .split('\n');
    const lines = [
      ...files.map((f, i) => `${s.modes.get(f.path) === '100755' ? '100755' : '100644'} ${ids[i]}\t${f.path}`),
      ...s.binary.map((b) => `${b.mode} ${b.id}\t${b.path}`),
    ];
    const env = { GIT_INDEX_FILE: join(tmp, 'index') };
    await d.git.run(['update-index', '--add', '--index-info'], {
      cwd: d.memoryDir,
      env,
      input: `${lines.join('\n')}\n`,
    });
    return (await d.git.run(['write-tree'], { cwd: d.memoryDir, env })).stdout.trim();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

async function refuseDirty(d: MigrateDeps): Promise<void> {
  const status = await d.git.run(['status', '--porcelain', '--untracked-files=all'], { cwd: d.memoryDir });
  if (status.stdout.trim() !== '')
    throw new MemoryError(
      'REPO_DIRTY',
      'migrate: the memory repository has uncommitted changes; commit or drop them first',
    );
}

async function land(d: MigrateDeps, head: string, commit: string, to: LayoutName): Promise<void> {
  const ref = (await d.git.run(['symbolic-ref', '-q', 'HEAD'], { cwd: d.memoryDir })).stdout.trim();
  const moved = await d.git.run(['update-ref', '-m', 'gitmem migrate', ref, commit, head], {
    cwd: d.memoryDir,
    okExitCodes: [1, 128],
  });
  if (moved.exitCode !== 0)
    throw new MemoryError(
      'REPO_CONFLICT',
      'migrate: main moved while the migration was staged; nothing landed, run it again',
    );
  try {
    await d.git.run(['read-tree', '-m', '-u', head, commit], { cwd: d.memoryDir });
  } catch (err) {
    throw new MemoryError(
      'REPO_BROKEN',
      `migrate: ${commit.slice(0, 7)} landed but the checkout did not follow; run: git read-tree -m -u ${head} ${commit} && git config ${REPO_LAYOUT_KEY} ${to}`,
      { cause: err },
    );
  }
  try {
    await d.git.run(['config', REPO_LAYOUT_KEY, to], { cwd: d.memoryDir });
  } catch (err) {
    throw new MemoryError(
      'REPO_BROKEN',
      `migrate: ${commit.slice(0, 7)} landed but ${REPO_LAYOUT_KEY} could not be set; run: git config ${REPO_LAYOUT_KEY} ${to}`,
      { cause: err },
    );
  }
}

/**
 * Moves the repository to `layout` in one commit (or, with `dryRun`, only says what would change).
 * @example const r = await migrateLayout(deps, { layout: 'index', dryRun: true }); console.log(r.diff)
 */
export async function migrateLayout(
  d: MigrateDeps,
  o: { layout: LayoutName; dryRun?: boolean },
): Promise<MigrateResult> {
  const name = parseLayoutName(o.layout);
  if (name === undefined)
    throw new MemoryError('INVALID_ARGUMENT', `migrate: --layout must be system or index`, {
      data: { field: 'layout' },
    });
  const target = layoutRow(name);
  return d.lease(async () => {
    const current = readLayoutAt(d.commonDir);
    await refuseDirty(d);
    const head = (await d.git.run(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: d.memoryDir })).stdout.trim();
    const s = await snapshot(d, head);
    const plan = planLayoutMigration(current, target, s.texts);
    const tree = await writeTree(d, s, plan.files);
    // No hook runs on update-ref: the commit's checks run here (format, secrets, budget).
    await checkMigration({
      git: d.git,
      memoryDir: d.memoryDir,
      commonDir: d.commonDir,
      budget: d.systemBudget?.() ?? readSystemBudget(d.memoryDir, homeOfRepo(d.memoryDir)),
      ...{ head, tree, from: current, to: target, before: s.texts, after: plan.files },
    });
    const diff = (await d.git.run(['diff', '-M', '--stat', '--patch', head, tree], { cwd: d.memoryDir })).stdout;
    const result = { from: current.name, to: target.name, diff, moves: plan.moves };
    if (o.dryRun === true) return { ...result, commit: null };
    const message = `Migrate to the ${target.name} layout\n\n${plan.moves.length} file(s) moved (gitmem migrate).\n`;
    const commit = (
      await d.git.run(['commit-tree', tree, '-p', head], {
        cwd: d.memoryDir,
        input: message,
        env: identityEnv(d.author),
      })
    ).stdout.trim();
    await d.beforeLand?.();
    const listed = readProtectedPaths(d.memoryDir, d.commonDir);
    await land(d, head, commit, target.name);
    // A listed file stays protected at its new path (the old entry stays too: nothing is unprotected).
    const follow = plan.moves.filter((m) => listed.has(m.from)).map((m) => m.to);
    if (follow.length > 0) await protectPaths(d.memoryDir, follow);
    return { ...result, commit };
  });
}
