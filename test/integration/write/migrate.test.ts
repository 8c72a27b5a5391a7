/**
 * gitmem migrate on real repositories: a seeded 200-file round trip system → index → system, a dry run that
 * changes nothing, a race with a write on main that lands nothing, a collision refused naming both files.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { descriptionOf, parseMemoryFile } from '../../../src/blocks/frontmatter.js';
import { isMemoryError } from '../../../src/errors.js';
import { resolveGitCommonDir } from '../../../src/git/common-dir.js';
import { withMemoryOperation } from '../../../src/git/lease.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { protectPaths, readProtectedPaths } from '../../../src/hooks/protected.js';
import { allowSecrets } from '../../../src/hooks/secret-allow.js';
import { scanText } from '../../../src/blocks/secrets.js';
import { SYSTEM_IDENTITY } from '../../../src/identity.js';
import { migrateLayout, type MigrateDeps } from '../../../src/memfs/migrate.js';
import { initMemory } from '../../../src/memory.js';
import { fakeSecrets } from '../../helpers/secret-corpus.js';
import { cleanupTmp, git, gitTry, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-migrate-');
const env = { ...hermeticGitEnv(root) };
const runner = createGitRunner({ env, sleep: async () => undefined });

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function repo(name: string): Promise<{ dir: string; deps: (extra?: Partial<MigrateDeps>) => MigrateDeps }> {
  const home = makeTmpDir('gitmem-home-');
  const r = await initMemory({ home, agentId: name, env: { ...env, GITMEM_HOME: home } });
  const dir = r.memoryDir;
  const commonDir = resolveGitCommonDir(dir);
  return {
    dir,
    deps: (extra = {}) => ({
      git: runner,
      memoryDir: dir,
      commonDir,
      author: SYSTEM_IDENTITY,
      lease: (fn) => withMemoryOperation(dir, fn, { purpose: 'migrate test', commonDir }),
      ...extra,
    }),
  };
}

function commitFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  git(dir, ['add', '-A'], env);
  git(dir, ['commit', '-q', '--no-verify', '-m', 'seed'], env);
}

/** Every file of HEAD with its bytes, and the layout setting: what must not change on a refusal. */
function state(dir: string): string {
  const files = git(dir, ['ls-files', '-s'], env);
  const layout = gitTry(dir, ['config', '--get', 'gitmem.layout'], env).stdout;
  const disk = git(dir, ['ls-files'], env)
    .split('\n')
    .map((p) => `${p}:${readFileSync(join(dir, p), 'utf8')}`)
    .join('\n');
  return [git(dir, ['rev-parse', 'HEAD'], env), files, layout, git(dir, ['status', '--porcelain'], env), disk].join(
    '\n',
  );
}

async function refused(fn: () => Promise<unknown>, code: string): Promise<string> {
  const err = await fn().then(
    () => new Error('accepted'),
    (e: unknown) => e,
  );
  expect(isMemoryError(err, code as never), String(err)).toBe(true);
  return (err as Error).message;
}

describe('gitmem migrate', () => {
  it('round-trips a seeded 200-file repository system → index → system, one commit each way', async () => {
    const { dir, deps } = await repo('round');
    const r = rng(2028);
    const dirs = ['system', 'system/people', 'system/proj/x', 'notes', 'notes/deep', 'ref'];
    const seeded: Record<string, string> = {};
    for (let i = 0; Object.keys(seeded).length < 200; i++) {
      const path = `${dirs[Math.floor(r() * dirs.length)]}/f${i}.md`;
      seeded[path] =
        `---\ndescription: "d${i} ${r().toString(36).slice(2)}"\n---\nbody ${i}\n${'y'.repeat(Math.floor(r() * 80))}\n`;
    }
    commitFiles(dir, seeded);
    const before = new Map(
      git(dir, ['ls-files'], env)
        .split('\n')
        .map((p) => [p, readFileSync(join(dir, p), 'utf8')] as const),
    );
    const head = git(dir, ['rev-parse', 'HEAD'], env);
    const there = await migrateLayout(deps(), { layout: 'index' });
    expect(git(dir, ['rev-parse', 'HEAD~1'], env)).toBe(head);
    expect(git(dir, ['config', '--get', 'gitmem.layout'], env)).toBe('index');
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
    const nested = Object.keys(seeded).find((p) => p.startsWith('system/people/')) ?? '';
    expect(there.moves).toContainEqual({ from: nested, to: `people-${nested.split('/').at(-1)}` });
    expect(git(dir, ['ls-files', 'system'], env)).toBe('');
    expect(readFileSync(join(dir, 'MEMORY.md'), 'utf8')).toMatch(/- \[notes\]\(notes\/MEMORY\.md\)/);
    const back = await migrateLayout(deps(), { layout: 'system' });
    expect(back.commit).toBe(git(dir, ['rev-parse', 'HEAD'], env));
    expect(git(dir, ['config', '--get', 'gitmem.layout'], env)).toBe('system');
    const after = git(dir, ['ls-files'], env).split('\n');
    expect(after.sort()).toEqual([...before.keys()].sort());
    for (const [path, text] of before) {
      const a = parseMemoryFile(text);
      const b = parseMemoryFile(readFileSync(join(dir, path), 'utf8'));
      expect(b.body, path).toBe(a.body);
      expect(descriptionOf(b.data), path).toBe(descriptionOf(a.data));
    }
  });

  it('round-trips index → system → index keeping name, type, metadata and the MEMORY.md prose', async () => {
    const { dir, deps } = await repo('back');
    await migrateLayout(deps(), { layout: 'index' });
    const r = rng(2830);
    const seeded: Record<string, string> = {};
    for (let i = 0; i < 60; i++) {
      const path = `${['', 'topics/', 'topics/deep/'][Math.floor(r() * 3)]}t${i}.md`;
      const type = ['user', 'feedback', 'project', 'reference'][i % 4];
      seeded[path] =
        `---\nname: Topic ${i}\ndescription: about ${i}\ntype: ${type}\n---\nfact ${i} ${'q'.repeat(Math.floor(r() * 30))}\n`;
    }
    seeded['MEMORY.md'] =
      `# Memory\n\nThe user is Ana; keep notes short.\n\n- [topics](topics/MEMORY.md) — what we work on\n`;
    commitFiles(dir, seeded);
    const before = new Map(
      git(dir, ['ls-files'], env)
        .split('\n')
        .map((p) => [p, readFileSync(join(dir, p), 'utf8')] as const),
    );
    await migrateLayout(deps(), { layout: 'system' });
    expect(readFileSync(join(dir, 'system/memory-index.md'), 'utf8')).toContain('The user is Ana; keep notes short.');
    expect(git(dir, ['ls-files'], env)).not.toMatch(/MEMORY\.md/);
    await migrateLayout(deps(), { layout: 'index' });
    for (const [path, text] of before) {
      const now = readFileSync(join(dir, path), 'utf8');
      if (path.endsWith('MEMORY.md')) expect(now.startsWith(text), path).toBe(true);
      else expect(now, path).toBe(text);
    }
  });

  it('a dry run prints the diff and leaves the repository byte-identical', async () => {
    const { dir, deps } = await repo('dry');
    commitFiles(dir, { 'system/a/b.md': '---\ndescription: B\n---\nb\n' });
    const before = state(dir);
    const r = await migrateLayout(deps(), { layout: 'index', dryRun: true });
    expect(r.commit).toBeNull();
    expect(r.diff).toMatch(/system\/a\/b\.md => a-b\.md|a-b\.md/);
    expect(state(dir)).toBe(before);
  });

  it('a file on the protected list stays protected at its new path', async () => {
    const { dir, deps } = await repo('listed');
    commitFiles(dir, { 'system/a/rules.md': '---\ndescription: R\n---\nbe kind\n' });
    await protectPaths(dir, ['system/a/rules.md']);
    await migrateLayout(deps(), { layout: 'index' });
    expect([...readProtectedPaths(dir)].sort()).toEqual(['a-rules.md', 'system/a/rules.md']);
  });

  it('a write on main between staging and landing makes it land nothing', async () => {
    const { dir, deps } = await repo('race');
    commitFiles(dir, { 'system/a/b.md': '---\ndescription: B\n---\nb\n' });
    const racing = deps({
      beforeLand: async () => {
        commitFiles(dir, { 'notes/n.md': '---\ndescription: N\n---\nn\n' });
      },
    });
    const message = await refused(() => migrateLayout(racing, { layout: 'index' }), 'REPO_CONFLICT');
    expect(message).toMatch(/main moved/);
    expect(git(dir, ['log', '-1', '--format=%s'], env)).toBe('seed');
    expect(gitTry(dir, ['config', '--get', 'gitmem.layout'], env).stdout.trim()).toBe('system');
    expect(git(dir, ['status', '--porcelain'], env)).toBe('');
    expect(git(dir, ['ls-files'], env)).toContain('system/a/b.md');
  });

  it('refuses a collision after flattening, naming both files, and changes nothing', async () => {
    const { dir, deps } = await repo('clash');
    commitFiles(dir, {
      'system/a-b.md': '---\ndescription: one\n---\n1\n',
      'system/a/b.md': '---\ndescription: two\n---\n2\n',
    });
    const before = state(dir);
    const message = await refused(() => migrateLayout(deps(), { layout: 'index' }), 'FILE_EXISTS');
    expect(message).toBe('migrate: system/a-b.md and system/a/b.md would both become a-b.md; rename one first');
    expect(state(dir)).toBe(before);
  });

  it("runs the commit's checks: a planted token is refused with the scan's error and main is unchanged", async () => {
    const { dir, deps } = await repo('secret');
    const token = fakeSecrets(28).find((f) => f.rule.startsWith('github')) ?? fakeSecrets(28)[0];
    if (token === undefined) throw new Error('no fake secret');
    // Planted past the hook (as a raw commit with --no-verify, or an older gitmem, could leave it).
    commitFiles(dir, { 'system/a/b.md': `---\ndescription: B\n---\nkey: ${token.text}\n` });
    const before = state(dir);
    const message = await refused(() => migrateLayout(deps(), { layout: 'index' }), 'SECRET_DETECTED');
    expect(message).toMatch(/^migrate: memory rules refused the migration:\n {2}a-b\.md:\d+: SECRET_DETECTED: /);
    expect(message).not.toContain(token.value);
    expect(state(dir)).toBe(before);
  });

  it('a fingerprint on the secret allow list, and a protected read_only file, migrate like any commit', async () => {
    const { dir, deps } = await repo('allowed');
    const token = fakeSecrets(29)[0];
    if (token === undefined) throw new Error('no fake secret');
    commitFiles(dir, {
      'system/a/b.md': `---\ndescription: B\n---\nkey: ${token.text}\n`,
      'system/rules.md': '---\ndescription: R\nread_only: true\n---\nbe kind\n',
    });
    await allowSecrets(
      dir,
      scanText(token.text).map((f) => f.fingerprint),
    );
    const there = await migrateLayout(deps(), { layout: 'index' });
    expect(there.commit).toBe(git(dir, ['rev-parse', 'HEAD'], env));
    expect(readFileSync(join(dir, 'rules.md'), 'utf8')).toContain('read_only: true');
    await migrateLayout(deps(), { layout: 'system' });
    expect(readFileSync(join(dir, 'system/rules.md'), 'utf8')).toContain('read_only: true');
  });
});
