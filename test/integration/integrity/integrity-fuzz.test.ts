// The path fuzz: thousands of seeded hostile calls through memory.tool and memory.applyPatch against a
// repository with links planted by raw commits and in the work tree, a non-UTF-8 name, a directory named
// like a file and an executable file. Across the run: nothing created or removed outside, nothing written
// into .git, every error typed (never INTERNAL), no commit that no call acknowledged, no .git-like name in
// HEAD, fsck --strict clean, and the write path open after every case (a no-op that must reach NO_CHANGES after
// each call, a real commit after every tenth).
// GITMEM_FUZZ_CALLS / GITMEM_FUZZ_SEED override the count and the seed for long local runs.
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isMemoryError } from '../../../src/errors.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { fuzzCall, rng, showCall, type FuzzCall } from '../../helpers/fuzz-calls.js';
import { dotGitNamesInHead, filesBelow, fsckProblems, hookState, objectCount } from '../../helpers/repo-guard.js';

const CALLS = Number(process.env['GITMEM_FUZZ_CALLS'] ?? 2_000);
const SEED = Number(process.env['GITMEM_FUZZ_SEED'] ?? 20_261_201);

afterAll(cleanupTmp);

async function plantHostileRepo(fx: MemoryFixture, outside: string): Promise<void> {
  const d = fx.dir;
  await fx.memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/a.md',
    description: 'a',
    file_text: 'alpha\nfuzz\n',
  });
  await fx.memory.tool({
    command: 'create',
    reason: 'seed',
    file_path: 'notes/sub/c.md',
    description: 'c',
    file_text: 'fuzz x\n',
  });
  mkdirSync(join(d, 'notes/dir.md'));
  writeFileSync(join(d, 'notes/dir.md/inner.md'), '---\ndescription: i\n---\nalpha\n');
  mkdirSync(join(d, 'tools'));
  writeFileSync(join(d, 'tools/run.md'), '---\ndescription: r\n---\nalpha\n');
  chmodSync(join(d, 'tools/run.md'), 0o755);
  mkdirSync(join(d, 'latin'));
  writeFileSync(
    Buffer.concat([Buffer.from(join(d, 'latin/caf')), Buffer.from([0xe9]), Buffer.from('.md')]),
    '---\ndescription: l\n---\nl\n',
  );
  writeFileSync(join(d, 'system/rules.md'), '---\ndescription: rules\nread_only: true\n---\nbe kind\n');
  const links: Record<string, string> = {
    lnk_self: '.',
    lnk_git: '.git',
    lnk_out: outside,
    lnk_notes: 'notes',
    lnk_file: 'notes/a.md',
    'notes/lnk_up': '..',
  };
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(d, name));
  git(d, ['add', '-A']);
  git(d, ['commit', '-qm', 'operator plants hostile content', '--no-verify']);
  // Links only in the work tree, hidden from status by info/exclude (so calls are not all REPO_DIRTY).
  const wlinks: Record<string, string> = { wlnk_self: '.', wlnk_git: '.git', wlnk_out: outside, wlnk_notes: 'notes' };
  for (const [name, target] of Object.entries(wlinks)) symlinkSync(target, join(d, name));
  appendFileSync(join(d, '.git/info/exclude'), `${Object.keys(wlinks).join('\n')}\n`);
  await fx.memory.tool({
    command: 'create',
    reason: 'probe seed',
    file_path: 'probe/p.md',
    description: 'p',
    file_text: 'ping\n',
  });
}

function outsideState(outside: string): string {
  return filesBelow(outside)
    .sort()
    .map((f) => `${f}:${readFileSync(join(outside, f), 'utf8')}`)
    .join('\n');
}

function looseObjectCount(dir: string): number {
  const out = execFileSync('sh', ['-c', 'find .git/objects -type f | wc -l'], { cwd: dir, encoding: 'utf8' });
  return Number(out.trim());
}

describe('path fuzz', () => {
  it(`${CALLS} seeded hostile calls (seed ${SEED}): 0 escapes, 0 .git writes, 0 untyped errors, 0 ghost commits`, async () => {
    const fx = await memoryFixture('fuzz');
    const outside = makeTmpDir('gitmem-outside-');
    writeFileSync(join(outside, 'decoy.md'), 'decoy\n');
    mkdirSync(join(outside, 'notes'));
    writeFileSync(join(outside, 'notes/a.md'), 'outside a\n');
    await plantHostileRepo(fx, outside);
    expect(fsckProblems(fx.dir)).toBe('');
    const start = git(fx.dir, ['rev-parse', 'HEAD']);
    const guard = {
      outside: outsideState(outside),
      hooks: hookState(fx.dir),
      config: readFileSync(join(fx.dir, '.git/config'), 'utf8'),
    };
    let objects = objectCount(fx.dir);
    const acknowledged = new Set<string>();
    const violations: string[] = [];
    const known = (): string[] =>
      git(fx.dir, ['ls-files'])
        .split('\n')
        .filter((p) => p.endsWith('.md') && !p.startsWith('probe/'))
        .slice(0, 40);
    let knownCache = known();
    const r = rng(SEED);
    const ctx = { memoryDir: fx.dir, known: () => knownCache };
    let ping = true;
    const t0 = Date.now();
    const counts = { ok: 0, refused: 0 };
    for (let i = 0; i < CALLS && violations.length < 20; i++) {
      const c: FuzzCall = fuzzCall(r, ctx, i);
      const say = (what: string): number => violations.push(`#${i} ${what}: ${showCall(c)}`);
      try {
        const res = c.kind === 'tool' ? await fx.memory.tool(c.call) : await fx.memory.applyPatch(c.call);
        acknowledged.add(res.commit);
        if (++counts.ok % 10 === 1) knownCache = known();
      } catch (err) {
        counts.refused++;
        if (!isMemoryError(err)) say(`untyped ${String(err).slice(0, 200)}`);
        else if (err.code === 'INTERNAL') say(`INTERNAL ${err.message.slice(0, 200)}`);
      }
      if (outsideState(outside) !== guard.outside) say('the outside directory changed');
      if (hookState(fx.dir) !== guard.hooks) say('the hooks changed');
      if (readFileSync(join(fx.dir, '.git/config'), 'utf8') !== guard.config) say('.git/config changed');
      if (existsSync(join(fx.dir, '.git/gitmem-write.json'))) say('a journal was left behind');
      // The probe: every call is followed by one that must get through recovery, the clean check, planning
      // and drafting (a no-op answered NO_CHANGES); every 10th by a real commit.
      try {
        if (i % 10 === 9) {
          const probe = await fx.memory.tool({
            command: 'str_replace',
            reason: 'probe',
            file_path: 'probe/p.md',
            old_string: ping ? 'ping' : 'pong',
            new_string: ping ? 'pong' : 'ping',
          });
          acknowledged.add(probe.commit);
          ping = !ping;
        } else {
          const noop = await fx.memory
            .tool({ command: 'update_description', reason: 'probe', file_path: 'probe/p.md', description: 'p' })
            .catch((e: unknown) => e);
          if (!isMemoryError(noop, 'NO_CHANGES')) throw noop;
        }
      } catch (err) {
        say(`the next ordinary write failed: ${String(err).slice(0, 300)}`);
        break;
      }
      if (i % 25 === 0) {
        const n = looseObjectCount(fx.dir);
        if (n < objects) say(`objects dropped from ${objects} to ${n}`);
        objects = Math.max(objects, n);
      }
      if (i % 400 === 399) {
        const fsck = fsckProblems(fx.dir);
        if (fsck) say(`fsck: ${fsck.slice(0, 300)}`);
        const names = dotGitNamesInHead(fx.dir);
        if (names.length > 0) say(`.git-like names in HEAD: ${names.join(', ')}`);
      }
    }
    const ghosts = git(fx.dir, ['rev-list', `${start}..HEAD`])
      .split('\n')
      .filter((id) => id !== '' && !acknowledged.has(id));
    if (ghosts.length > 0) violations.push(`${ghosts.length} ghost commit(s): ${ghosts.slice(0, 5).join(', ')}`);
    const fsck = fsckProblems(fx.dir);
    if (fsck) violations.push(`fsck at the end: ${fsck.slice(0, 300)}`);
    if (dotGitNamesInHead(fx.dir).length > 0)
      violations.push(`.git-like names in HEAD: ${dotGitNamesInHead(fx.dir).join(', ')}`);
    if (objectCount(fx.dir) < objects) violations.push('objects dropped by the end');
    const summary = `seed ${SEED}, ${CALLS} calls, ${counts.ok} committed, ${counts.refused} refused, ${((Date.now() - t0) / 1000).toFixed(1)} s`;
    expect(violations, `path fuzz failed (${summary}; rerun with GITMEM_FUZZ_SEED=${SEED})`).toEqual([]);
  }, 240_000); // ~15–30 s alone; the bound only guards against a hang on a crowded machine
});
