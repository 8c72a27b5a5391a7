// A racing process swaps a directory of the repository for a link to outside, again and again, while the
// memory tool creates, deletes and renames files in it: nothing may land in (or vanish from) the outside
// directory, every failure is typed, no failed call shows up as a commit, and the repository keeps working.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { filesBelow, fsckProblems } from '../../helpers/repo-guard.js';

afterAll(cleanupTmp);

const ROUNDS = Number(process.env['GITMEM_RACE_ROUNDS'] ?? 300);

// Swaps <repo>/d for a link to <outside> and back until <stop> exists; each state lasts 0–1.5 ms.
const RACER = `
const fs = require('fs');
const [repo, outside, stop] = process.argv.slice(1);
const d = repo + '/d', real = repo + '/d.real';
const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let swaps = 0;
while (!fs.existsSync(stop)) {
  try {
    fs.renameSync(d, real);
    fs.symlinkSync(outside, d);
    nap(Math.random() * 1.5);
    fs.unlinkSync(d);
    fs.renameSync(real, d);
    swaps++;
  } catch {}
  nap(Math.random() * 1.5);
}
try { if (fs.lstatSync(d).isSymbolicLink()) fs.unlinkSync(d); } catch {}
try { if (fs.existsSync(real)) fs.renameSync(real, d); } catch {}
process.stdout.write(String(swaps));
`;

describe('racing a directory swap', () => {
  it(`${ROUNDS} creates/deletes/renames: 0 writes outside, typed failures only, no ghost commit, repo still works`, async () => {
    const fx = await memoryFixture('racer');
    const outside = makeTmpDir('gitmem-outside-');
    // Decoys with the names the tool uses: a delete or rename through the link would take them.
    const decoys = new Map<string, string>();
    for (let i = 0; i < ROUNDS; i++) decoys.set(`c${i}.md`, `decoy ${i}\n`);
    for (const [name, text] of decoys) writeFileSync(join(outside, name), text);
    mkdirSync(join(fx.dir, 'd'));
    writeFileSync(join(fx.dir, 'd/seed.md'), '---\ndescription: s\n---\ns\n');
    git(fx.dir, ['add', 'd']);
    git(fx.dir, ['commit', '-qm', 'seed d']);
    const stop = join(fx.home, 'stop');
    const racer = spawn(process.execPath, ['-e', RACER, fx.dir, outside, stop], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let swaps = '';
    racer.stdout.on('data', (b: Buffer) => (swaps += b.toString()));
    const exited = new Promise((r) => racer.once('exit', r));
    const acknowledged = new Set<string>();
    const untyped: string[] = [];
    const created: number[] = [];
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const j = created.length > 0 ? created[i % created.length] : undefined;
        const call =
          i % 3 === 0 || j === undefined
            ? { command: 'create', file_path: `d/c${i}.md`, description: 'c', file_text: `round ${i}\n` }
            : i % 3 === 1
              ? { command: 'delete', file_path: `d/c${j}.md` }
              : { command: 'rename', old_path: `d/c${j}.md`, new_path: `d/r${i}.md` };
        try {
          const r = await fx.memory.tool({ reason: `race ${i}`, ...call });
          acknowledged.add(r.commit);
          if (call.command === 'create') created.push(i);
        } catch (err) {
          if (!isMemoryError(err) || err.code === 'INTERNAL') untyped.push(String(err));
        }
      }
    } finally {
      writeFileSync(stop, '');
      await exited;
    }
    expect(Number(swaps)).toBeGreaterThan(0);
    const outsideNow = filesBelow(outside).sort();
    expect(outsideNow).toEqual([...decoys.keys()].sort());
    for (const [name, text] of decoys) expect(readFileSync(join(outside, name), 'utf8')).toBe(text);
    expect(untyped).toEqual([]);
    expect(existsSync(join(fx.dir, '.git', 'gitmem-write.json'))).toBe(false);
    const log = git(fx.dir, ['log', '--format=%H %s'])
      .split('\n')
      .filter((l) => l.includes(' race '));
    expect(log.filter((l) => !acknowledged.has(l.slice(0, 40)))).toEqual([]);
    expect(git(fx.dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    await fx.memory.tool({ command: 'create', reason: 'after the race', file_path: 'd/after.md', description: 'a' });
    expect(fsckProblems(fx.dir)).toBe('');
  }, 120_000);
});
