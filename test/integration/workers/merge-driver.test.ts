// gitmem's merge driver in a memory repository: registered (config, .git/info/attributes, the script) by init
// and repaired on open; a merge or rebase run by hand uses the markdown merge where git's line merge conflicts,
// and keeps git's conflict markers where the markdown merge refuses too. Uses the built dist/ (the driver
// script runs `node dist/bin/merge-driver.cjs`).
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { MERGE_ATTRIBUTES, mergeDriverScript } from '../../../src/hooks/merge-driver-script.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let home: string;
let dir: string;
let env: Record<string, string>;
let runner: ReturnType<typeof createGitRunner>;

const f = (body: string): string => `---\ndescription: Work notes\n---\n${body}`;
const read = (rel: string): string => readFileSync(join(dir, rel), 'utf8');

function commit(files: Record<string, string>, message: string): void {
  for (const [rel, text] of Object.entries(files)) writeFileSync(join(dir, rel), text);
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '--no-verify', '-m', message], env);
}

/** Branch `side` with `side`'s files, main with `main`'s, from the current head. */
function diverge(main: Record<string, string>, side: Record<string, string>): void {
  git(dir, ['checkout', '-q', '-b', 'side'], env);
  commit(side, 'side edit');
  git(dir, ['checkout', '-q', 'main'], env);
  commit(main, 'main edit');
}

const LIST = f('- a\n- b\n');

beforeEach(async () => {
  const root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  home = join(root, 'home');
  ({ memoryDir: dir } = await initMemory({ home, agentId: 'ana', env, git: runner }));
  commit({ 'work.md': LIST }, 'work notes');
});

afterAll(() => cleanupTmp());

describe('the merge driver', () => {
  it('is registered by init: config, attributes kept last, an executable script; an open repairs nothing then', async () => {
    const hooks = join(dir, '.git', 'hooks');
    expect(git(dir, ['config', 'merge.gitmem.driver'], env)).toBe(`'${hooks}/gitmem-merge-driver' %O %A %B %L %P`);
    expect(read('.git/info/attributes')).toBe(`${MERGE_ATTRIBUTES.join('\n')}\n`);
    expect(statSync(join(hooks, 'gitmem-merge-driver')).mode & 0o777).toBe(0o755);
    expect(git(dir, ['check-attr', 'merge', '--', 'notes/x.md', 'script.sh'], env)).toBe(
      'notes/x.md: merge: gitmem\nscript.sh: merge: text',
    );
    expect((await createMemory({ home, agentId: 'ana', env, git: runner })).hookRepairs).toEqual([]);
  });

  it("is repaired on open: a driver pointed elsewhere, attributes overridden after gitmem's lines", async () => {
    git(dir, ['config', 'merge.gitmem.driver', 'true'], env);
    writeFileSync(
      join(dir, '.git', 'info', 'attributes'),
      `*.txt -diff\n${MERGE_ATTRIBUTES.join('\n')}\n*.md merge=union\n`,
    );
    const { hookRepairs } = await createMemory({ home, agentId: 'ana', env, git: runner });
    expect(hookRepairs).toEqual(['merge driver (config)', 'merge driver (attributes)']);
    expect(git(dir, ['config', 'merge.gitmem.driver'], env)).toContain('gitmem-merge-driver');
    expect(read('.git/info/attributes')).toBe(`*.txt -diff\n*.md merge=union\n${MERGE_ATTRIBUTES.join('\n')}\n`);
    expect(git(dir, ['check-attr', 'merge', '--', 'a.md'], env)).toBe('a.md: merge: gitmem');
  });

  it('merges different bullets in a `git merge` run by hand', () => {
    diverge({ 'work.md': f('- a\n- b\n- main\n') }, { 'work.md': f('- a\n- b\n- side\n') });
    const r = gitTry(dir, ['merge', '--no-edit', 'side'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(read('work.md')).toBe(f('- a\n- b\n- main\n- side\n'));
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
  });

  it("leaves git's conflict markers and says why when the same bullet changed two ways", () => {
    diverge({ 'work.md': f('- a, main\n- b\n') }, { 'work.md': f('- a, side\n- b\n') });
    const r = gitTry(dir, ['merge', '--no-edit', 'side'], env);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('gitmem merge: work.md: - a: the same block was changed two ways');
    expect(read('work.md')).toBe(f('<<<<<<< ours\n- a, main\n=======\n- a, side\n>>>>>>> theirs\n- b\n'));
    expect(git(dir, ['diff', '--name-only', '--diff-filter=U'], env)).toBe('work.md');
    git(dir, ['merge', '--abort'], env);
    expect(read('work.md')).toBe(f('- a, main\n- b\n'));
  });

  it('is used by a rebase (the merge backend honours merge attributes)', () => {
    diverge({ 'work.md': f('- a\n- b\n- main\n') }, { 'work.md': f('- a\n- b\n- side\n') });
    git(dir, ['checkout', '-q', 'side'], env);
    const r = gitTry(dir, ['rebase', 'main'], env);
    expect(r.status, r.stderr).toBe(0);
    expect(read('work.md')).toBe(f('- a\n- b\n- main\n- side\n'));
    expect(git(dir, ['rev-list', '--count', 'main..side'], env)).toBe('1');
  });

  it("leaves the work to git's line merge when no gitmem install is left", () => {
    writeFileSync(
      join(dir, '.git', 'hooks', 'gitmem-merge-driver'),
      mergeDriverScript([{ node: '/nonexistent/node', entry: '/nonexistent/dist/bin/pre-commit.cjs' }]),
    );
    diverge({ 'work.md': f('- a\n- b\n- main\n') }, { 'work.md': f('- a\n- b\n- side\n') });
    expect(gitTry(dir, ['merge', '--no-edit', 'side'], env).status).toBe(1);
    expect(read('work.md')).toBe(f('- a\n- b\n<<<<<<< ours\n- main\n=======\n- side\n>>>>>>> theirs\n'));
  });

  it('keeps a file that is not UTF-8 in conflict', () => {
    git(dir, ['checkout', '-q', '-b', 'side'], env);
    commit({ 'work.md': f('- a\n- b\n- side\n') }, 'side edit');
    git(dir, ['checkout', '-q', 'main'], env);
    writeFileSync(
      join(dir, 'work.md'),
      Buffer.concat([Buffer.from(f('- a\n- b\n- ')), Buffer.from([0xff]), Buffer.from(' main\n')]),
    );
    git(dir, ['commit', '-q', '--no-verify', '-am', 'a latin-1 byte'], env);
    expect(gitTry(dir, ['merge', '--no-edit', 'side'], env).status).toBe(1);
    expect(read('work.md')).toContain('<<<<<<< ours');
  });

  it("keeps conflicts of other files to git's line merge whatever a .gitattributes in memory asks", () => {
    commit({ '.gitattributes': '* merge=union\n', 'list.txt': 'one\n' }, 'attributes');
    diverge({ 'list.txt': 'one\nmain\n' }, { 'list.txt': 'one\nside\n' });
    expect(gitTry(dir, ['merge', '--no-edit', 'side'], env).status).toBe(1);
    expect(read('list.txt')).toContain('<<<<<<<');
  });
});

describe('the merge driver inside a sandbox', { tags: ['sandbox'] }, () => {
  it('runs for a merge a confined worker makes in its own worktree (the bundled driver needs only what the sandbox shows)', async () => {
    const command = [
      'base=$(git rev-parse HEAD)',
      "printf -- '- side\\n' >> work.md && git commit -qam side && side=$(git rev-parse HEAD)",
      'git checkout -q --detach "$base"',
      "printf -- '- main\\n' >> work.md && git commit -qam main",
      'git merge --no-edit -m "merge side" "$side"',
    ].join(' && ');
    let output = '';
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir: dir,
      gitmemHome: home,
      command,
      env,
      git: runner,
      onWarning: () => undefined,
      onOutput: (r) => (output += r.stdout + r.stderr),
    });
    expect(outcome, output).toMatchObject({ status: 'merged', commitCount: 3 });
    expect(read('work.md')).toBe(f('- a\n- b\n- main\n- side\n'));
  });
});
