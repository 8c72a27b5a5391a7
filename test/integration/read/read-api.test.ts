// The read side through the public API: read / view / files / history / diff / tokens at HEAD and at older
// commits, the memory tool's view command, and revert (exactly one commit's change; a conflicting or a
// rule-breaking revert refused with the repository unchanged). Real git in temp repos.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Memory } from '../../../src/index.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

let fx: MemoryFixture;
let m: Memory;
const g = (args: string[]): string => git(fx.dir, args, fx.env);
const head = (): string => g(['rev-parse', 'HEAD']);
const state = (): string => `${head()}\n${g(['status', '--porcelain'])}\n${g(['fsck', '--strict', '--no-progress'])}`;
const create = (
  file_path: string,
  file_text: string,
  reason = `add ${file_path}`,
  description = `about ${file_path}`,
) => m.tool({ command: 'create', reason, file_path, description, file_text });
const replace = (file_path: string, old_string: string, new_string: string, reason = `edit ${file_path}`) =>
  m.tool({ command: 'str_replace', reason, file_path, old_string, new_string });

/** A raw shell commit of `files` (through the installed pre-commit hook unless noVerify). */
function shellCommit(files: Record<string, string>, message: string, noVerify = false): string {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(fx.dir, rel, '..'), { recursive: true });
    writeFileSync(join(fx.dir, rel), text);
  }
  g(['add', '-A']);
  g(['commit', '-q', ...(noVerify ? ['--no-verify'] : []), '-m', message]);
  return head();
}

beforeAll(async () => {
  fx = await memoryFixture('reader');
  m = fx.memory;
});
afterAll(cleanupTmp);

describe('read and view, at HEAD and as of an older commit', () => {
  let withFact: string;
  beforeAll(async () => {
    withFact = (await create('people/ana.md', 'Ana likes green tea\nAna lives in Porto\n', 'met Ana')).commit;
    await m.tool({ command: 'delete', reason: 'Ana asked me to forget', file_path: 'people/ana.md' });
  });

  it('a fact deleted since is read at the old commit and not at HEAD', async () => {
    const old = await m.read('people/ana', { at: withFact });
    expect(old).toEqual({
      path: 'people/ana.md',
      frontmatter: { description: 'about people/ana.md' },
      body: 'Ana likes green tea\nAna lives in Porto\n',
      text: '---\ndescription: about people/ana.md\n---\nAna likes green tea\nAna lives in Porto\n',
      commit: withFact,
    });
    await expect(m.read('people/ana.md')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await m.view('people/ana.md', { at: `${withFact.slice(0, 10)}` })).text).toContain(
      '     4\tAna likes green tea',
    );
    expect((await m.view('people', { at: withFact })).text).toContain('people/ana.md — about people/ana.md');
    await expect(m.view('people')).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: 'The path people does not exist. Please provide a valid path.',
    });
    expect((await m.view()).text).not.toContain('ana.md');
  });

  it('revisions: HEAD~n, a date, and typed refusals', async () => {
    expect((await m.read('people/ana.md', { at: 'HEAD~1' })).commit).toBe(withFact);
    const date = g(['log', '-1', '--format=%cI', withFact]);
    expect((await m.view('/', { at: date })).commit).not.toBe('');
    await expect(m.read('people/ana.md', { at: 'no-such-branch' })).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    await expect(m.read('people/ana.md', { at: '1999-01-01' })).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    await expect(m.read('people/ana.md', { at: '--output=/tmp/x' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(m.read('../etc/passwd')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(m.read('.git/config')).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('reads the committed revision, never the work tree, and plain files too', async () => {
    shellCommit({ 'notes/data.txt': 'plain\n' }, 'add a plain file');
    writeFileSync(join(fx.dir, 'notes', 'data.txt'), 'uncommitted\n');
    expect(await m.read('notes/data.txt')).toMatchObject({
      path: 'notes/data.txt',
      frontmatter: null,
      body: 'plain\n',
      text: 'plain\n',
    });
    g(['checkout', '--', 'notes/data.txt']);
  });

  it('never reads through a committed symbolic link', async () => {
    symlinkSync('/etc/passwd', join(fx.dir, 'notes', 'link.md'));
    g(['add', 'notes/link.md']);
    g(['commit', '-q', '--no-verify', '-m', 'a link slipped in']);
    await expect(m.read('notes/link.md')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    await expect(m.view('notes/link')).rejects.toMatchObject({ code: 'PATH_ESCAPE' });
    expect((await m.view('notes')).text).not.toContain('link.md');
    g(['rm', '-q', 'notes/link.md']);
    g(['commit', '-q', '-m', 'remove the link']);
  });

  it('views a directory two levels deep with sizes and descriptions', async () => {
    await create('projects/alpha/overview.md', 'alpha\n');
    await create('projects/alpha/deep/far.md', 'far\n');
    await create('projects/top.md', 'top\n');
    const v = await m.view('projects');
    expect(v.kind).toBe('directory');
    const lines = v.text.split('\n');
    expect(lines[0]).toBe(
      "Here're the files and directories up to 2 levels deep in projects, excluding hidden items and node_modules:",
    );
    expect(lines.slice(2)).toEqual([
      expect.stringMatching(/^\d+B\tprojects\/alpha\/$/),
      expect.stringMatching(/^\d+B\tprojects\/alpha\/deep\/$/),
      expect.stringMatching(/^\d+B\tprojects\/alpha\/overview\.md — about projects\/alpha\/overview\.md$/),
      expect.stringMatching(/^\d+B\tprojects\/top\.md — about projects\/top\.md$/),
    ]);
    const root = (await m.view()).text;
    expect(root).toContain('\tsystem/human.md — ');
    expect(root).not.toContain('far.md'); // three levels down
  });

  it('views ranges of a file and refuses ranges that do not fit', async () => {
    await create('notes/lines.md', 'one\ntwo\nthree\n');
    expect((await m.view('notes/lines.md', { range: [5, 6] })).text).toBe(
      "Here's the content of notes/lines.md with line numbers:\n     5\ttwo\n     6\tthree",
    );
    expect((await m.view('notes/lines.md', { range: [4, -1] })).text.split('\n').slice(1)).toEqual([
      '     4\tone',
      '     5\ttwo',
      '     6\tthree',
    ]); // a final newline starts no line
    await expect(m.view('notes/lines.md', { range: [7, -1] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(m.view('notes/lines.md', { range: [0, 2] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(m.view('notes/lines.md', { range: [8, -1] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(m.view('notes', { range: [1, 2] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("the memory tool's view command commits nothing and needs no reason", async () => {
    const before = state();
    const r = await m.tool({ command: 'view', file_path: 'notes/lines.md', view_range: [4, 4] });
    expect(r).toEqual({
      commit: head(),
      paths: [],
      message: "Here's the content of notes/lines.md with line numbers:\n     4\tone",
      view: r.message,
    });
    expect((await m.tool({ command: 'view' })).view).toContain('up to 2 levels deep in /');
    await expect(m.tool({ command: 'view', file_path: 'nope.md' })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(m.tool({ command: 'create', file_path: 'x.md', description: 'x' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(state()).toBe(before);
  });

  it('files() lists the tree as data; tokens() estimates system/', async () => {
    const { files, commit } = await m.files();
    expect(commit).toBe(head());
    expect(files.find((f) => f.path === 'projects/top.md')).toEqual({
      path: 'projects/top.md',
      size: expect.any(Number),
      description: 'about projects/top.md',
    });
    expect(files.find((f) => f.path === 'notes/data.txt')).toEqual({ path: 'notes/data.txt', size: 6 });
    const t = await m.tokens();
    const sizes = Object.fromEntries(
      g(['ls-tree', '-r', '-l', 'HEAD', 'system/'])
        .split('\n')
        .map((l) => [l.split('\t')[1], Number(l.split(/\s+/)[3])]),
    );
    expect(t.files.map((f) => f.path).sort()).toEqual(
      Object.keys(sizes)
        .filter((p) => p.endsWith('.md'))
        .sort(),
    );
    for (const f of t.files) expect(f.tokens).toBe(Math.ceil((sizes[f.path] as number) / 4));
    expect(t.total_tokens).toBe(t.files.reduce((n, f) => n + f.tokens, 0));
    expect(t.files[0]!.tokens).toBeGreaterThanOrEqual(t.files.at(-1)!.tokens);
  });
});

describe('history and diff', () => {
  it('history of a file follows its rename, with writer, reason and file statuses', async () => {
    await create('topics/old-name.md', 'v1\n', 'start topic');
    await replace('topics/old-name.md', 'v1', 'v2', 'refine topic');
    await m.tool({
      command: 'rename',
      reason: 'better name',
      old_path: 'topics/old-name.md',
      new_path: 'topics/new-name.md',
    });
    await replace('topics/new-name.md', 'v2', 'v3', 'refine again');
    const h = await m.history({ path: 'topics/new-name.md' });
    expect(h.map((e) => e.reason)).toEqual(['refine again', 'better name', 'refine topic', 'start topic']);
    expect(h[1]!.files).toEqual([{ status: 'R', oldPath: 'topics/old-name.md', path: 'topics/new-name.md' }]);
    expect(h[3]!.files).toEqual([{ status: 'A', path: 'topics/old-name.md' }]);
    expect(new Set(h.map((e) => e.writer))).toEqual(new Set(['agent']));
    expect((await m.history({ path: 'topics/new-name' })).length).toBe(4);
    expect((await m.history({ limit: 2 })).length).toBe(2);
    expect(await m.history({ since: '2090-01-01' })).toEqual([]);
    await expect(m.history({ since: 'whenever' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(m.history({ limit: 0 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it("a shell commit is told apart from the agent's", async () => {
    shellCommit({ 'notes/by-hand.md': '---\ndescription: by hand\n---\nhand\n' }, 'edited by hand');
    const [last] = await m.history({ limit: 1 });
    expect(last).toMatchObject({
      reason: 'edited by hand',
      writer: 'shell',
      email: 'test@example.com',
      files: [{ status: 'A', path: 'notes/by-hand.md' }],
    });
  });

  it('diff() is what the last commit did; from/to/path narrow it', async () => {
    const d = await m.diff();
    expect(d.from).toBe(g(['rev-parse', 'HEAD~1']));
    expect(d.to).toBe(head());
    expect(d.files).toEqual([{ status: 'A', path: 'notes/by-hand.md', additions: 4, deletions: 0 }]);
    expect(d.text).toContain('+hand');
    const range = await m.diff({ from: 'HEAD~5', to: 'HEAD~1', path: 'topics/new-name.md' });
    expect(range.files.map((f) => f.path)).toEqual(['topics/new-name.md']);
    expect(range.text).not.toContain('by-hand');
    const cut = await m.diff({ from: 'HEAD~6', maxBytes: 100 });
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.text)).toBeLessThan(140);
  });
});

describe('revert', () => {
  it('undoes exactly one commit among several, as one new commit', async () => {
    await create('facts/a.md', 'a1\n', 'fact a');
    const b = await create('facts/b.md', 'b1\n', 'fact b');
    await replace('facts/a.md', 'a1', 'a2', 'fact a changes');
    const c = await replace('facts/b.md', 'b1', 'b2', 'fact b changes');
    await create('facts/c.md', 'c1\n', 'fact c');
    const before = head();
    const r = await m.revert(c.commit, { reason: 'b did not change after all' });
    expect(g(['rev-parse', 'HEAD~1'])).toBe(before);
    expect(r).toMatchObject({ reverted: c.commit, paths: ['facts/b.md'] });
    expect(g(['log', '-1', '--format=%B'])).toBe(`b did not change after all\n\nReverts: ${c.commit}`);
    expect((await m.read('facts/b.md')).body).toBe('b1\n');
    expect((await m.read('facts/a.md')).body).toBe('a2\n');
    expect((await m.read('facts/c.md')).body).toBe('c1\n');
    expect(g(['status', '--porcelain'])).toBe('');
    // Reverting a create deletes the file; the repo stays clean and valid.
    await m.revert(b.commit, { reason: 'forget b' });
    await expect(m.read('facts/b.md')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(m.revert(b.commit, { reason: 'again' })).rejects.toMatchObject({ code: 'NO_CHANGES' });
  });

  it('merges the undo into later edits of other lines', async () => {
    await create('facts/multi.md', 'one\ntwo\nthree\nfour\nfive\n', 'multi');
    const first = await replace('facts/multi.md', 'one', 'ONE', 'shout one');
    await replace('facts/multi.md', 'five', 'FIVE', 'shout five');
    await m.revert(first.commit, { reason: 'one is quiet' });
    expect((await m.read('facts/multi.md')).body).toBe('one\ntwo\nthree\nfour\nFIVE\n');
  });

  it('undoes one bullet next to a later bullet through the markdown merge (the line merge alone conflicts)', async () => {
    await create('facts/list.md', '# Tools\n\n- git\n', 'tools');
    const a = await replace('facts/list.md', '- git\n', '- git\n- pnpm\n', 'learned pnpm');
    await replace('facts/list.md', '- pnpm\n', '- pnpm\n- bun\n', 'learned bun');
    await m.revert(a.commit, { reason: 'pnpm was a mistake' });
    expect((await m.read('facts/list.md')).body).toBe('# Tools\n\n- git\n- bun\n');
    expect(g(['status', '--porcelain'])).toBe('');
  });

  it('refuses a revert that no longer applies, naming the files, and changes nothing', async () => {
    await create('facts/x.md', 'x1\n', 'fact x');
    const x = await replace('facts/x.md', 'x1', 'x2', 'x changes');
    await replace('facts/x.md', 'x2', 'x3', 'x changes again');
    await create('facts/y.md', 'y1\n', 'fact y');
    const y = await replace('facts/y.md', 'y1', 'y2', 'y changes');
    await m.tool({ command: 'delete', reason: 'drop y', file_path: 'facts/y.md' });
    const before = state();
    await expect(m.revert(x.commit, { reason: 'undo x' })).rejects.toMatchObject({
      code: 'REVERT_CONFLICT',
      data: { paths: ['facts/x.md'] },
    });
    await expect(m.revert(y.commit, { reason: 'undo y' })).rejects.toMatchObject({
      code: 'REVERT_CONFLICT',
      data: { paths: ['facts/y.md'] },
    });
    await expect(m.revert('no-such', { reason: 'r' })).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
    await expect(m.revert(x.commit, { reason: ' ' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(state()).toBe(before);
  });

  it('goes through the validator: a revert that would lift read_only is refused', async () => {
    await create('facts/locked.md', 'keep\n', 'lockable');
    const lock = shellCommit(
      { 'facts/locked.md': '---\ndescription: about facts/locked.md\nread_only: true\n---\nkeep\n' },
      'operator locks it',
      true,
    );
    const before = state();
    await expect(m.revert(lock, { reason: 'unlock' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(state()).toBe(before);
  });

  it('reverts a merge against its first parent: what it brought to main goes', async () => {
    g(['checkout', '-q', '-b', 'side']);
    shellCommit({ 'facts/side.md': '---\ndescription: side\n---\nside\n' }, 'side work');
    g(['checkout', '-q', 'main']);
    await create('facts/main-only.md', 'main\n', 'main work');
    g(['merge', '-q', '--no-ff', '-m', 'merge side', 'side']);
    const merge = head();
    await m.revert(merge, { reason: 'not the side work' });
    await expect(m.read('facts/side.md')).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    expect((await m.read('facts/main-only.md')).body).toBe('main\n');
    expect(g(['status', '--porcelain'])).toBe('');
  });

  it('refuses on a dirty repository like any write', async () => {
    const [last] = await m.history({ limit: 1 });
    writeFileSync(join(fx.dir, 'facts', 'multi.md'), 'dirty\n');
    await expect(m.revert(last!.sha, { reason: 'r' })).rejects.toMatchObject({ code: 'REPO_DIRTY' });
    g(['checkout', '--', 'facts/multi.md']);
  });
});
