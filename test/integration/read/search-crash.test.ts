/**
 * The search index under a killed process and under concurrent processes: a child SIGKILLed while it builds
 * or updates the index leaves an index that answers correctly (repaired or rebuilt, never wrong), and
 * several processes searching and updating at once never corrupt it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { rng } from '../../helpers/rng.js';

afterAll(cleanupTmp);

const DIST = join(process.cwd(), 'dist', 'index.js');
// With KILL_AFTER=n the child SIGKILLs itself at its n-th INSERT into the index: a kill at an exact point
// inside the build or update transaction, with no hook in the library.
const CHILD = `
if (process.env.KILL_AFTER) {
  const { createRequire } = await import('node:module');
  const Database = createRequire(process.env.DIST)('better-sqlite3');
  const prepare = Database.prototype.prepare;
  let n = 0;
  Database.prototype.prepare = function (sql) {
    const st = prepare.call(this, sql);
    if (!/^\\s*INSERT/i.test(sql)) return st;
    const run = st.run.bind(st);
    st.run = (...args) => {
      if (++n >= Number(process.env.KILL_AFTER)) process.kill(process.pid, 'SIGKILL');
      return run(...args);
    };
    return st;
  };
}
const { createMemory } = await import(process.env.DIST);
const memory = await createMemory({ home: process.env.GITMEM_HOME, agentId: 'agent-1' });
const hits = await memory.search(process.env.QUERY, { limit: 100 });
process.stdout.write(JSON.stringify(hits.map((h) => h.path).sort()));
`;

function child(
  fx: MemoryFixture,
  query: string,
  killAfter?: number,
): { done: Promise<{ code: number | null; stdout: string }>; kill: () => void } {
  const env = { ...fx.env, DIST, QUERY: query, ...(killAfter ? { KILL_AFTER: String(killAfter) } : {}) };
  const p = spawn(process.execPath, ['--input-type=module', '-e', CHILD], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  return { done: new Promise((res) => p.on('close', (code) => res({ code, stdout }))), kill: () => p.kill('SIGKILL') };
}

/** Writes `count` files, `needle` in those where `has(i)`, and commits them raw. */
function writeFiles(fx: MemoryFixture, count: number, version: string, has: (i: number) => boolean): string[] {
  const needles: string[] = [];
  for (let i = 0; i < count; i++) {
    const dir = join(fx.dir, 'bulk', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir, { recursive: true });
    const path = `bulk/d${Math.floor(i / 100)}/f${i}.md`;
    writeFileSync(
      join(fx.dir, path),
      `---\ndescription: file ${i} ${version}\n---\nfiller words ${version} ${i}\n${has(i) ? 'the needle is here\n' : ''}${'padding text line\n'.repeat(20)}`,
    );
    if (has(i)) needles.push(path);
  }
  git(fx.dir, ['add', '-A']);
  git(fx.dir, ['commit', '-q', '--no-verify', '-m', `bulk ${version}`]);
  return needles.sort();
}

const indexPath = (fx: MemoryFixture) => join(fx.dir, '.git', 'gitmem', 'search', 'index-v3.sqlite');
/** Private files of first builds (made aside, published whole) left in the index's directory. */
const asideFiles = (fx: MemoryFixture) =>
  readdirSync(join(fx.dir, '.git', 'gitmem', 'search')).filter((f) => f.includes('.build-'));

function integrity(fx: MemoryFixture): string {
  const db = new Database(indexPath(fx));
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

/** A searching child that kills itself at its n-th INSERT (when the work left has that many); true if it died so. */
async function killAt(fx: MemoryFixture, n: number): Promise<boolean> {
  const r = await child(fx, 'needle', n).done;
  return r.code === null;
}

describe('search index crash safety', () => {
  it('answers correctly after children are SIGKILLed while building and while updating', async () => {
    const fx = await memoryFixture();
    const random = rng(7);
    const first = writeFiles(fx, 3000, 'v1', (i) => i % 601 === 0);
    // A build inserts ~2 rows per file and one path each: kill early, in the middle and near its end.
    const kills: boolean[] = [];
    for (const n of [1, 2, 1 + Math.floor(random() * 3000), 3000 + Math.floor(random() * 3000), 8990])
      kills.push(await killAt(fx, n));
    expect(kills).toEqual([true, true, true, true, true]); // a transaction killed leaves nothing: each child starts over
    // A first build is made aside: killed, it leaves no file under the index's name, and one private file at
    // most (each build removes those of processes that are gone); the next build removes that one too.
    expect(existsSync(indexPath(fx))).toBe(false);
    expect(asideFiles(fx).length, asideFiles(fx).join(' ')).toBeLessThanOrEqual(1);
    expect(await fx.memory.search('needle', { limit: 100 }).then((h) => h.map((x) => x.path).sort())).toEqual(first);
    expect(asideFiles(fx)).toEqual([]);
    const second = writeFiles(fx, 3000, 'v2', (i) => i % 499 === 3);
    for (const n of [1, 1 + Math.floor(random() * 3000), 3000 + Math.floor(random() * 3000)])
      expect(await killAt(fx, n)).toBe(true);
    const fresh = child(fx, 'needle');
    expect(JSON.parse((await fresh.done).stdout)).toEqual(second);
    expect(await fx.memory.search('needle', { limit: 100 }).then((h) => h.map((x) => x.path).sort())).toEqual(second);
    expect(integrity(fx)).toBe('ok');
  }, 120_000);

  it('several processes searching while commits land never corrupt it or answer from a mixed tree', async () => {
    const fx = await memoryFixture();
    const versions = [writeFiles(fx, 1500, 'a', (i) => i % 307 === 0)];
    const runs: Array<Promise<{ code: number | null; stdout: string }>> = [];
    for (let wave = 0; wave < 3; wave++) {
      for (let k = 0; k < 3; k++) runs.push(child(fx, 'needle').done);
      versions.push(writeFiles(fx, 1500, `b${wave}`, (i) => i % 211 === wave));
    }
    const answers = await Promise.all(runs);
    for (const a of answers) {
      expect(a.code).toBe(0);
      // Each answer is exactly the needle set of one commit (whichever was HEAD when that search read it).
      expect(versions.map((v) => JSON.stringify(v))).toContain(a.stdout);
    }
    expect(await fx.memory.search('needle', { limit: 100 }).then((h) => h.map((x) => x.path).sort())).toEqual(
      versions.at(-1),
    );
    expect(integrity(fx)).toBe('ok');
  }, 120_000);
});
