// Anthropic's memory tool backed by git: one scripted sequence of commands (every error case of the SDK's
// tool included) run through @anthropic-ai/sdk's own local-filesystem memory tool and through gitmem's
// handlers gives the same answers, string for string; every change is one commit. Real git on /dev/shm.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicMemoryHandlers, type AnthropicMemory } from '../../../src/adapters/anthropic/index.js';
import { HIDDEN_MARK } from '../../../src/adapters/anthropic/stored-text.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';

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
  {
    command: 'create',
    path: '/memories/notes/alpha.md',
    file_text: FM('Alpha notes', '# Alpha\nfirst line\nsecond line\n'),
  },
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
  {
    command: 'str_replace',
    path: '/memories/notes/alpha.md',
    old_str: 'description: Alpha notes',
    new_str: 'description: Alpha, revised',
  },
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
  return out
    .split('\n')
    .map((l, i) => (i === 1 || l.endsWith('/') ? l.replace(/^[^\t]*\t/, '<dir>\t') : l))
    .join('\n');
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
  it("answers a 69-command script exactly as the SDK's own filesystem tool does, one commit per change", async () => {
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

/** Names of gitmem's own tools and their parameters: never in an error the model sees. */
const FOREIGN =
  /memory_apply_patch|memory_view|memory_search|update_description|file_path|old_string|new_string|replace_all|'reason'|'input'|\(reason\)/;
const run = (tool: ReturnType<typeof betaMemoryTool>, call: Call): Promise<string> =>
  answer((a) => tool.run(a as never, {} as never), call);
const stored = async (path: string): Promise<string> => (await fx.memory.read(path)).text;

describe("the model's own lines under the Anthropic tool", () => {
  it('shows a markdown file written without frontmatter exactly as written, so the next insert lands at the line the model computed', async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory));
    expect(
      await run(tool, {
        command: 'create',
        path: '/memories/projects/alpha.md',
        file_text: 'intro line\n# Project Alpha\nbody\n',
      }),
    ).toBe('ok: File created successfully at: /memories/projects/alpha.md');
    expect(await run(tool, { command: 'view', path: '/memories/projects/alpha.md' })).toBe(
      "ok: Here's the content of /memories/projects/alpha.md with line numbers:\n     1\tintro line\n     2\t# Project Alpha\n     3\tbody\n     4\t",
    );
    expect(
      await run(tool, {
        command: 'insert',
        path: '/memories/projects/alpha.md',
        insert_line: 1,
        insert_text: 'second\n',
      }),
    ).toBe('ok: The file /memories/projects/alpha.md has been edited.');
    expect(await run(tool, { command: 'view', path: '/memories/projects/alpha.md', view_range: [2, 3] })).toBe(
      "ok: Here's the content of /memories/projects/alpha.md with line numbers:\n     2\tsecond\n     3\t# Project Alpha",
    );
    // Stored as a valid memory file: a block of gitmem's above the model's text, described by its first heading.
    expect(await stored('projects/alpha.md')).toBe(
      `---\ndescription: Project Alpha\n${HIDDEN_MARK}\n---\nintro line\nsecond\n# Project Alpha\nbody\n`,
    );
    expect((await fx.memory.read('projects/alpha.md')).frontmatter).toEqual({ description: 'Project Alpha' });
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('insert projects/alpha.md');
    expect(await run(tool, { command: 'view', path: '/memories/projects' })).toContain(
      '\t/memories/projects/alpha.md'.replace(
        /^/,
        `${Buffer.byteLength('intro line\nsecond\n# Project Alpha\nbody\n')}B`,
      ),
    );
  });

  it("keeps frontmatter the model writes as its own, and hides gitmem's again when an edit makes it invalid", async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory));
    const own = '---\ndescription: Beta notes\n---\nfirst\n';
    await run(tool, { command: 'create', path: '/memories/projects/beta.md', file_text: own });
    expect(await stored('projects/beta.md')).toBe(own);
    expect(
      await run(tool, {
        command: 'str_replace',
        path: '/memories/projects/beta.md',
        old_str: 'description:',
        new_str: 'title:',
      }),
    ).toMatch(/^ok: /);
    expect(await stored('projects/beta.md')).toBe(
      `---\ndescription: first\n${HIDDEN_MARK}\n---\n---\ntitle: Beta notes\n---\nfirst\n`,
    );
    expect(await run(tool, { command: 'view', path: '/memories/projects/beta.md', view_range: [1, 2] })).toBe(
      "ok: Here's the content of /memories/projects/beta.md with line numbers:\n     1\t---\n     2\ttitle: Beta notes",
    );
    // Valid again (the model's str_replace puts a description back): its own once more, gitmem's block gone.
    await run(tool, {
      command: 'str_replace',
      path: '/memories/projects/beta.md',
      old_str: 'title:',
      new_str: 'description:',
    });
    expect(await stored('projects/beta.md')).toBe(own);
    // A text gaining frontmatter at line 0 makes it the file's.
    await run(tool, { command: 'create', path: '/memories/projects/gamma.md', file_text: 'plain\n' });
    await run(tool, {
      command: 'insert',
      path: '/memories/projects/gamma.md',
      insert_line: 0,
      insert_text: '---\ndescription: Gamma\n---',
    });
    expect(await stored('projects/gamma.md')).toBe('---\ndescription: Gamma\n---\nplain\n');
  });

  it('moves a text between .md and .txt as the model sees it, the .md stored valid', async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory));
    await run(tool, { command: 'create', path: '/memories/moves/a.txt', file_text: 'just text' });
    expect(
      await run(tool, { command: 'rename', old_path: '/memories/moves/a.txt', new_path: '/memories/moves/a.md' }),
    ).toBe('ok: Successfully renamed /memories/moves/a.txt to /memories/moves/a.md');
    expect(await stored('moves/a.md')).toBe(`---\ndescription: just text\n${HIDDEN_MARK}\n---\njust text`);
    await run(tool, { command: 'rename', old_path: '/memories/moves/a.md', new_path: '/memories/moves/b.json' });
    expect(await stored('moves/b.json')).toBe('just text');
    expect(await run(tool, { command: 'view', path: '/memories/moves/b.json' })).toBe(
      "ok: Here's the content of /memories/moves/b.json with line numbers:\n     1\tjust text",
    );
  });

  it('keeps CRLF, a BOM and a final line end (or none) exactly, in plain and markdown files', async () => {
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory));
    await run(tool, { command: 'create', path: '/memories/crlf/a.txt', file_text: '\ufeffone\r\ntwo\r\n' });
    await run(tool, { command: 'insert', path: '/memories/crlf/a.txt', insert_line: 1, insert_text: 'mid\r\n' });
    expect(await stored('crlf/a.txt')).toBe('\ufeffone\r\nmid\r\ntwo\r\n');
    await run(tool, { command: 'create', path: '/memories/crlf/b.md', file_text: 'one\r\ntwo' });
    await run(tool, { command: 'str_replace', path: '/memories/crlf/b.md', old_str: 'two', new_str: 'two\nthree' });
    expect(await run(tool, { command: 'view', path: '/memories/crlf/b.md' })).toBe(
      "ok: Here's the content of /memories/crlf/b.md with line numbers:\n     1\tone\r\n     2\ttwo\n     3\tthree",
    );
    expect(await stored('crlf/b.md')).toBe(`---\ndescription: one\n${HIDDEN_MARK}\n---\none\r\ntwo\nthree`);
  });

  it("plans again when another writer changed the file in between, never losing that writer's lines", async () => {
    await fx.memory.tool({ command: 'create', reason: 'seed', file_path: 'race/a.txt', file_text: 'one\ntwo\n' });
    const writes: Array<() => Promise<unknown>> = [
      () =>
        fx.memory.tool({
          command: 'str_replace',
          reason: 'other writer',
          file_path: 'race/a.txt',
          old_string: 'one',
          new_string: 'ONE',
        }),
      () =>
        fx.memory.tool({
          command: 'insert',
          reason: 'other writer',
          file_path: 'race/a.txt',
          insert_line: 0,
          insert_text: 'zero',
        }),
    ];
    const racing: AnthropicMemory = {
      ...fx.memory,
      memoryDir: fx.memory.memoryDir,
      applyPatch: async (call) => (await writes.shift()?.(), fx.memory.applyPatch(call)),
    };
    const tool = betaMemoryTool(createAnthropicMemoryHandlers(racing));
    expect(
      await run(tool, { command: 'str_replace', path: '/memories/race/a.txt', old_str: 'two', new_str: 'TWO' }),
    ).toMatch(/^ok: The memory file has been edited/);
    expect(await stored('race/a.txt')).toBe('zero\nONE\nTWO\n');
    // A writer that always gets there first: the command gives up, in the tool's terms, with nothing written by it.
    const always: AnthropicMemory = {
      ...racing,
      applyPatch: async (call) => (
        await fx.memory.tool({
          command: 'insert',
          reason: 'other',
          file_path: 'race/a.txt',
          insert_line: 1,
          insert_text: 'x',
        }),
        fx.memory.applyPatch(call)
      ),
    };
    expect(
      await run(betaMemoryTool(createAnthropicMemoryHandlers(always)), {
        command: 'str_replace',
        path: '/memories/race/a.txt',
        old_str: 'TWO',
        new_str: 'two',
      }),
    ).toBe(
      'error: gitmem: /memories/race/a.txt changed while this command ran (another writer); nothing was written: view it and try again',
    );
    expect(await stored('race/a.txt')).toBe('zero\nx\nx\nx\nONE\nTWO\n');
  });

  it('takes the commit message the harness passes, and refuses what the memory rules refuse with the repository unchanged', async () => {
    const tool = betaMemoryTool(
      createAnthropicMemoryHandlers(fx.memory, { reason: (c) => `model: ${c.command} because the user asked` }),
    );
    await run(tool, { command: 'create', path: '/memories/projects/notes.txt', file_text: 'plain\n' });
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env).trim()).toBe('model: create because the user asked');
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    const token = ['ghp', '_', 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'].join('');
    expect(
      await run(tool, {
        command: 'insert',
        path: '/memories/projects/notes.txt',
        insert_line: 0,
        insert_text: `token ${token}`,
      }),
    ).toMatch(/^error: Refused: .*credential/);
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
  });
});

/**
 * Where gitmem answers differently from the SDK's filesystem tool, on purpose: each difference with the call, what
 * the SDK answers and gitmem's exact string (docs/library.md, "Anthropic's memory tool"). Everything else is the SDK's
 * answer, string for string (the script above and adapter-anthropic-random.test.ts).
 */
interface Difference {
  why: string;
  /** Run on both sides first (each must succeed on both), or a function that prepares both directories. */
  before?: Call[] | ((sdkRoot: string, repo: string) => void);
  call: Call;
  sdk: string | RegExp;
  gitmem: string | RegExp;
}

const TOKEN = ['ghp', '_', 'Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2'].join('');
const DIFFERENCES: Difference[] = [
  {
    why: 'a path through a symbolic link is refused, even one that stays inside /memories (gitmem never follows one)',
    before: (sdkRoot, repo) => {
      for (const root of [sdkRoot, repo]) {
        mkdirSync(join(root, 'real'), { recursive: true });
        writeFileSync(join(root, 'real', 'x.txt'), 'x');
        symlinkSync('real', join(root, 'alias'));
      }
      writeFileSync(join(repo, '.git', 'info', 'exclude'), 'alias\n'); // planted, not part of the memory
      git(repo, ['add', 'real'], fx2.env);
      git(repo, ['commit', '-qm', 'operator adds real/x.txt', '--no-verify'], fx2.env);
    },
    call: { command: 'view', path: '/memories/alias/x.txt' },
    sdk: "ok: Here's the content of /memories/alias/x.txt with line numbers:\n     1\tx",
    gitmem: 'error: Path would escape /memories directory via symlink',
  },
  {
    why: 'a name git reserves (a .git look-alike) is refused',
    call: { command: 'create', path: '/memories/notes/.GIT/config', file_text: 'x' },
    sdk: 'ok: File created successfully at: /memories/notes/.GIT/config',
    gitmem: "error: gitmem: 'path' is refused: component '.GIT' names git's own directory",
  },
  {
    why: 'what looks like a credential is refused, named by its line among the lines the model wrote',
    call: { command: 'create', path: '/memories/notes/keys.md', file_text: `# Keys\ntoken ${TOKEN}\n` },
    sdk: 'ok: File created successfully at: /memories/notes/keys.md',
    gitmem:
      'error: Refused: the change adds what looks like a credential (nothing was written):\n  /memories/notes/keys.md:2: SECRET_DETECTED: GitHub token (rule github-token, ghp_…(40 chars), ' +
      'fingerprint ff990275f152a311): memory must not hold credentials — remove it (and rotate it if it is real); if it is not a secret, an operator can allow it with `gitmem secrets allow ff990275f152a311`',
  },
  {
    why: 'a read_only file (an operator protected it) is not changed',
    before: (sdkRoot, repo) => {
      for (const root of [sdkRoot, repo])
        writeFileSync(join(root, 'locked.md'), '---\ndescription: locked\nread_only: true\n---\noperator text\n');
      git(repo, ['add', 'locked.md'], fx2.env);
      git(repo, ['commit', '-qm', 'operator', '--no-verify'], fx2.env);
    },
    call: { command: 'str_replace', path: '/memories/locked.md', old_str: 'operator', new_str: 'model' },
    sdk: /^ok: The memory file has been edited/,
    gitmem:
      'error: gitmem: /memories/locked.md is read_only and cannot be modified; an operator writes it with `gitmem protect write <path>`',
  },
  {
    why: "a plain file's text may not set read_only either",
    call: { command: 'create', path: '/memories/notes/ro.txt', file_text: '---\nread_only: true\n---\n' },
    sdk: 'ok: File created successfully at: /memories/notes/ro.txt',
    gitmem:
      "error: Frontmatter validation failed:\n  /memories/notes/ro.txt: 'read_only' is a protected field and cannot be set by the agent; an operator writes it with `gitmem protect write <path>`",
  },
  {
    why: 'memory files hold UTF-8 text: no NUL',
    call: { command: 'create', path: '/memories/notes/nul.txt', file_text: 'a\0b' },
    sdk: 'ok: File created successfully at: /memories/notes/nul.txt',
    gitmem: 'error: gitmem: `file_text` contains a NUL character, which memory files cannot hold',
  },
  {
    why: 'memory files hold UTF-8 text: no half of a character (the SDK stores U+FFFD instead)',
    before: [{ command: 'create', path: '/memories/notes/emoji.txt', file_text: 'ok 🙂\n' }],
    call: { command: 'str_replace', path: '/memories/notes/emoji.txt', old_str: '\ude42', new_str: '' },
    sdk: /^ok: The memory file has been edited/,
    gitmem:
      'error: gitmem: this edit would leave half of a character (a lone surrogate) in /memories/notes/emoji.txt, which memory files cannot hold',
  },
  {
    why: 'system/ has a token budget (it is in every prompt)',
    call: { command: 'create', path: '/memories/system/big.md', file_text: `${'word '.repeat(8000)}\n` },
    sdk: 'ok: File created successfully at: /memories/system/big.md',
    // The numbers are the starter files' and this one's estimated tokens.
    gitmem: new RegExp(
      '^error: Refused: the change grows memory past its budget \\(nothing was written\\):\\n  /memories/system/big\\.md: BUDGET_EXCEEDED: system/ would hold ~[0-9,]+ tokens, over its budget of 8,000 ' +
        '\\(this file ~[0-9,]+ tokens, \\+[0-9,]+\\): everything in system/ is in every prompt — move detail out of system/ into other files \\(listed in the tree, read on demand\\)$',
    ),
  },
  {
    why: 'a change is at most 2,000,000 characters of old and new text',
    call: { command: 'create', path: '/memories/notes/huge.txt', file_text: 'x'.repeat(2_000_001) },
    sdk: 'ok: File created successfully at: /memories/notes/huge.txt',
    gitmem:
      'error: gitmem: the change to /memories/notes/huge.txt is too large for one commit (at most 2,000,000 characters of old and new text together)',
  },
  {
    why: "a name without an extension is the markdown file <name>.md (gitmem's rule on every surface)",
    before: [{ command: 'create', path: '/memories/plain/readme', file_text: 'hi\n' }],
    call: { command: 'view', path: '/memories/plain' },
    sdk: /\t\/memories\/plain\/readme$/,
    gitmem: /\t\/memories\/plain\/readme\.md$/,
  },
  {
    why: 'a name may not end in white space (gitmem trims paths)',
    call: { command: 'create', path: '/memories/notes/trail.txt ', file_text: 'x' },
    sdk: 'ok: File created successfully at: /memories/notes/trail.txt ',
    gitmem: "error: gitmem: 'path' is refused: a name may not end in white space",
  },
  {
    why: 'git keeps no empty directory',
    before: [
      { command: 'create', path: '/memories/gone/a.txt', file_text: 'a' },
      { command: 'delete', path: '/memories/gone/a.txt' },
    ],
    call: { command: 'view', path: '/memories/gone' },
    sdk: /^ok: Here're the files and directories up to 2 levels deep in \/memories\/gone/,
    gitmem: 'error: The path /memories/gone does not exist. Please provide a valid path.',
  },
  {
    why: "a directory's size is the bytes of the files below it (a tree has no size of its own)",
    before: [{ command: 'create', path: '/memories/sized/a.txt', file_text: 'abc' }],
    call: { command: 'view', path: '/memories/sized' },
    sdk: /^ok: Here're the files and directories up to 2 levels deep in \/memories\/sized, excluding hidden items and node_modules:\n\S+\t\/memories\/sized\n3B\t\/memories\/sized\/a\.txt$/,
    gitmem:
      "ok: Here're the files and directories up to 2 levels deep in /memories/sized, excluding hidden items and node_modules:\n3B\t/memories/sized\n3B\t/memories/sized/a.txt",
  },
  {
    why: 'a long view is cut at 4,000 lines (or 160,000 characters), and says how to see the rest',
    before: [{ command: 'create', path: '/memories/notes/long.txt', file_text: 'line\n'.repeat(4100) }],
    call: { command: 'view', path: '/memories/notes/long.txt' },
    sdk: /^ok: Here's the content of \/memories\/notes\/long\.txt with line numbers:\n(?: {5}1\tline\n)[\s\S]* 4101\t$/,
    gitmem: /\n {2}4000\tline\n\[truncated: lines 1-4000 of 4101 shown; view_range \[4001, -1\] shows the rest\]$/,
  },
  {
    why: "a path below a file (the SDK fails with its file system's error)",
    before: [{ command: 'create', path: '/memories/notes/f.txt', file_text: 'f' }],
    call: { command: 'create', path: '/memories/notes/f.txt/g.txt', file_text: 'g' },
    sdk: /^error: E(NOTDIR|EXIST): /,
    gitmem: 'error: gitmem: /memories/notes/f.txt is a file, so /memories/notes/f.txt/g.txt cannot be created',
  },
  {
    why: "a directory into itself (the SDK fails with its file system's error)",
    before: [{ command: 'create', path: '/memories/tree/a.txt', file_text: 'a' }],
    call: { command: 'rename', old_path: '/memories/tree', new_path: '/memories/tree/sub' },
    sdk: /^error: EINVAL: /,
    gitmem: 'error: gitmem: cannot move /memories/tree into itself (/memories/tree/sub)',
  },
];

let fx2: MemoryFixture;
describe("gitmem's answers that differ from the SDK's, on purpose", () => {
  it.each(DIFFERENCES.map((d) => [d.why, d] as const))('%s', async (_why, d) => {
    fx2 ??= await memoryFixture('anthropic-differences');
    const base = makeTmpDir('gitmem-sdk-');
    const root = join(base, 'memories');
    mkdirSync(root, { recursive: true });
    if (typeof d.before === 'function') d.before(root, fx2.dir);
    const sdk = betaMemoryTool(await BetaLocalFilesystemMemoryTool.init(base));
    const ours = betaMemoryTool(createAnthropicMemoryHandlers(fx2.memory));
    for (const call of Array.isArray(d.before) ? d.before : []) {
      expect(await run(sdk, call)).toMatch(/^ok: /);
      expect(await run(ours, call)).toMatch(/^ok: /);
    }
    const head = git(fx2.dir, ['rev-parse', 'HEAD'], fx2.env);
    const theirs = await run(sdk, d.call);
    const mine = await run(ours, d.call);
    if (typeof d.sdk === 'string') expect(theirs).toBe(d.sdk);
    else expect(theirs).toMatch(d.sdk);
    if (typeof d.gitmem === 'string') expect(mine).toBe(d.gitmem);
    else expect(mine).toMatch(d.gitmem);
    expect(mine).not.toMatch(FOREIGN);
    if (mine.startsWith('error: ')) expect(git(fx2.dir, ['rev-parse', 'HEAD'], fx2.env)).toBe(head);
    expect(git(fx2.dir, ['status', '--porcelain'], fx2.env)).toBe('');
  });
});
