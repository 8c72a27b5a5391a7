// A memory tool result says the memory is synced after the turn when, and only when, a remote is configured
// (issue 29 point 7; the reference's "harness will sync after the turn"): memory and memory_apply_patch, through
// the library and the CLI (also its daemon, whose handle outlives a `remote set`). The tool itself never pushes.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYNC_AFTER_TURN_NOTE } from '../../../src/memfs/sync-note.js';
import { cliHome, type CliMode } from '../../helpers/cli.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

afterAll(cleanupTmp);

const patch = (name: string): string =>
  `*** Begin Patch\n*** Add File: notes/${name}.md\n+---\n+description: ${name}\n+---\n+${name}\n*** End Patch`;

function bareRemote(env: Record<string, string>): string {
  const remote = join(makeTmpDir('gitmem-remote-'), 'remote.git');
  git(process.cwd(), ['init', '-q', '--bare', '-b', 'main', remote], env);
  return remote;
}

describe('the tool result and the remote (library)', () => {
  it('no note without a remote; the note with one, for both tools; none again once it is removed', async () => {
    const { memory, env, dir } = await memoryFixture('s1');
    const create = (n: string) =>
      memory.tool({ command: 'create', reason: n, file_path: `notes/${n}.md`, description: n, file_text: `${n}\n` });
    const local = await create('a');
    expect(local.message).toMatch(/^Memory create committed \([0-9a-f]{7}\)\.$/);
    expect((await memory.applyPatch({ reason: 'p', patch: patch('p') })).message).not.toContain(SYNC_AFTER_TURN_NOTE);

    await memory.remote.set(bareRemote(env));
    const synced = await create('b');
    expect(synced.message).toMatch(/^Memory create committed \([0-9a-f]{7}\)\. Memory is synced with the remote/);
    expect(synced.message.endsWith(SYNC_AFTER_TURN_NOTE)).toBe(true);
    const patched = await memory.applyPatch({ reason: 'q', patch: patch('q') });
    expect(patched.message).toMatch(/^memory_apply_patch committed \([0-9a-f]{7}\)\. Memory is synced/);
    // The tool never pushes: the remote has no main until a sync.
    expect(git(dir, ['ls-remote', 'origin'], env)).toBe('');

    await memory.remote.remove();
    expect((await create('c')).message).not.toContain(SYNC_AFTER_TURN_NOTE);
  });
});

describe.each<CliMode>(['local', 'daemon'])('the tool result and the remote (CLI, %s)', (mode) => {
  it('gitmem memory create says it only once a remote is set', () => {
    const h = cliHome(mode, ['c1']);
    try {
      const create = (n: string) =>
        h.run(['memory', 'create', `notes/${n}.md`, '--description', n, '--text', n, '--reason', n, '--agent', 'c1']);
      const before = create('a');
      expect(before.code).toBe(0);
      expect(before.stdout).not.toContain(SYNC_AFTER_TURN_NOTE);
      expect(h.run(['remote', 'set', bareRemote(h.env), '--agent', 'c1']).code).toBe(0);
      const after = create('b');
      expect(after.code).toBe(0);
      expect(after.stdout).toContain(SYNC_AFTER_TURN_NOTE);
    } finally {
      h.close();
    }
  });
});
