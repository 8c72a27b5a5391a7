// Anthropic's memory tool backed by git, against the SDK's own: a seeded sequence of 500 mixed commands on
// .md, .txt and .json files (views with ranges, creates, str_replace unique/ambiguous/missing, inserts at the top,
// the end, inside and out of range, deletes, renames onto existing names and across extensions, texts with and
// without frontmatter, CRLF, a BOM) runs through @anthropic-ai/sdk's BetaLocalFilesystemMemoryTool in a temp dir
// and through gitmem's handlers over a real memory; every answer must be the same string, every file the model
// changed must view the same, every change is one commit, and no error names anything but the tool's own
// parameters. The only differences allowed are git's (a directory's size, no empty directories) and the file
// system's own errors (which name the SDK's temp paths); gitmem's refusals are pinned in adapter-anthropic.test.ts.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { betaMemoryTool } from '@anthropic-ai/sdk/helpers/beta/memory';
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node';
import { afterAll, describe, expect, it } from 'vitest';
import { tryParseMemoryFile } from '../../../src/blocks/frontmatter.js';
import { createAnthropicMemoryHandlers } from '../../../src/adapters/anthropic/index.js';
import { rng } from '../../helpers/rng.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';

type Call = Record<string, unknown> & { command: string };

const COMMANDS = 500;
const TAGS = [
  'create',
  'delete',
  'insert',
  'insert end',
  'insert out of range',
  'insert top',
  'rename',
  'rename across extensions',
  'rename dir',
  'str_replace',
  'str_replace gains frontmatter',
  'str_replace loses frontmatter',
  'view',
  'view dir',
  'view range',
];
const DIRS = ['', 'notes', 'notes/deep', 'projects', 'archive'];
const NAMES = ['a', 'b', 'todo', 'log'];
const EXTS = ['.md', '.txt', '.json'];
const WORDS = [
  'alpha',
  'beta',
  'tea',
  'green',
  'plan',
  'x',
  'y',
  '$&',
  '$1',
  '---',
  '#',
  'café',
  '日本',
  '🙂',
  'a b',
  '  indented',
  '\ttab',
  'description: z',
];
/** Names of gitmem's own tools and their parameters: never in an error the model sees. */
const FOREIGN =
  /memory_apply_patch|memory_view|memory_search|update_description|file_path|old_string|new_string|replace_all|'reason'|'input'|\(reason\)/;

/** The generator: a seeded choice of command and arguments from what the SDK's directory holds now. */
function generator(seed: number) {
  const r = rng(seed);
  const int = (n: number): number => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const words = (): string => Array.from({ length: 1 + int(3) }, () => pick(WORDS)).join(' ');
  const body = (max: number): string[] => Array.from({ length: int(max + 1) }, () => words());
  const text = (max = 5): string => {
    const lines = body(max);
    const end = r() < 0.6 ? '\n' : '';
    const roll = r();
    if (roll < 0.1) return `---\ndescription: ${pick(['Alpha notes', 'tea', 'x y'])}\n---\n${lines.join('\n')}${end}`;
    if (roll < 0.17) return `---\ntitle: ${words()}\n---\n${lines.join('\n')}${end}`;
    if (roll < 0.21) return `---\n${lines.join('\n')}${end}`;
    if (roll < 0.28) return lines.join('\r\n') + (end ? '\r\n' : '');
    if (roll < 0.32) return '';
    if (roll < 0.35) return `\ufeff${lines.join('\n')}${end}`;
    if (roll < 0.42) return `# ${words()}\n${lines.join('\n')}${end}`;
    if (roll < 0.46) return `{"k": "${pick(WORDS)}", "n": ${int(100)}}\n`;
    return lines.join('\n') + end;
  };
  const newPath = (): string => {
    const dir = pick(DIRS);
    return `/memories/${dir === '' ? '' : `${dir}/`}${pick(NAMES)}${pick(EXTS)}`;
  };
  const range = (n: number): [number, number] => {
    const a = pick([-1, 0, 1, 1, 2, Math.max(1, n - 1), n, n + 2]);
    return [a, pick([-1, -1, a, a + 1, n, n + 3, a - 1])];
  };
  return { r, int, pick, words, text, newPath, range };
}

/** Every file below the SDK's root (relative paths), the way git would list them. */
function sdkFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const p = rel ? `${rel}/${name}` : name;
    if (statSync(join(root, p)).isDirectory()) out.push(...sdkFiles(root, p));
    else out.push(p);
  }
  return out;
}

/** Git keeps no empty directory: the SDK's are removed after each command (a documented difference). */
function pruneEmptyDirs(root: string, rel = ''): void {
  for (const name of readdirSync(join(root, rel))) {
    const p = rel ? `${rel}/${name}` : name;
    if (!statSync(join(root, p)).isDirectory()) continue;
    pruneEmptyDirs(root, p);
    if (readdirSync(join(root, p)).length === 0) rmdirSync(join(root, p));
  }
}

/** The next command, from the SDK's current files and directories. */
function nextCall(g: ReturnType<typeof generator> & { root: string }, files: string[]): { call: Call; tag: string } {
  const { r, int, pick, text, newPath, range } = g;
  const dirs = [
    ...new Set(
      files.flatMap((f) =>
        f
          .split('/')
          .slice(0, -1)
          .map((_, i, a) => a.slice(0, i + 1).join('/')),
      ),
    ),
  ];
  const existing = (): string => (files.length > 0 && r() < 0.85 ? `/memories/${pick(files)}` : newPath());
  const content = (p: string): string => {
    try {
      return readFileSync(join(g.root, p.slice('/memories/'.length)), 'utf8');
    } catch {
      return '';
    }
  };
  const roll = r();
  if (roll < 0.14) {
    const path = existing();
    const lines = content(path).split('\n').length;
    return r() < 0.5
      ? { call: { command: 'view', path }, tag: 'view' }
      : { call: { command: 'view', path, view_range: range(lines) }, tag: 'view range' };
  }
  if (roll < 0.18)
    return {
      call: { command: 'view', path: `/memories${dirs.length > 0 && r() < 0.7 ? `/${pick(dirs)}` : ''}` },
      tag: 'view dir',
    };
  if (roll < 0.32)
    return { call: { command: 'create', path: r() < 0.8 ? newPath() : existing(), file_text: text() }, tag: 'create' };
  if (roll < 0.56) {
    const special = r();
    // Frontmatter gained (the first line, made the body under a new block) or lost (its key renamed), on a file it can happen to.
    const owning = files.filter((f) => content(`/memories/${f}`).split('description:').length === 2);
    if (special < 0.1 && owning.length > 0) {
      return {
        call: { command: 'str_replace', path: `/memories/${pick(owning)}`, old_str: 'description:', new_str: 'title:' },
        tag: 'str_replace loses frontmatter',
      };
    }
    const firstLine = (f: string): string => content(`/memories/${f}`).split('\n')[0] ?? '';
    const gaining = files.filter(
      (f) => firstLine(f) !== '' && content(`/memories/${f}`).split(firstLine(f)).length === 2,
    );
    if (special < 0.25 && gaining.length > 0) {
      const f = pick(gaining);
      return {
        call: {
          command: 'str_replace',
          path: `/memories/${f}`,
          old_str: firstLine(f),
          new_str: `---\ndescription: gained\n---\n${firstLine(f)}`,
        },
        tag: 'str_replace gains frontmatter',
      };
    }
    const path = existing();
    const lines = content(path).split('\n');
    const line = pick(lines);
    const chars = Array.from(line); // by code point: half an emoji is no text (gitmem refuses to store one)
    const start = int(chars.length);
    const part = (): string => chars.slice(start, start + 1 + int(6)).join('');
    const oldStr = pick([
      line,
      line,
      line,
      part(),
      part(),
      g.words(),
      `${line}\n${pick(lines)}`,
      '',
      'description: ',
      '---',
      'zzz',
    ]);
    return {
      call: { command: 'str_replace', path, old_str: oldStr, new_str: r() < 0.15 ? '' : text(2) },
      tag: 'str_replace',
    };
  }
  if (roll < 0.8) {
    const path = existing();
    const n = content(path).split('\n').length;
    const at = pick([0, 0, n, n, int(n + 1), int(n + 1), int(n + 1), -1, n + 1, n + 4]);
    const insertText = r() < 0.08 ? '---\ndescription: inserted\n---\n' : text(3);
    return {
      call: { command: 'insert', path, insert_line: at, insert_text: insertText },
      tag: at === 0 ? 'insert top' : at === n ? 'insert end' : at < 0 || at > n ? 'insert out of range' : 'insert',
    };
  }
  if (roll < 0.87) {
    const path = r() < 0.15 && dirs.length > 0 ? `/memories/${pick(dirs)}` : existing();
    return { call: { command: 'delete', path }, tag: 'delete' };
  }
  if (r() < 0.2 && dirs.length > 0) {
    const from = pick(dirs);
    const to =
      r() < 0.15 ? `${from}/${pick(['x', 'deep'])}` : pick(['moved', 'archive/old', 'projects', 'notes/deep/z']);
    return {
      call: { command: 'rename', old_path: `/memories/${from}`, new_path: `/memories/${to}` },
      tag: 'rename dir',
    };
  }
  const from = existing();
  const roll2 = r();
  const to = roll2 < 0.35 ? from.replace(/\.[a-z]+$/, pick(EXTS)) : roll2 < 0.5 ? existing() : newPath();
  return {
    call: { command: 'rename', old_path: from, new_path: to },
    tag: from.replace(/.*\./, '.') === to.replace(/.*\./, '.') ? 'rename' : 'rename across extensions',
  };
}

async function answer(tool: ReturnType<typeof betaMemoryTool>, call: Call): Promise<string> {
  try {
    return `ok: ${String(await tool.run(call as never, {} as never))}`;
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

/** A directory's size is the file system's in the SDK and the bytes below it in gitmem (a tree has none). */
const dirSizesOff = (out: string): string => {
  if (!out.startsWith("ok: Here're the files and directories")) return out;
  return out
    .split('\n')
    .map((l, i) => (i === 1 || l.endsWith('/') ? l.replace(/^[^\t]*\t/, '<dir>\t') : l))
    .join('\n');
};

/** The file system's own errors (ENOTDIR, EINVAL …) name the SDK's temp paths: only that both refuse is compared. */
const fsError = (out: string): boolean => /^error: E[A-Z]+: /.test(out);

afterAll(cleanupTmp);

describe('gitmem as the Anthropic memory tool, on a seeded random sequence', () => {
  it("answers 500 mixed commands on .md, .txt and .json files exactly as the SDK's filesystem tool does", async () => {
    const fx = await memoryFixture('anthropic-random');
    const base = makeTmpDir('gitmem-sdk-');
    const root = join(base, 'memories');
    for (const f of (await fx.memory.files()).files) {
      mkdirSync(join(root, f.path, '..'), { recursive: true });
      writeFileSync(join(root, f.path), (await fx.memory.read(f.path)).text);
    }
    const sdk = betaMemoryTool(await BetaLocalFilesystemMemoryTool.init(base));
    let commits = 0;
    const ours = betaMemoryTool(createAnthropicMemoryHandlers(fx.memory, { onCommit: () => void commits++ }));
    const g = Object.assign(generator(20250818), { root });
    const tags = new Map<string, { ok: number; error: number }>();
    const startCount = Number(git(fx.dir, ['rev-list', '--count', 'HEAD'], fx.env).trim());
    let expectedCommits = 0;
    const snapshot = (): string => JSON.stringify(sdkFiles(root).map((f) => [f, readFileSync(join(root, f), 'utf8')]));
    for (let i = 0; i < COMMANDS; i++) {
      const { call, tag } = nextCall(g, sdkFiles(root));
      const label = `#${i} ${tag} ${JSON.stringify(call)}`;
      const before = snapshot();
      const theirs = await answer(sdk, call);
      pruneEmptyDirs(root);
      const after = snapshot();
      const mine = await answer(ours, call);
      if (fsError(theirs)) expect(mine, label).toMatch(/^error: /);
      else expect(dirSizesOff(mine), label).toBe(dirSizesOff(theirs));
      if (mine.startsWith('error: ')) expect(mine, label).not.toMatch(FOREIGN);
      if (after !== before) expectedCommits++;
      const seen = tags.get(tag) ?? { ok: 0, error: 0 };
      seen[theirs.startsWith('ok: ') ? 'ok' : 'error']++;
      tags.set(tag, seen);
      expect(commits, `${label}: one commit per change`).toBe(expectedCommits);
      // Each file the command changed views the same on both sides.
      for (const p of [call['path'], call['new_path']]) {
        if (call.command === 'view' || typeof p !== 'string' || theirs.startsWith('error: ')) continue;
        const view = { command: 'view', path: p };
        expect(dirSizesOff(await answer(ours, view)), `${label}: then ${p}`).toBe(dirSizesOff(await answer(sdk, view)));
      }
    }
    // The sequence covers what it claims: each kind of command often, and each that can succeed succeeding.
    expect([...tags.keys()].sort()).toEqual(TAGS);
    const table = JSON.stringify([...tags]);
    for (const [tag, { ok, error }] of tags) {
      expect(ok + error, `${tag} exercised: ${table}`).toBeGreaterThanOrEqual(8);
      if (tag !== 'insert out of range') expect(ok, `${tag} succeeded: ${table}`).toBeGreaterThanOrEqual(4);
    }
    // Every file the model sees is the same, and every stored markdown file is a valid memory file.
    for (const f of sdkFiles(root)) {
      const view = { command: 'view', path: `/memories/${f}` };
      expect(await answer(ours, view), f).toBe(await answer(sdk, view));
    }
    for (const f of (await fx.memory.files()).files.filter((x) => x.path.endsWith('.md'))) {
      expect(tryParseMemoryFile((await fx.memory.read(f.path)).text)?.data['description'], f.path).toBeTruthy();
    }
    expect(Number(git(fx.dir, ['rev-list', '--count', 'HEAD'], fx.env).trim())).toBe(startCount + expectedCommits);
    expect(git(fx.dir, ['status', '--porcelain'], fx.env)).toBe('');
    git(fx.dir, ['fsck', '--strict', '--no-progress'], fx.env);
  }, 600_000);
});
