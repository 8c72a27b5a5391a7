// A memory repository with one committed system file and gitmem's hooks installed (the hook tests' start).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createGitRunner } from '../../src/git/runner.js';
import { ensureHooks } from '../../src/hooks/install.js';
import { git } from './tmp.js';

/** Creates `repo` (branch main) holding `system/<name>.md`, committed, with the hooks installed. */
export async function hookedRepo(repo: string, env: Record<string, string>, name = 'a'): Promise<void> {
  mkdirSync(join(repo, 'system'), { recursive: true });
  git(dirname(repo), ['init', '-q', '-b', 'main', repo], env);
  writeFileSync(join(repo, 'system', `${name}.md`), `---\ndescription: ${name}\n---\n${name}\n`);
  git(repo, ['add', '-A'], env);
  git(repo, ['commit', '-q', '-m', 'init'], env);
  await ensureHooks(createGitRunner({ env }), repo);
}
