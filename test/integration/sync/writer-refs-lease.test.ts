/**
 * `sync.integrator = lease`: writers in writer-refs mode with no `gitmem integrate` running. After its own push a
 * writer takes `refs/gitmem/lease` on the remote (compare-and-swap by --force-with-lease) and integrates, or asks the
 * holder for one more pass. Real bare repositories; the server's post-receive hook logs every ref update, so the
 * tests see who moved main and the lease, and in which push.
 */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, initMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import { parseLease, renderLease, type LeaseRecord } from '../../../src/sync/integrate-lease-record.js';
import { LEASE_REF } from '../../../src/sync/integrate-lease-ref.js';
import { syncSettings } from '../../../src/sync/writer-refs.js';
import { runMain } from '../../helpers/main-io.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const root = makeTmpDir('gitmem-lease-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });

interface Update {
  push: string;
  old: string;
  new: string;
  ref: string;
}

/** A bare remote with main (pushed by an operator) and a post-receive log; writers with the lease integrator. */
async function setup(machines: string[], sync: Record<string, unknown> = {}) {
  const remote = join(makeTmpDir('gitmem-remote-'), 'mem.git');
  g(root, ['init', '-q', '--bare', '-b', 'main', remote]);
  const log = join(remote, 'updates.log');
  writeFileSync(log, '');
  const hook = join(remote, 'hooks', 'post-receive');
  // With the gate armed, a push that moves main holds its pusher (after the update) until the test says go.
  const [arm, pushedMain, go] = ['arm', 'pushed-main', 'go'].map((f) => join(remote, f));
  writeFileSync(
    hook,
    [
      '#!/bin/sh',
      'id=$$-$(date +%s%N); main=0',
      `while read o n r; do echo "$id $o $n $r" >> ${log}; [ "$r" = refs/heads/main ] && main=1; done`,
      `if [ $main = 1 ] && [ -f ${arm} ]; then touch ${pushedMain}; i=0`,
      `  while [ ! -f ${go} ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done`,
      'fi',
      '',
    ].join('\n'),
  );
  chmodSync(hook, 0o755);
  const home = makeTmpDir('gitmem-op-');
  await initMemory({ home, agentId: 'ada', env, git: runner });
  const op = await createMemory({ home, agentId: 'ada', env, git: runner });
  await op.remote.set(remote);
  expect((await op.sync()).status).toBe('pushed');
  writeFileSync(log, ''); // from here on, only the writers push
  const writers = [];
  for (const machine of machines) {
    const wHome = makeTmpDir(`gitmem-w-${machine}-`);
    const config = { sync: { mode: 'writer-refs', machine, integrator: 'lease', pushesPerMinute: 600, ...sync } };
    writeFileSync(join(wHome, 'config'), JSON.stringify(config));
    const c = await cloneMemory({ git: runner, home: wHome, url: remote, agentId: 'ada' });
    const memory = await createMemory({ home: wHome, agentId: 'ada', env, git: runner });
    writers.push({ machine, dir: c.memoryDir, memory });
  }
  const updates = (): Update[] =>
    readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const [push = '', old = '', now = '', ref = ''] = l.split(' ');
        return { push, old, new: now, ref };
      });
  const gate = {
    arm: () => writeFileSync(arm!, ''),
    mainPushed: async () => {
      for (let i = 0; i < 400 && !existsSync(pushedMain!); i++) await new Promise((r) => setTimeout(r, 50));
      return existsSync(pushedMain!);
    },
    go: () => writeFileSync(go!, ''),
  };
  return { remote, writers, updates, gate };
}

const note = (path: string, body: string) => ({
  command: 'create' as const,
  reason: `write ${path}`,
  file_path: path,
  description: path,
  file_text: `${body}\n`,
});

const ZERO = /^0+$/;

const runCli = (args: string[], cliEnv: Record<string, string>) => runMain(args, cliEnv);

/** The record of a lease commit on the remote (undefined: none, or not a record). */
function recordAt(remote: string, oid: string): LeaseRecord | undefined {
  if (ZERO.test(oid)) return undefined;
  const text = g(remote, ['cat-file', 'commit', oid]);
  return parseLease(text.slice(text.indexOf('\n\n') + 2));
}

/** A lease commit written straight to the remote, as a crashed or hostile writer would leave it. */
function plantLease(remote: string, message: string): string {
  const tree = g(remote, ['hash-object', '-t', 'tree', '-w', '/dev/null']);
  const oid = g(remote, ['commit-tree', tree, '-m', message]);
  g(remote, ['update-ref', LEASE_REF, oid]);
  return oid;
}

describe('sync.integrator = lease: the first writer that takes the lease integrates', () => {
  it('three writers, no integrator: every acknowledged write reaches main, one holder at a time', async () => {
    const s = await setup(['m1', 'm2', 'm3']);
    const acked: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const w of s.writers) await w.memory.tool(note(`notes/${w.machine}-${round}.md`, `${w.machine} ${round}`));
      const results = await Promise.all(s.writers.map((w) => w.memory.sync()));
      for (const [i, r] of results.entries()) {
        expect(r.status, r.summary).toBe('pushed');
        expect(r.integration?.status).toMatch(/^(integrated|handed|clean)$/);
        acked.push(`notes/${s.writers[i]!.machine}-${round}.md`);
      }
    }
    // Every acknowledged write is on main, each commit once.
    const onMain = g(s.remote, ['ls-tree', '-r', '--name-only', 'main', 'notes/']).split('\n');
    for (const path of acked) expect(onMain).toContain(path);
    const subjects = g(s.remote, ['log', '--format=%s', 'main']).split('\n');
    for (const path of acked) expect(subjects.filter((l) => l === `write ${path}`)).toHaveLength(1);
    // Old lease commits are left unreferenced on purpose: dangling objects, nothing broken.
    expect(g(s.remote, ['fsck', '--strict', '--no-progress', '--no-dangling'])).toBe('');

    // Who moved what: main only in a push that also moved the lease, from a record held by the same holder.
    const updates = s.updates();
    const pushes = new Map<string, Update[]>();
    for (const u of updates) pushes.set(u.push, [...(pushes.get(u.push) ?? []), u]);
    let mainMoves = 0;
    for (const group of pushes.values()) {
      const main = group.find((u) => u.ref === 'refs/heads/main');
      if (!main) continue;
      mainMoves++;
      const lease = group.find((u) => u.ref === LEASE_REF);
      expect(lease, 'main moved without the lease').toBeDefined();
      const before = recordAt(s.remote, lease!.old);
      const after = recordAt(s.remote, lease!.new);
      expect(before?.state).toBe('held');
      expect(after?.holder).toBe(before?.holder);
      expect(after?.pushes.length).toBeGreaterThan(0);
    }
    expect(mainMoves).toBeGreaterThan(0);
    // The lease's history: a new holder only ever takes over a released lease (nothing expired here).
    const holders = new Set<string>();
    for (const u of updates.filter((x) => x.ref === LEASE_REF)) {
      const before = recordAt(s.remote, u.old);
      const after = recordAt(s.remote, u.new);
      expect(after, 'every lease written is a record').toBeDefined();
      if (after?.holder !== before?.holder) {
        expect(before === undefined || before.state === 'released', `${after?.holder} took a held lease`).toBe(true);
        holders.add(after!.holder);
      }
    }
    expect(holders.size).toBeGreaterThan(0);
    // Integration commits: one merge per writer tip merged, never the same tip twice (a writer's own merges of
    // main, made when its sync pulls, are not integrations).
    const merges = g(s.remote, ['log', '--merges', '--format=%s%x09%P', 'main']).split('\n').filter(Boolean);
    const tips = merges.filter((l) => !l.startsWith('Merge refs/remotes/origin/main\t')).map((l) => l.split(' ')[1]);
    expect(new Set(tips).size).toBe(tips.length);
    // The lease is left released and nothing waits.
    const last = recordAt(s.remote, g(s.remote, ['rev-parse', LEASE_REF]));
    expect(last).toMatchObject({ state: 'released', pending: 0 });
  }, 120_000);

  it('a writer that pushes while the holder is mid-pass asks for one more pass, and its write reaches main', async () => {
    const s = await setup(['m1', 'm2']);
    const [m1, m2] = s.writers;
    s.gate.arm();
    await m1!.memory.tool(note('notes/first.md', 'first'));
    const holding = m1!.memory.sync();
    // m1 holds the lease and has just pushed main (its pass fetched the writer refs before m2's exists).
    expect(await s.gate.mainPushed()).toBe(true);
    await m2!.memory.tool(note('notes/late.md', 'late'));
    const late = await m2!.memory.sync();
    expect(late.status).toBe('pushed');
    expect(late.integration?.status).toBe('handed');
    expect(late.integration?.holder).toMatch(/^ada\/m1\//);
    expect(g(s.remote, ['ls-tree', '--name-only', 'main', 'notes/'])).not.toContain('late');
    s.gate.go();
    const held = await holding;
    expect(held.integration?.status).toBe('integrated');
    // The holder's release failed (the record moved), it looked again and ran one more pass.
    expect(g(s.remote, ['show', 'main:notes/late.md'])).toContain('late');
    expect(recordAt(s.remote, g(s.remote, ['rev-parse', LEASE_REF]))).toMatchObject({ state: 'released', pending: 0 });
  }, 60_000);

  it("a crashed holder's lease expires and another writer takes over", async () => {
    const s = await setup(['m1', 'm2']);
    const [m1, m2] = s.writers;
    const now = Date.now();
    plantLease(
      s.remote,
      renderLease({
        holder: 'ada/crashed/dead',
        state: 'held',
        expires: now + 1500,
        ttl: 1500,
        pushes: [],
        pending: 0,
      }),
    );
    await m1!.memory.tool(note('notes/while-held.md', 'while held'));
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    const first = await m1!.memory.sync();
    expect(first.status).toBe('pushed');
    expect(first.integration).toMatchObject({ status: 'handed', holder: 'ada/crashed/dead' });
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore); // the dead holder merges nothing
    const asked = recordAt(s.remote, g(s.remote, ['rev-parse', LEASE_REF]));
    expect(asked).toMatchObject({ holder: 'ada/crashed/dead', pending: 1 });

    await new Promise((r) => setTimeout(r, 1700));
    // m2 has nothing of its own to push; the lease has expired with work pending: it takes over.
    const second = await m2!.memory.sync();
    expect(second.status).toBe('clean');
    expect(second.integration?.status).toBe('integrated');
    expect(second.integration?.holder).toMatch(/^ada\/m2\//);
    expect(g(s.remote, ['show', 'main:notes/while-held.md'])).toContain('while held');
    expect(recordAt(s.remote, g(s.remote, ['rev-parse', LEASE_REF]))).toMatchObject({ state: 'released' });
  }, 60_000);

  it('a lease ref holding garbage (a blob, a tree, a bad message, an expiry from a clock an hour ahead) is taken over', async () => {
    const s = await setup(['m1']);
    const w = s.writers[0]!;
    const far = renderLease({
      holder: 'ada/skewed/1',
      state: 'held',
      expires: Date.now() + 3_600_000,
      ttl: 60_000,
      pushes: [],
      pending: 0,
    });
    const plants: Record<string, () => void> = {
      blob: () => {
        writeFileSync(join(root, 'blob.txt'), 'not a lease\n');
        g(s.remote, ['update-ref', LEASE_REF, g(s.remote, ['hash-object', '-w', join(root, 'blob.txt')])]);
      },
      tree: () => g(s.remote, ['update-ref', LEASE_REF, g(s.remote, ['rev-parse', 'main^{tree}'])]),
      message: () => plantLease(s.remote, 'gitmem integration lease\n\nholder: ; rm -rf /\nexpires: soon\n'),
      huge: () => plantLease(s.remote, `gitmem integration lease\n\n${'pending: 1\n'.repeat(3000)}`),
      skewed: () => plantLease(s.remote, far),
    };
    for (const [name, plant] of Object.entries(plants)) {
      plant();
      await w.memory.tool(note(`notes/${name}.md`, name));
      const r = await w.memory.sync();
      expect(r.status, name).toBe('pushed');
      expect(r.integration?.status, `${name}: ${r.integration?.summary}`).toBe('integrated');
      expect(g(s.remote, ['show', `main:notes/${name}.md`])).toContain(name);
    }
  }, 60_000);

  it('the push rate holds across holders: the record carries the pushes of main', async () => {
    const s = await setup(['m1', 'm2'], { pushesPerMinute: 1 });
    const [m1, m2] = s.writers;
    await m1!.memory.tool(note('notes/one.md', 'one'));
    const first = await m1!.memory.sync();
    expect(first.integration?.status).toBe('integrated');
    expect(g(s.remote, ['show', 'main:notes/one.md'])).toContain('one');
    // m2 has never pushed main itself: only the lease tells it a push of main happened within the minute.
    await m2!.memory.tool(note('notes/two.md', 'two'));
    const mainBefore = g(s.remote, ['rev-parse', 'main']);
    const second = await m2!.memory.sync();
    expect(second.status).toBe('pushed');
    expect(second.integration?.status).toBe('deferred');
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore);
    expect(g(s.remote, ['show', 'refs/heads/writers/ada/m2:notes/two.md'])).toContain('two');
    // Released with the write marked as waiting, so whoever syncs next takes it up; m2's checkout is unchanged.
    expect(recordAt(s.remote, g(s.remote, ['rev-parse', LEASE_REF]))).toMatchObject({ state: 'released', pending: 1 });
    expect(g(m2!.dir, ['status', '--porcelain'])).toBe('');
    expect(g(m2!.dir, ['show', 'HEAD:notes/two.md'])).toContain('two');
    // A clean sync within the same minute: still no slot, the lease is not taken (nor written) for nothing.
    const leaseBefore = g(s.remote, ['rev-parse', LEASE_REF]);
    const third = await m1!.memory.sync();
    expect(third.status).toBe('clean');
    expect(third.integration?.status).toBe('deferred');
    expect(g(s.remote, ['rev-parse', LEASE_REF])).toBe(leaseBefore);
    expect(g(s.remote, ['rev-parse', 'main'])).toBe(mainBefore);
  }, 60_000);

  it('the CLI: `config set sync.integrator lease`, then `sync` pushes the writer ref and integrates it', async () => {
    const s = await setup([]);
    const wHome = makeTmpDir('gitmem-cli-w-');
    await cloneMemory({ git: runner, home: wHome, url: s.remote, agentId: 'ada' });
    const wEnv = { ...env, GITMEM_HOME: wHome, GITMEM_DAEMON: '0' };
    for (const [k, v] of [
      ['sync.mode', 'writer-refs'],
      ['sync.machine', 'box'],
      ['sync.integrator', 'lease'],
    ])
      expect((await runCli(['config', 'set', k!, v!], wEnv)).code).toBe(0);
    const refused = await runCli(['config', 'set', 'sync.integrator', 'anyone'], wEnv);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/external, lease/);
    const made = await runCli(
      ['memory', 'create', 'notes/cli.md', '--description', 'c', '--reason', 'r', '--text', 'c', '--agent', 'ada'],
      wEnv,
    );
    expect(made.code).toBe(0);
    const synced = await runCli(['sync', '--agent', 'ada'], wEnv);
    expect(synced.code).toBe(0);
    expect(synced.out).toContain('writers/ada/box');
    expect(synced.out).toMatch(
      /Integration under the lease \(ada\/box\/[0-9a-f]+\): 0 writer ref\(s\) merged.*pushed 1 commit/,
    );
    expect(g(s.remote, ['show', 'main:notes/cli.md'])).toContain('c');
  }, 60_000);

  it('settings: sync.integrator is external by default, lease or external only', () => {
    expect(syncSettings({ sync: { mode: 'writer-refs', machine: 'm' } }).integrator).toBe('external');
    expect(syncSettings({ sync: { integrator: 'lease' } }).integrator).toBe('lease');
    expect(() => syncSettings({ sync: { integrator: 'anyone' } })).toThrow(/sync.integrator/);
  });
});
