/** `memory.migrate`, wired: the handle's runner, author, lease and post-commit work (memfs/migrate.ts does it). */
import type { LayoutName } from '../blocks/layouts.js';
import { resolveGitCommonDir } from '../git/common-dir.js';
import { migrateLayout, type MigrateResult } from '../memfs/migrate.js';
import type { WriteDeps } from '../memfs/tool.js';

/**
 * Migrates the handle's repository; after a commit landed, the post-commit work runs as after any write.
 * @example await migrate(deps, { layout: 'index', dryRun: true })
 */
export async function migrate(deps: WriteDeps, o: { layout: LayoutName; dryRun?: boolean }): Promise<MigrateResult> {
  const r = await migrateLayout(
    {
      git: deps.git,
      memoryDir: deps.memoryDir,
      commonDir: deps.gitDirs?.commonDir ?? resolveGitCommonDir(deps.memoryDir),
      author: deps.author,
      lease: deps.lease,
      ...(deps.systemBudget ? { systemBudget: deps.systemBudget } : {}),
    },
    o,
  );
  if (r.commit !== null) deps.afterCommit?.(r.commit);
  return r;
}
