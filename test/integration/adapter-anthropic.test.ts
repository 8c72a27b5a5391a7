// Anthropic's memory tool backed by git: one scripted sequence of commands (every error case of the SDK's
// tool included) run through @anthropic-ai/sdk's own local-filesystem memory tool and through gitmem's
// handlers gives the same answers, string for string; every change is one commit. Real git on /dev/shm.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicMemoryHandlers } from '../../src/adapters/anthropic/index.js';
import { cleanupTmp, git, makeTmpDir } from '../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../helpers/memory-fixture.js';

type Call = Record<string, unknown> & { command: string };

const FM = (d: string, body: string): string => `---\ndescription: ${d}\n---\n${body}`;

/** The script: ≥ 40 commands, each SDK refusal at least once. */
const SCRIPT: Call[] = [
  { command: 'view', path: '/memories' },
  { command: 'view', path: '/memories/system/human.md' },
  { command: 'view', path: '/memories/system/human.md', view_range: [1, 2] },
  { command: 'view', path: '/memories/system/human.md', view_range: [2, -1] },
  { command: 'view', path: '/memories/system/human.md', view_range: [0, 3] },
  { command: 'view', path: '/memories/system/human.md', view_range: [50, -1] },
  { command: 'view', path: '/memories/system/human.md', view_range: [3, 1] },
  { command: 'view', path: '/memories/nope.md' },
  { command: 'view', path: '/etc/passwd' },
  { command: 'view', path: '/memories/../outside.txt' },
  { command: 'create', path: '/memories/notes/todo.txt', file_text: 'one\ntwo\nthree\n' },
  { command: 'create', path: '/memories/notes/todo.txt', file_text: 'again' },
  { command: 'create', path: '/memories', file_text: 'x' },
  { command: 'create', path: '/memories/../x.txt', file_text: 'x' },
  { command: 'create', path: '/memories/notes/alpha.md', file_text: FM('Alpha notes', '# Alpha\nfirst line\nsecond line\n') },
  { command: 'create', path: '/memories/notes/dup.txt', file_text: 'x a\nx b\nx c\n' },
  { command: 'create', path: '/memories/notes/twice.txt', file_text: 'aa aa\nbb\n' },
  { command: 'create', path: '/memories/raw.txt', file_text: 'a\nb' },
  { command: 'create', path: '/memories/deep/er/still/data.json', file_text: '{"k": 1}\n' },
  { command: 'view', path: '/memories/notes' },
  { command: 'view', path: '/memories/notes/todo.txt' },
  { command: 'str_replace', path: '/memories/notes/todo.txt', old_str: 'two', new_str: 'TWO' },
  { command: 'str_replace', path: '/memories/notes/todo.txt', old_str: 'zzz', new_str: 'y' },
  { command: 'str_replace', path: '/memories/notes/dup.txt', old_str: 'x', new_str: 'y' },
  { command: 'str_replace', path: '/memories/notes/twice.txt', old_str: 'aa', new_str: 'c$&c' },
  { command: 'str_replace', path: '/memories/notes/todo.txt', old_str: 'one\nTWO', new_str: 'q' },
  { command: 'str_replace', path: '/memories/notes', old_str: 'a', new_str: 'b' },
  { command: 'str_replace', path: '/memories/missing.txt', old_str: 'a', new_str: 'b' },
  { command: 'str_replace', path: '/memories/notes/alpha.md', old_str: 'first line', new_str: 'FIRST line' },
  { command: 'str_replace', path: '/memories/../etc/x', old_str: 'a', new_str: 'b' },
  { command: 'insert', path: '/memories/notes/todo.txt', insert_line: 0, insert_text: 'zero' },
  { command: 'insert', path: '/memories/notes/todo.txt', insert_line: 4, insert_text: 'four\n' },
  { command: 'insert', path: '/memories/notes/todo.txt', insert_line: -1, insert_text: 'bad' },
  { command: 'insert', path: '/memories/notes/todo.txt', insert_line: 99, insert_text: 'bad' },
  { command: 'insert', path: '/memories/notes/alpha.md', insert_line: 5, insert_text: 'inserted\n' },
  { command: 'insert', path: '/memories/raw.txt', insert_line: 2, insert_text: 'c' },
  { command: 'insert', path: '/memories/missing.txt', insert_line: 0, insert_text: 'x' },
  { command: 'insert', path: '/memories/notes', insert_line: 0, insert_text: 'x' },
  { command: 'view', path: '/memories/notes/todo.txt' },
  { command: 'view', path: '/memories/notes/alpha.md' },
  { command: 'view', path: '/memories/raw.txt', view_range: [2, 3] },
  { command: 'str_replace', path: '/memories/notes/alpha.md', old_str: 'description: Alpha notes', new_str: 'description: Alpha, revised' },
  { command: 'view', path: '/memories/notes/alpha.md', view_range: [1, 4] },
  { command: 'create', path: '/memories/empty.txt', file_text: '' },
  { command: 'view', path: '/memories/empty.txt' },
  { command: 'insert', path: '/memories/empty.txt', insert_line: 0, insert_text: 'now one line' },
  { command: 'view', path: '/memories/empty.txt' },
  { command: 'rename', old_path: '/memories/notes/todo.txt', new_path: '/memories/archive/done.txt' },
  { command: 'rename', old_path: '/memories/notes/dup.txt', new_path: '/memories/archive/done.txt' },
  { command: 'rename', old_path: '/memories/notes/ghost.txt', new_path: '/memories/archive/ghost.txt' },
  { command: 'rename', old_path: '/memories', new_path: '/memories/elsewhere' },
  { command: 'rename', old_path: '/memories/raw.txt', new_path: '/memories' },
  { command: 'rename', old_path: '/memories/raw.txt', new_path: '/memories/../raw.txt' },
  { command: 'view', path: '/memories/archive/done.txt' },
  { command: 'rename', old_path: '/memories/deep', new_path: '/memories/moved/here' },
  { command: 'view', path: '/memories/moved' },
  { command: 'view', path: '/memories/moved/here/er/still/data.json' },
  { command: 'delete', path: '/memories' },
  { command: 'delete', path: '/memories/ghost.md' },
  { command: 'delete', path: '/memories/../ghost.md' },
  { command: 'delete', path: '/memories/notes/twice.txt' },
  { command: 'create', path: '/memories/old/a.txt', file_text: 'a\n' },
  { command: 'create', path: '/memories/old/b.txt', file_text: 'b\n' },
  { command: 'delete', path: '/memories/old' },
  { command: 'view', path: '/memories/old' },
  { command: 'view', path: '/memories', view_range: [1, 2] },
  { command: 'view', path: '/memoriesX/y.txt' },
  { command: 'view', path: '/memories/link/secret.txt' },
  { command: 'create', path: '/memories/link/planted.txt', file_text: 'x' },
];

/** A directory's size is the file system's in the SDK and the bytes below it in gitmem (a tree has none). */
const dirSizesOff = (out: string): string => {
  if (!out.startsWith("ok: Here're the files and directories")) return out;
  return out.split('\n').map((l, i) => (i === 1 || l.endsWith('/') ? l.replace(/^[^\t]*\t/, '<dir>\t') : l)).join('\n');
};

async function answer(run: (args: Call) => unknown, call: Call): Promise<string> {
  try {
    return `ok: ${String(await run(call))}`;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

let fx: MemoryFixture;
let sdkRoot: string;
beforeAll(async () => {
  fx = await memoryFixture('anthropic');
  const base = makeTmpDir('gitmem-sdk-');
  sdkRoot = join(base, 'memories');
  for (const f of (await fx.memory.files()).files) {
    mkdirSync(join(sdkRoot, f.path, '..'), { recursive: true });
    writeFileSync(join(sdkRoot, f.path), (await fx.memory.read(f.path)).text);
  }
  // A link out of the root, on both sides: the SDK refuses it; git never has it (gitmem never follows one).
  const outside = makeTmpDir('gitmem-outside-');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(sdkRoot, 'link'));
  symlinkSync(outside, join(fx.dir, 'link'));
  writeFileSync(join(fx.dir, '.git', 'info', 'exclude'), 'link\n'); // planted, not part of the memory
});
afterAll(cleanupTmp);

describe('gitmem as the Anthropic memory tool', () => {
  it('answers a 69-command script exactly as the SDK\'s own filesystem tool does, one commit per change', async () => {
    expect(SCRIPT.length).toBeGreaterThanOrEqual(40);
    const sdk = betaMemoryTool(await BetaLocalFilesystemMemoryTool.init(join(sdkRoot, '..')));
    const commits: string[] = [];
    const ours = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory, { onCommit: (c) => commits.push(c.commit) }));
    const count = (): number => Number(git(fx.dir, ['rev-list', '--count', 'HEAD'], fx.env).trim());
    let before = count();
    for (const [i, call] of SCRIPT.entries()) {
      const theirs = await answer((a) => sdk.run(a as never, {} as never), call);
      const mine = await answer((a) => ours.run(a as never, {} as never), call);
      expect(dirSizesOff(mine), `#${i} ${JSON.stringify(call)}`).toBe(dirSizesOff(theirs));
      const now = count();
      const changed = call.command !== 'view' && mine.startsWith('ok: ');
      expect(now - before, `#${i} commits`).toBe(changed ? 1 : 0);
      before = now;
    }
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    git(fx.dir, ['fsck', '--strict', '--no-progress'], fx.env);
    expect(commits.length).toBeGreaterThan(10);
  });
});

describe('gitmem rules under the Anthropic tool', () => {
  it('gives a markdown file created without frontmatter one (description from its first heading), commit message <command> <path>', async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory));
    expect(await tool.run({ command: 'create', path: '/memories/projects/alpha.md', file_text: 'intro line\n# Project Alpha\nbody\n' } as never, {} as never)).toBe(
      'File created successfully at: /memories/projects/alpha.md',
    );
    expect((await fx.memory.read('projects/alpha.md')).text).toBe('---\ndescription: Project Alpha\n---\nintro line\n# Project Alpha\nbody\n');
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('create projects/alpha.md');
    await tool.run({ command: 'create', path: '/memories/projects/notes.txt', file_text: 'plain\n' } as never, {} as never);
    expect((await fx.memory.read('projects/notes.txt')).text).toBe('plain\n');
  });

  it('takes the commit message the harness passes, and refuses what the memory rules refuse with the repository unchanged', async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory, { reason: (c) => `model: ${c.command} because the user asked` }));
    await tool.run({ command: 'str_replace', path: '/memories/projects/notes.txt', old_str: 'plain', new_str: 'kept' } as never, {} as never);
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('model: str_replace because the user asked');
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    const token = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    await expect(tool.run({ command: 'insert', path: '/memories/projects/notes.txt', insert_line: 0, insert_text: `token ${token}` } as never, {} as never)).rejects.toThrow(/secret/i);
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  });
});
