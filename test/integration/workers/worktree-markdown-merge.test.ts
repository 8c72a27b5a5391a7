// Background writers' merges use the markdown merge where git's line merge conflicts: a checkout and a
// branch that both edited one memory file in different bullets, sections or fields merge; the same bullet
// changed two ways, a conflict outside markdown, or a result the memory rules refuse keeps the branch as
// before. Real git repos; the merge under test is mergeIntoCheckout (every background writer's merge).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createCommandBody } from '../../../src/worktree/command-body.js';
import { mergeIntoCheckout } from '../../../src/worktree/merge.js';
import { runMemoryWorker } from '../../../src/worktree/worker.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';

let root: string;
let dir: string;
let env: Record<string, string>;
let runner: ReturnType<typeof createGitRunner>;

const f = (body: string, description = 'Work notes'): string => `---\ndescription: ${description}\n---\n${body}`;

function write(files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

function commit(files: Record<string, string>, message: string): string {
  write(files);
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '-m', message], env);
  return git(dir, ['rev-parse', 'HEAD'], env);
}

/** `side` committed on branch `w` from the current head, `primary` on main: returns the branch tip. */
function diverge(primary: Record<string, string>, side: Record<string, string>): string {
  git(dir, ['checkout', '-q', '-b', 'w'], env);
  const tip = commit(side, 'worker edit');
  git(dir, ['checkout', '-q', 'main'], env);
  commit(primary, 'primary edit');
  return tip;
}

const merge = (tip: string) =>
  mergeIntoCheckout({ memoryDir: dir, branch: tip, message: 'merge(memory): w', git: runner });
const read = (rel: string): string => readFileSync(join(dir, rel), 'utf8');

beforeEach(() => {
  root = makeTmpDir();
  env = hermeticGitEnv(root);
  runner = createGitRunner({ env });
  dir = join(root, 'home', 'agents', 'ana', 'memory');
  mkdirSync(dir, { recursive: true });
  git(dir, ['init', '-q', '-b', 'main'], env);
  commit(
    {
      'notes/work.md': f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n'),
      'other.txt': 'one\ntwo\n',
    },
    'init',
  );
});

afterAll(() => cleanupTmp());

describe('a background writer merge with the markdown merge', () => {
  it('merges different bullets added to one file by the checkout and the branch', async () => {
    const tip = diverge(
      {
        'notes/work.md': f(
          '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Works from home on Wednesdays\n',
        ),
      },
      {
        'notes/work.md': f(
          '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Standup at 9:30\n',
        ),
      },
    );
    const head = git(dir, ['rev-parse', 'HEAD'], env);
    const r = await merge(tip);
    expect(r).toMatchObject({ status: 'merged', changedPaths: ['notes/work.md'] });
    expect(read('notes/work.md')).toBe(
      f(
        '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Works from home on Wednesdays\n- Standup at 9:30\n',
      ),
    );
    expect(git(dir, ['log', '-1', '--format=%P %s'], env)).toBe(`${head} ${tip} merge(memory): w`);
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
    expect(git(dir, ['show', 'HEAD:notes/work.md'], env)).toBe(read('notes/work.md').trimEnd());
    git(dir, ['fsck', '--strict'], env);
  });

  it('keeps the branch when the same bullet was changed two ways, the checkout untouched', async () => {
    const tip = diverge(
      {
        'notes/work.md': f(
          '# Office\n\n- In the office Monday, Tuesday, Thursday and Friday\n- Prefers short answers\n',
        ),
      },
      { 'notes/work.md': f('# Office\n\n- Hybrid: three office days\n- Prefers short answers\n') },
    );
    const head = git(dir, ['rev-parse', 'HEAD'], env);
    const before = read('notes/work.md');
    expect(await merge(tip)).toEqual({
      status: 'conflict',
      reason: 'content',
      conflictingPaths: ['notes/work.md'],
      head,
    });
    expect(git(dir, ['rev-parse', 'HEAD'], env)).toBe(head);
    expect(read('notes/work.md')).toBe(before);
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
  });

  it('merges frontmatter fields and several files at once, keeping CRLF of the checkout', async () => {
    const crlf = (s: string): string => s.replace(/\n/g, '\r\n');
    commit({ 'notes/crlf.md': crlf(f('- a\n- b\n')) }, 'crlf file');
    const tip = diverge(
      {
        'notes/work.md': f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n', 'How Ana works'),
        'notes/crlf.md': crlf(f('- a\n- b\n- ours\n')),
      },
      {
        'notes/work.md': `---\ndescription: Work notes\nlimit: 3000\n---\n# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n`,
        'notes/crlf.md': f('- a\n- b\n- theirs\n'),
      },
    );
    expect(await merge(tip)).toMatchObject({ status: 'merged' });
    expect(read('notes/work.md')).toBe(
      '---\ndescription: How Ana works\nlimit: 3000\n---\n# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n',
    );
    expect(read('notes/crlf.md')).toBe(crlf(f('- a\n- b\n- ours\n- theirs\n')));
  });

  it('merges a file both sides created', async () => {
    const tip = diverge({ 'notes/new.md': f('- from the checkout\n') }, { 'notes/new.md': f('- from the worker\n') });
    expect(await merge(tip)).toMatchObject({ status: 'merged' });
    expect(read('notes/new.md')).toBe(f('- from the checkout\n- from the worker\n'));
  });

  it('merges a file the branch renamed and both edited', async () => {
    git(dir, ['checkout', '-q', '-b', 'w'], env);
    git(dir, ['mv', 'notes/work.md', 'notes/office.md'], env);
    const tip = commit(
      {
        'notes/office.md': f(
          '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Standup at 9:30\n',
        ),
      },
      'rename and edit',
    );
    git(dir, ['checkout', '-q', 'main'], env);
    commit(
      {
        'notes/work.md': f(
          '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Works from home on Wednesdays\n',
        ),
      },
      'primary',
    );
    expect(await merge(tip)).toMatchObject({ status: 'merged' });
    expect(read('notes/office.md')).toBe(
      f(
        '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- Works from home on Wednesdays\n- Standup at 9:30\n',
      ),
    );
  });

  it('keeps the branch when another file conflicts outside markdown, even if the markdown one would merge', async () => {
    const tip = diverge(
      {
        'notes/work.md': f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- ours\n'),
        'other.txt': 'one\nours\n',
      },
      {
        'notes/work.md': f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- theirs\n'),
        'other.txt': 'one\ntheirs\n',
      },
    );
    const r = await merge(tip);
    expect(r).toMatchObject({ status: 'conflict', reason: 'content' });
    if (r.status === 'conflict') expect(r.conflictingPaths.sort()).toEqual(['notes/work.md', 'other.txt']);
    expect(read('other.txt')).toBe('one\nours\n');
  });

  it('keeps the branch when the merged file would break the memory rules', async () => {
    const tip = diverge(
      { 'notes/work.md': f('# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- ours\n') },
      {
        'notes/work.md': `---\ndescription: Work notes\ntags: work\n---\n# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n- theirs\n`,
      },
    );
    expect(await merge(tip)).toMatchObject({
      status: 'conflict',
      reason: 'content',
      conflictingPaths: ['notes/work.md'],
    });
  });

  it('keeps a read_only file out of the merge', async () => {
    commit({ 'system/rules.md': '---\ndescription: Rules\nread_only: true\n---\n- a\n' }, 'rules');
    const tip = diverge(
      { 'system/rules.md': '---\ndescription: Rules\nread_only: true\n---\n- a\n- ours\n' },
      { 'system/rules.md': '---\ndescription: Rules\nread_only: true\n---\n- a\n- theirs\n' },
    );
    expect(await merge(tip)).toMatchObject({ status: 'conflict', conflictingPaths: ['system/rules.md'] });
  });
});

// The timeline: a worker starts from the checkout's head, the primary agent edits the same file while it runs
// (10:00), the worker commits its own edit inside the sandbox and is merged back (10:05).
describe('a confined worker and the primary editing one file', { tags: ['sandbox'] }, () => {
  const OFFICE = '# Office\n\n- In the office Monday to Friday\n- Prefers short answers\n';

  async function runWorker(script: string, primaryBody: string) {
    const command = createCommandBody({
      launch: sharedShellLauncher(),
      command: script,
      gitmemHome: join(root, 'home'),
      agentId: 'ana',
      env,
      onWarning: () => undefined,
    });
    return runMemoryWorker(
      { memoryDir: dir, description: 'note the office days', paths: ['notes/'] },
      async (ctx) => {
        await command(ctx);
        commit({ 'notes/work.md': f(primaryBody) }, 'primary: works from home on Wednesdays');
      },
      { git: runner },
    );
  }

  it('merges different bullets: the primary keeps its edit, the worker adds its own', async () => {
    const script = `printf -- '- Team standup at 9:30 on Mondays\\n' >> notes/work.md && git commit -qam 'worker: standup'`;
    const out = await runWorker(script, `${OFFICE}- From next week: works from home on Wednesdays\n`);
    expect(out).toMatchObject({ status: 'merged', commitCount: 1 });
    expect(read('notes/work.md')).toBe(
      f(`${OFFICE}- From next week: works from home on Wednesdays\n- Team standup at 9:30 on Mondays\n`),
    );
    expect(git(dir, ['log', '-1', '--format=%s'], env)).toMatch(/^merge\(memory\): gitmem\/worker\//);
    expect(git(dir, ['branch', '--list', 'gitmem/*'], env)).toBe('');
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
  });

  it("keeps the worker's branch when both rewrote the same bullet", async () => {
    const script = `sed -i 's/In the office Monday to Friday/Hybrid: three office days/' notes/work.md && git commit -qam 'worker: hybrid'`;
    const primary = OFFICE.replace('In the office Monday to Friday', 'In the office except Wednesdays');
    const out = await runWorker(script, primary);
    expect(out).toMatchObject({
      status: 'merge_conflict',
      conflictReason: 'content',
      conflictingPaths: ['notes/work.md'],
    });
    if (out.status !== 'merge_conflict') return;
    expect(read('notes/work.md')).toBe(f(primary));
    expect(git(dir, ['show', `${out.branchName}:notes/work.md`], env)).toContain('Hybrid: three office days');
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
  });
});
