import { describe, expect, it } from 'vitest';
import { MemoryError } from '../errors.js';
import { descriptionOf, parseMemoryFile } from './frontmatter.js';
import { LAYOUTS } from './layouts.js';
import { planLayoutMigration, type MigrationFile } from './layout-migration.js';
import { findProblems } from './validate.js';

/** A seeded generator (mulberry32): the same repository every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 200 system-layout files: nested core files, deferred topics, root files, links between them. */
function seededRepo(seed: number): MigrationFile[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const dirs = ['system', 'system/people', 'system/proj/x', 'notes', 'notes/deep', 'ref'];
  const paths: string[] = ['README.md'];
  for (let i = 0; paths.length < 200; i++) paths.push(`${pick(dirs)}/f${i}.md`);
  return paths.map((path, i) => {
    const other = pick(paths);
    const rel = posixRelative(path, other);
    const body = `line ${i} ${'x'.repeat(Math.floor(r() * 40))}\n\nsee [${i}](${rel}) and [web](https://e.x/a.md)\n`;
    return { path, text: `---\ndescription: "file ${i}: ${r().toString(36).slice(2)}"\n---\n${body}` };
  });
}

function posixRelative(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

const added = (files: readonly MigrationFile[]) =>
  files.map((f) => ({ status: 'added' as const, path: f.path, content: f.text, headContent: null }));
const byPath = (files: readonly MigrationFile[]): Map<string, MigrationFile> => new Map(files.map((f) => [f.path, f]));

describe('planLayoutMigration', () => {
  it('round-trips a seeded 200-file repository system → index → system: every body byte and description', () => {
    const before = seededRepo(28);
    const index = planLayoutMigration(LAYOUTS.system, LAYOUTS.index, before);
    expect(findProblems(added(index.files), { layout: LAYOUTS.index })).toEqual([]);
    expect(index.files.some((f) => f.path === 'people-f1.md' || f.path.startsWith('system/'))).toBe(false);
    const back = planLayoutMigration(LAYOUTS.index, LAYOUTS.system, index.files);
    expect(findProblems(added(back.files), { layout: LAYOUTS.system })).toEqual([]);
    const after = byPath(back.files);
    expect([...after.keys()].sort()).toEqual(before.map((f) => f.path).sort());
    for (const f of before) {
      const a = parseMemoryFile(f.text);
      const b = parseMemoryFile(after.get(f.path)?.text ?? '');
      expect(b.body, f.path).toBe(a.body);
      expect(descriptionOf(b.data), f.path).toBe(descriptionOf(a.data));
    }
  });

  it('flattens system/a/b.md to a-b.md with name and its old place, and writes the index hierarchy', () => {
    const plan = planLayoutMigration(LAYOUTS.system, LAYOUTS.index, [
      { path: 'system/a/b.md', text: '---\ndescription: B\n---\nsee [n](../../notes/n.md)\n' },
      { path: 'system/persona.md', text: '---\ndescription: P\n---\np\n' },
      { path: 'notes/n.md', text: '---\ndescription: N\n---\nback to [b](../system/a/b.md)\n' },
    ]);
    const files = byPath(plan.files);
    expect(files.get('a-b.md')?.text).toBe(
      '---\nname: b\ndescription: B\nmetadata: {"gitmem_path":"system/a/b.md"}\n---\nsee [n](notes/n.md)\n',
    );
    expect(files.get('persona.md')?.text).toBe('---\nname: persona\ndescription: P\n---\np\n');
    expect(files.get('notes/n.md')?.text).toBe('---\nname: n\ndescription: N\n---\nback to [b](../a-b.md)\n');
    expect(files.get('notes/MEMORY.md')?.text).toBe('# notes\n\n- [n](n.md) — N\n');
    expect(files.get('MEMORY.md')?.text).toMatch(/\n- \[notes\]\(notes\/MEMORY\.md\)\n$/);
    expect(plan.moves).toEqual([
      { from: 'system/a/b.md', to: 'a-b.md' },
      { from: 'system/persona.md', to: 'persona.md' },
    ]);
  });

  it('ignores a recorded place that is not a plain memory path of the target layout (hostile metadata)', () => {
    const hostile = (origin: string) =>
      planLayoutMigration(LAYOUTS.index, LAYOUTS.system, [
        { path: 'MEMORY.md', text: '# Memory\n' },
        { path: 'x.md', text: `---\nname: x\ndescription: X\nmetadata: {"gitmem_path": "${origin}"}\n---\nx\n` },
      ])
        .files.map((f) => f.path)
        .filter((p) => p !== 'system/memory-index.md'); // the root index's prose, kept
    for (const origin of ['../../etc/x.md', '.git/hooks/x.md', 'skills/s/SKILL.md', 'a/./b.md', 'a.txt', '/abs.md'])
      expect(hostile(origin), origin).toEqual(['system/x.md']);
    expect(hostile('notes/kept.md')).toEqual(['notes/kept.md']);
    // A kept index's recorded place is taken only when it names an index of the target layout.
    const kept = (index: string) =>
      planLayoutMigration(LAYOUTS.system, LAYOUTS.index, [
        {
          path: 'system/memory-index.md',
          text: `---\ndescription: K\nmetadata: {"gitmem_index": "${index}"}\n---\nk\n`,
        },
      ]).files.map((f) => f.path);
    for (const index of ['../MEMORY.md', '.git/MEMORY.md', 'a/../MEMORY.md', 'a/notes.md', '/MEMORY.md'])
      expect(kept(index), index).toEqual(['MEMORY.md', 'memory-index.md']);
    expect(kept('a/MEMORY.md')).toEqual(['MEMORY.md', 'a/MEMORY.md']);
  });

  it('refuses two files that would land on one path, naming both', () => {
    const d = '---\ndescription: d\n---\n';
    let err: unknown;
    try {
      planLayoutMigration(LAYOUTS.system, LAYOUTS.index, [
        { path: 'system/a-b.md', text: d },
        { path: 'system/a/b.md', text: d },
      ]);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MemoryError);
    expect((err as MemoryError).code).toBe('FILE_EXISTS');
    expect((err as MemoryError).message).toBe(
      'migrate: system/a-b.md and system/a/b.md would both become a-b.md; rename one first',
    );
  });

  it('round-trips a seeded index-layout repository index → system → index: name, type, metadata and index prose', () => {
    const r = rng(2829);
    const types = ['user', 'feedback', 'project', 'reference'];
    const dirs = ['', '', 'topics', 'topics/deep', 'ref'];
    const files: MigrationFile[] = [];
    for (let i = 0; files.length < 200; i++) {
      const dir = dirs[Math.floor(r() * dirs.length)] ?? '';
      const path = `${dir === '' ? '' : `${dir}/`}t${i}.md`;
      const name = r() < 0.5 ? `t${i}` : `Topic ${i} ${r().toString(36).slice(2, 6)}`;
      const type = r() < 0.7 ? `type: ${types[Math.floor(r() * types.length)]}\n` : '';
      const meta = r() < 0.3 ? `metadata: {"originSessionId":"s${i}","node_type":"memory"}\n` : '';
      const body = `fact ${i} ${'z'.repeat(Math.floor(r() * 50))}\nsee [root](${dir === '' ? '' : '../'.repeat(dir.split('/').length)}t0.md)\n`;
      files.push({ path, text: `---\nname: ${name}\ndescription: "about ${i}"\n${type}${meta}---\n${body}` });
    }
    // The index layout's own indexes: generated ones, then prose and hand-written lines in the root and one topic.
    const generated = planLayoutMigration(LAYOUTS.system, LAYOUTS.index, [
      ...planLayoutMigration(LAYOUTS.index, LAYOUTS.system, [{ path: 'MEMORY.md', text: '# Memory\n' }, ...files])
        .files,
    ]).files.filter((f) => f.path.endsWith('MEMORY.md'));
    const before = [
      ...files,
      ...generated.map((f) =>
        f.path === 'MEMORY.md'
          ? {
              path: f.path,
              text: `# What I keep\n\nPrefer short notes. The user is Ana.\n- [Deploys](topics/t3.md): read before a release\n`,
            }
          : f.path === 'topics/MEMORY.md'
            ? { path: f.path, text: `${f.text}\nOld notes moved to ref/ in May.\n` }
            : f,
      ),
    ];
    expect(findProblems(added(before), { layout: LAYOUTS.index })).toEqual([]);
    const system = planLayoutMigration(LAYOUTS.index, LAYOUTS.system, before);
    expect(findProblems(added(system.files), { layout: LAYOUTS.system })).toEqual([]);
    const sys = byPath(system.files);
    expect(sys.get('system/memory-index.md')?.text).toContain('Prefer short notes. The user is Ana.\n');
    expect(sys.get('system/memory-index.md')?.text).toContain('- [Deploys](../topics/t3.md): read before a release');
    expect(sys.get('topics/memory-index.md')?.text).toContain('Old notes moved to ref/ in May.');
    expect([...sys.keys()].filter((p) => p.endsWith('MEMORY.md'))).toEqual([]);
    expect(sys.has('ref/memory-index.md')).toBe(false); // exactly what the way back writes: not kept
    const back = byPath(planLayoutMigration(LAYOUTS.system, LAYOUTS.index, system.files).files);
    expect([...back.keys()].sort()).toEqual(before.map((f) => f.path).sort());
    for (const f of before) {
      const now = back.get(f.path)?.text ?? '';
      if (f.path.endsWith('MEMORY.md')) {
        // Kept indexes come back whole; the root's gains only the lines it lacked (each file linked once).
        expect(now.startsWith(f.text), f.path).toBe(true);
        continue;
      }
      const a = parseMemoryFile(f.text);
      const b = parseMemoryFile(now);
      expect(b.body, f.path).toBe(a.body);
      expect(b.data, f.path).toEqual(a.data);
    }
    expect(back.get('topics/MEMORY.md')?.text).toBe(before.find((f) => f.path === 'topics/MEMORY.md')?.text);
    const root = back.get('MEMORY.md')?.text ?? '';
    expect(root.match(/\(topics\/t3\.md\)/g)).toHaveLength(1); // the hand-written line, not listed twice
    expect(root.match(/\(topics\/MEMORY\.md\)/g)).toHaveLength(1);
  });
});
