/**
 * memory.search through the library: HEAD and older revisions, ranking, limits, globs, lines, hostile
 * queries, incremental updates that read only new blobs, and an index that lives under the git dir.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const create = (path: string, description: string, text: string) => ({
  command: 'create',
  reason: `add ${path}`,
  file_path: path,
  description,
  file_text: text,
});
const indexFile = (dir: string) => join(dir, '.git', 'gitmem', 'search', 'index-v3.sqlite');
function ingested(dir: string): number {
  const db = new Database(indexFile(dir), { readonly: true });
  try {
    return Number(db.prepare("SELECT value FROM meta WHERE key = 'ingested'").pluck().get());
  } finally {
    db.close();
  }
}

describe('memory.search', () => {
  it('finds a fact at HEAD, and a deleted fact only at the older commit', async () => {
    const { memory, dir } = await memoryFixture();
    await memory.tool(
      create('notes/coffee.md', 'drinks the user likes', 'The user drinks flat white coffee.\nNo sugar.'),
    );
    const before = git(dir, ['rev-parse', 'HEAD']);
    await memory.tool({ command: 'delete', reason: 'forget', file_path: 'notes/coffee.md' });
    expect(await memory.search('flat white')).toEqual([]);
    const old = await memory.search('flat white', { at: before });
    expect(old.map((h) => h.path)).toEqual(['notes/coffee.md']);
    expect(old[0]).toMatchObject({
      line: 4,
      snippet: 'The user drinks flat white coffee.',
      description: 'drinks the user likes',
    });
    expect(old[0]?.score).toBeGreaterThan(0);
    expect((await memory.search('flat white', { at: 'HEAD~1' })).map((h) => h.path)).toEqual(['notes/coffee.md']);
    expect(await memory.search('flat white')).toEqual([]); // the older search did not move HEAD's map
  });

  it('ranks, folds case and accents, matches the last word as a prefix and phrases as written', async () => {
    const { memory } = await memoryFixture();
    await memory.tool(create('notes/a.md', 'travel', 'Trip to Zürich in MAY.\nHotel near the lake.'));
    await memory.tool(create('notes/b.md', 'zurich office', 'The office is in zurich; zurich again.'));
    await memory.tool(create('notes/c.md', 'other', 'near hotel: nothing'));
    const hits = await memory.search('zurich');
    expect(hits.map((h) => h.path)).toEqual(['notes/b.md', 'notes/a.md']);
    expect((await memory.search('ZÜRI')).map((h) => h.path).sort()).toEqual(['notes/a.md', 'notes/b.md']);
    expect((await memory.search('"hotel near"')).map((h) => h.path)).toEqual(['notes/a.md']);
    expect((await memory.search('"near hotel"')).map((h) => h.path)).toEqual(['notes/c.md']);
    expect((await memory.search('"hotel lake"')).map((h) => h.path)).toEqual([]);
    expect(hits[1]).toMatchObject({ line: 4, snippet: 'Trip to Zürich in MAY.' });
  });

  it('boosts the description and reports its line when only the description matches', async () => {
    const { memory } = await memoryFixture();
    await memory.tool(create('notes/body.md', 'misc', 'passwords are kept in the vault. passwords.'));
    await memory.tool(create('notes/desc.md', 'where passwords live', 'see the vault'));
    const hits = await memory.search('passwords');
    expect(hits[0]).toMatchObject({ path: 'notes/desc.md', line: 2, snippet: 'description: where passwords live' });
  });

  it('applies limit and path globs, and refuses bad options', async () => {
    const { memory } = await memoryFixture();
    for (let i = 0; i < 14; i++)
      await memory.tool(create(`${i % 2 ? 'notes' : 'logs/2024'}/f${i}.md`, `file ${i}`, `marker word ${i}`));
    expect(await memory.search('marker')).toHaveLength(10);
    expect(await memory.search('marker', { limit: 3 })).toHaveLength(3);
    expect(await memory.search('marker', { limit: 100 })).toHaveLength(14);
    const notes = await memory.search('marker', { paths: 'notes/**', limit: 100 });
    expect(notes).toHaveLength(7);
    expect(notes.every((h) => h.path.startsWith('notes/'))).toBe(true);
    expect(await memory.search('marker', { paths: 'logs', limit: 100 })).toHaveLength(7);
    expect(await memory.search('marker', { paths: ['notes/f1.md', 'logs/*/f0.md'] })).toHaveLength(2);
    for (const bad of [
      { limit: 0 },
      { limit: 101 },
      { limit: 2.5 },
      { paths: [] },
      { paths: 'x['.padEnd(2000, 'a') },
      { mode: 'magic' },
      { at: '--all' },
      { bogus: 1 },
    ]) {
      await expect(memory.search('marker', bad as never), JSON.stringify(bad).slice(0, 60)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    }
    await expect(memory.search('marker', { at: 'no-such-branch' })).rejects.toMatchObject({ code: 'UNKNOWN_REVISION' });
  });

  it('treats hostile queries as words: FTS syntax, a 1 MB query, NUL, lone surrogates', async () => {
    const { memory } = await memoryFixture();
    await memory.tool(create('notes/x.md', 'x', 'NEAR the column body: OR AND NOT "quoted" stars*'));
    for (const q of [
      'body:',
      'NEAR(',
      '"',
      '"""',
      '*',
      'NOT',
      'a OR',
      '^body',
      '(((',
      "'); DROP TABLE blobs; --",
      '{body}: x',
      '-body',
      'col* : "x',
    ]) {
      const hits = await memory.search(q);
      expect(Array.isArray(hits), q).toBe(true);
    }
    expect((await memory.search('NOT', { paths: 'notes' })).map((h) => h.path)).toEqual(['notes/x.md']);
    expect((await memory.search('body:')).map((h) => h.path)).toEqual(['notes/x.md']);
    expect((await memory.search('stars*')).map((h) => h.path)).toEqual(['notes/x.md']);
    await expect(memory.search('x'.repeat(1_000_000))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(memory.search('a\0b')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(memory.search('a\ud800')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(memory.search('   ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(memory.search(42 as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await memory.search('!!! ???')).toEqual([]);
    expect(await memory.search('quoted')).toHaveLength(1); // the index still answers
  });

  it('re-indexes only the blobs a write changed, and the same blob once whatever its paths', async () => {
    const { memory, dir } = await memoryFixture();
    for (let i = 0; i < 5; i++) await memory.tool(create(`notes/n${i}.md`, `note ${i}`, `content number ${i}`));
    await memory.search('content');
    const base = ingested(dir);
    await memory.tool({
      command: 'str_replace',
      reason: 'edit',
      file_path: 'notes/n2.md',
      old_string: 'number 2',
      new_string: 'number two',
    });
    expect((await memory.search('two')).map((h) => h.path)).toEqual(['notes/n2.md']);
    expect(ingested(dir)).toBe(base + 1);
    // A raw shell commit of a copy: a new path, a known blob → nothing new to read.
    writeFileSync(join(dir, 'notes/copy.md'), git(dir, ['show', 'HEAD:notes/n2.md']) + '\n');
    git(dir, ['add', 'notes/copy.md']);
    git(dir, ['commit', '-q', '-m', 'copy']);
    expect((await memory.search('two')).map((h) => h.path)).toEqual(['notes/copy.md', 'notes/n2.md']);
    expect(ingested(dir)).toBe(base + 1);
  });

  it('keeps the index under the git dir, never in the work tree, and rebuilds it when deleted or corrupt', async () => {
    const { memory, dir } = await memoryFixture();
    await memory.tool(create('notes/k.md', 'k', 'kiwi fruit'));
    expect((await memory.search('kiwi')).map((h) => h.path)).toEqual(['notes/k.md']);
    expect(existsSync(indexFile(dir))).toBe(true);
    expect(git(dir, ['status', '--porcelain', '--ignored'])).toBe('');
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(indexFile(dir) + suffix)) writeFileSync(indexFile(dir) + suffix, 'garbage '.repeat(4096));
    expect((await memory.search('kiwi')).map((h) => h.path)).toEqual(['notes/k.md']);
    expect((await memory.search('kiwi')).map((h) => h.path)).toEqual(['notes/k.md']);
  });

  it('skips binaries, non-UTF-8 and huge files, and indexes only markdown and text', async () => {
    const { memory, dir } = await memoryFixture();
    writeFileSync(join(dir, 'notes.txt'), 'plain text zebra\n');
    writeFileSync(join(dir, 'data.json'), '{"zebra": 1}\n');
    writeFileSync(join(dir, 'bin.md'), Buffer.from([0x7a, 0x65, 0x62, 0x72, 0x61, 0, 1, 2]));
    writeFileSync(join(dir, 'latin1.md'), Buffer.from('zebra caf\xe9\n', 'latin1'));
    writeFileSync(join(dir, 'huge.md'), `zebra ${'x'.repeat(1_100_000)}\n`);
    git(dir, ['add', '.']);
    git(dir, ['commit', '-q', '--no-verify', '-m', 'raw files']);
    expect((await memory.search('zebra')).map((h) => h.path)).toEqual(['notes.txt']);
  });

  // A first build reads a clean checkout's files instead of inflating objects: only bytes that are the blob count.
  it.each(['loose', 'packed'])(
    'indexes what the commit holds, whatever the work tree holds meanwhile (%s objects)',
    async (kind) => {
      const { memory, dir } = await memoryFixture();
      const outside = join(dir, '..', `outside-${kind}`);
      mkdirSync(outside, { recursive: true });
      for (const name of ['edited', 'linked', 'fifo', 'dirlink/inner', 'gone']) {
        mkdirSync(join(dir, 'notes', name, '..'), { recursive: true });
        writeFileSync(join(dir, 'notes', `${name}.md`), `committed walnut ${name}\n`);
      }
      git(dir, ['add', '.']);
      git(dir, ['commit', '-q', '--no-verify', '-m', 'notes']);
      if (kind === 'packed') git(dir, ['gc', '-q', '--prune=now']);
      writeFileSync(join(dir, 'notes/edited.md'), 'rewrote hazelnut edited\n');
      writeFileSync(join(outside, 'linked.md'), 'rewrote hazelnut linked\n');
      rmSync(join(dir, 'notes/linked.md'));
      symlinkSync(join(outside, 'linked.md'), join(dir, 'notes/linked.md'));
      rmSync(join(dir, 'notes/fifo.md'));
      execFileSync('mkfifo', [join(dir, 'notes/fifo.md')]); // opened, it would block a reader forever
      mkdirSync(join(outside, 'dirlink'), { recursive: true });
      writeFileSync(join(outside, 'dirlink/inner.md'), 'rewrote hazelnut inner\n');
      rmSync(join(dir, 'notes/dirlink'), { recursive: true });
      symlinkSync(join(outside, 'dirlink'), join(dir, 'notes/dirlink'));
      rmSync(join(dir, 'notes/gone.md'));
      expect(await memory.search('hazelnut')).toEqual([]);
      const hits = await memory.search('walnut', { limit: 10 });
      expect(hits.map((h) => h.path).sort()).toEqual([
        'notes/dirlink/inner.md',
        'notes/edited.md',
        'notes/fifo.md',
        'notes/gone.md',
        'notes/linked.md',
      ]);
      for (const h of hits) expect(h.snippet).toBe(`committed walnut ${h.path.slice('notes/'.length, -'.md'.length)}`);
    },
  );

  it('answers [] in a repository without commits', async () => {
    const { memory, dir } = await memoryFixture();
    git(dir, ['update-ref', '-d', 'HEAD']);
    expect(await memory.search('anything')).toEqual([]);
  });
});
