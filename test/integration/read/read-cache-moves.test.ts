// The prompt and the tree read through the cache as it moves from commit to commit (read/prompt-read.ts:
// views kept per repository, caught up by the diff's paths) against the same texts compiled from scratch
// from git's own listing, after every step of seeded random commits from a shell: adds, edits, deletes,
// renames, moves between directories, skill folders, `git gc` (packed objects: no loose trees, so git's diff
// is asked), a truncated cache file read by a fresh copy of the module, and two reads racing.
import { mkdirSync, rmSync, renameSync, writeFileSync, truncateSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compilePrompt } from '../../../src/blocks/compile-prompt.js';
import { summarizeMarkdown } from '../../../src/blocks/file-summary.js';
import { renderTree } from '../../../src/blocks/tree.js';
import { DEFAULT_TREE_LIMITS, type TreeLimits } from '../../../src/blocks/tree-limits.js';
import { createGitRunner } from '../../../src/git/runner.js';
import type * as PromptRead from '../../../src/read/prompt-read.js';
import { readCachePath } from '../../../src/read/read-cache-file.js';
import { readCommittedSnapshot } from '../../../src/read/read-revision.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';
import { rng } from '../../helpers/rng.js';

afterAll(() => cleanupTmp());

const DIRS = ['system', 'system/sub', 'notes', 'notes/deep', 'skills/s1', 'skills/s2', 'archive', ''];
const NAMES = ['persona.md', 'human.md', 'SKILL.md', 'a.md', 'B.md', 'c.md', 'n.txt', 'é.md'];
const SMALL: TreeLimits = { maxLines: 12, maxChars: 400, maxChildrenPerDir: 3 };

type Reads = typeof PromptRead;
const freshReads = async (): Promise<Reads> => (vi.resetModules(), await import('../../../src/read/prompt-read.js'));

function content(next: () => number, step: number): string {
  const roll = next();
  if (roll < 0.1) return `---\ndescription: [broken ${step}\n---\nbody\n`;
  if (roll < 0.2) return `plain text ${step}\n`;
  return `---\ndescription: about ${step}\n${next() < 0.3 ? `name: skill ${step}\n` : ''}---\nbody ${step}\n`;
}

function randomPath(next: () => number): string {
  const dir = DIRS[Math.floor(next() * DIRS.length)] as string;
  const name = NAMES[Math.floor(next() * NAMES.length)] as string;
  return dir === '' ? name : `${dir}/${name}`;
}

/** One random change to the work tree (the repository's files are `files`). */
function change(dir: string, files: Set<string>, next: () => number, step: number): void {
  const list = [...files].sort();
  const pick = list[Math.floor(next() * list.length)];
  const roll = next();
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    files.add(path);
  };
  if (roll < 0.4 || pick === undefined) write(randomPath(next), content(next, step));
  else if (roll < 0.6) write(pick, content(next, step));
  else if (roll < 0.8) {
    rmSync(join(dir, pick));
    files.delete(pick);
  } else {
    // A rename in place or a move to another directory (the target may replace a file there).
    const to =
      next() < 0.5 ? pick.replace(/[^/]+$/, NAMES[Math.floor(next() * NAMES.length)] as string) : randomPath(next);
    if (to === pick) return;
    mkdirSync(dirname(join(dir, to)), { recursive: true });
    renameSync(join(dir, pick), join(dir, to));
    files.delete(pick);
    files.add(to);
  }
}

/** The prompt and the tree compiled from scratch from git's listing and every markdown blob. */
async function fromScratch(runner: ReturnType<typeof createGitRunner>, dir: string, limits: TreeLimits) {
  const snap = await readCommittedSnapshot(runner, dir);
  const files = snap.paths.map((path) => ({ path, content: snap.markdown.get(path) ?? '' }));
  const prompt = compilePrompt(files, { mode: 'local-memfs', treeLimits: limits, revision: snap.revision ?? '' });
  const entries = files.map((f) => {
    const description = f.path.endsWith('.md') ? summarizeMarkdown(f.content).description : '';
    return description ? { path: f.path, description } : { path: f.path };
  });
  return { prompt, tree: renderTree(entries, limits, { alwaysShow: ['system'] }) };
}

describe('the read cache moving between commits', () => {
  it('renders like a from-scratch compile after every random step (seeded, with gc and a damaged cache)', async () => {
    for (const seed of [11, 12, 13]) {
      const dir = makeTmpDir('gitmem-read-moves-');
      const env = hermeticGitEnv(dir);
      const runner = createGitRunner({ env });
      git(dir, ['init', '-q'], env);
      const files = new Set<string>();
      const next = rng(seed);
      let reads = await freshReads();
      for (let step = 0; step < 36; step++) {
        const changes = 1 + Math.floor(next() * 3);
        for (let i = 0; i < changes; i++) change(dir, files, next, step);
        git(dir, ['add', '-A'], env);
        git(dir, ['commit', '-q', '--allow-empty', '-m', `step ${step}`], env);
        if (step % 9 === 8) git(dir, ['gc', '-q', '--prune=now'], env);
        if (step % 12 === 11 && existsSync(readCachePath(join(dir, '.git')))) {
          truncateSync(readCachePath(join(dir, '.git')), 100);
          reads = await freshReads();
        }
        if (step % 12 === 5) reads = await freshReads(); // a new process: the (older) cache file moves by the diff
        const limits = step % 2 === 0 ? DEFAULT_TREE_LIMITS : SMALL;
        const want = await fromScratch(runner, dir, limits);
        const readPrompt = () => reads.readPrompt(runner, dir, { mode: 'local-memfs', treeLimits: limits });
        const readTree = () => reads.readTree(runner, dir, limits);
        // Racing (the second read finds the snapshot moved by the first) or one after the other, either order.
        const order = step % 3;
        let prompt: string;
        let tree: string;
        if (order === 0) [prompt, tree] = await Promise.all([readPrompt(), readTree()]);
        else if (order === 1) [prompt, tree] = [await readPrompt(), await readTree()];
        else [tree, prompt] = [await readTree(), await readPrompt()];
        expect(prompt, `seed ${seed} step ${step}`).toBe(want.prompt);
        expect(tree, `seed ${seed} step ${step}`).toBe(want.tree);
      }
    }
  }, 60_000);

  it('places only the changed paths again at a new commit (the views catch up, they are not rebuilt)', async () => {
    const dir = makeTmpDir('gitmem-read-moves-');
    const env = hermeticGitEnv(dir);
    const runner = createGitRunner({ env });
    git(dir, ['init', '-q'], env);
    for (let i = 0; i < 200; i++) {
      mkdirSync(join(dir, `d${i % 7}`), { recursive: true });
      writeFileSync(join(dir, `d${i % 7}/f${i}.md`), `---\ndescription: file ${i}\n---\n`);
    }
    git(dir, ['add', '-A'], env);
    git(dir, ['commit', '-q', '-m', 'many'], env);
    const reads = await freshReads();
    const { TreeModel } = await import('../../../src/blocks/tree-model.js'); // the instance prompt-read uses
    const set = vi.spyOn(TreeModel.prototype, 'set');
    await reads.readPrompt(runner, dir, { mode: 'local-memfs' });
    await reads.readTree(runner, dir, DEFAULT_TREE_LIMITS);
    expect(set.mock.calls.length).toBeGreaterThanOrEqual(400); // built once: every file, in both views
    writeFileSync(join(dir, 'd3/f3.md'), '---\ndescription: changed\n---\n');
    rmSync(join(dir, 'd4/f4.md'));
    git(dir, ['commit', '-q', '-am', 'one edit, one delete'], env);
    set.mockClear();
    expect(await reads.readPrompt(runner, dir, { mode: 'local-memfs' })).toContain('f3.md — changed');
    expect(await reads.readTree(runner, dir, DEFAULT_TREE_LIMITS)).not.toContain('f4.md');
    expect(set.mock.calls.map((c) => c[0]).sort()).toEqual(['d3/f3.md', 'd3/f3.md']);
    set.mockRestore();
  });
});
