// Every surface names a background writer's merge after the writer that made it: a reflection's merge is
// `reflection` and a worker's `worker` in `gitmem log`, history(), watch() and the palace's history — the
// merge message gitmem writes and the classifier that reads it back come from one table (src/writers.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRunner } from '../../../src/git/runner.js';
import { createMemory, type Memory } from '../../../src/memory.js';
import type { MemoryUpdatedEvent } from '../../../src/read/types.js';
import type { MemoryWatcher } from '../../../src/read/watch.js';
import { runDream } from '../../../src/reflection/dream.js';
import { appendTranscript } from '../../../src/reflection/transcripts.js';
import { runWorkerCommand } from '../../../src/worktree/command-body.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';
import { palaceHome, startPalaceProcess, type PalaceHome } from '../../helpers/palace-fixture.js';
import { commit, scripted } from '../../helpers/reflection-mock.js';
import { sharedShellLauncher } from '../../../src/process/shell-launcher.js';
import { handleGit } from '../../../src/internals.js';

let h: PalaceHome;
let memory: Memory;
let watcher: MemoryWatcher;
const moves: MemoryUpdatedEvent[] = [];
const head = (): string => git(h.memoryDir('ada'), ['rev-parse', 'HEAD'], h.env);

beforeAll(async () => {
  h = palaceHome(['ada']);
  memory = await createMemory({ home: h.home, agentId: 'ada', env: h.env });
  watcher = memory.watch({ pollMs: 100 });
  watcher.on('memory_updated', (e) => moves.push(e));
  await watcher.ready;
}, 60_000);
afterAll(() => {
  watcher?.close();
  cleanupTmp();
});

/** Waits for the watcher to report the move to `commit` (each move is reported once). */
async function moveTo(commit: string): Promise<MemoryUpdatedEvent> {
  for (;;) {
    const found = moves.find((e) => e.commit === commit);
    if (found) return found;
    const r = await watcher.next();
    if (r.done) throw new Error('watcher closed');
  }
}

describe('writer names', { tags: ['sandbox'] }, () => {
  const merges: Record<string, string> = {};

  it('a reflection merge is `reflection` in history() and watch(), as is its sub-agent commit', async () => {
    appendTranscript(join(h.home, 'agents', 'ada'), 'default', [
      { kind: 'user', text: 'I drink black tea.' },
      { kind: 'assistant', text: 'Noted.' },
    ]);
    const model = scripted([
      {
        calls: [
          { name: 'write_file', input: { path: 'notes/tea.md', content: '---\ndescription: Tea\n---\nBlack tea.\n' } },
        ],
      },
      { calls: [commit('Record the tea preference', 'Reviewed-Transcript: default lines 1-2')] },
      { text: 'done' },
    ]);
    const r = await runDream({
      launch: sharedShellLauncher(),
      home: h.home,
      agentId: 'ada',
      env: h.env,
      cwd: h.home,
      model,
      git: handleGit(memory),
      maxRetries: 0,
      stream: false,
    });
    expect(r).toMatchObject({ launched: true, status: 'merged' });
    merges['reflection'] = head();
    // The sub-agent's commit by its reason: within one second of `init`, git's date order may list init first.
    const [merge, ...rest] = await memory.history({ limit: 3 });
    const work = rest.find((e) => e.reason.startsWith('Record the tea preference'));
    expect(merge?.reason).toBe('merge(reflection): Record the tea preference');
    const moved = await moveTo(head());
    expect({ merge: merge?.writer, work: work?.writer, watch: moved.writer }).toEqual({
      merge: 'reflection',
      work: 'reflection',
      watch: 'reflection',
    });
  }, 120_000);

  it('a worker merge is `worker` in history() and watch()', async () => {
    const outcome = await runWorkerCommand({
      launch: sharedShellLauncher(),
      memoryDir: h.memoryDir('ada'),
      gitmemHome: h.home,
      command:
        "printf -- '---\\ndescription: Coffee\\n---\\nNo coffee.\\n' > notes/coffee.md && git add -A && git commit -qm 'worker learned'",
      env: h.env,
      git: createGitRunner({ env: h.env }),
      onWarning: () => undefined,
      paths: ['notes'],
    });
    expect(outcome.status).toBe('merged');
    merges['worker'] = head();
    const [merge] = await memory.history({ limit: 1 });
    expect(merge?.reason).toMatch(/^merge\(memory\): gitmem\/worker\//);
    expect(merge?.writer).toBe('worker');
    expect((await moveTo(head())).writer).toBe('worker');
  }, 120_000);

  it('`gitmem log` and the palace name both merges after their writers', async () => {
    const log = JSON.parse(h.cli(['log', '--agent', 'ada', '-n', '10', '--json'])) as Array<{
      sha: string;
      writer: string;
    }>;
    const byLog = Object.fromEntries(log.map((e) => [e.sha, e.writer]));
    expect([byLog[merges['reflection'] ?? ''], byLog[merges['worker'] ?? '']]).toEqual(['reflection', 'worker']);
    const text = h.cli(['log', '--agent', 'ada', '-n', '10']);
    expect(text).toMatch(new RegExp(`^${(merges['reflection'] ?? '').slice(0, 7)} .* \\(reflection\\)$`, 'm'));
    const p = await startPalaceProcess(h, ['--agent', 'ada']);
    try {
      const r = await fetch(`${p.url}api/history?agent=ada`);
      const body = (await r.json()) as { entries: Array<{ sha: string; writer: string }> };
      const byPalace = Object.fromEntries(body.entries.map((e) => [e.sha, e.writer]));
      expect([byPalace[merges['reflection'] ?? ''], byPalace[merges['worker'] ?? '']]).toEqual([
        'reflection',
        'worker',
      ]);
    } finally {
      await p.stop();
    }
  }, 120_000);
});
