// `gitmem defrag` through the CLI process against a fake OpenAI-compatible server on 127.0.0.1 (the real
// provider code, streamed tool calls): --dry-run prints the diff and the dropped line and lands nothing; a run
// that deletes a fact without moving it exits 1 with CONTENT_DROPPED and keeps its branch; a split merges.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI, type FakeReply } from '../../helpers/fake-openai.js';
import { memoryFixture, type MemoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git } from '../../helpers/tmp.js';

const CLI = join(import.meta.dirname, '..', '..', 'helpers', 'run-cli.ts');
const TSX = pathToFileURL(
  join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'loader.mjs'),
).href;
const MODEL = ['-m', 'openai-compatible:local:fake-model'];
const TRAILER = 'Memory-Defrag: gitmem defrag';
let fx: MemoryFixture;
let fake: FakeOpenAI;
let replies: FakeReply[] = [];

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', TSX, CLI, 'defrag', '--agent', 'agent-f', ...MODEL, ...args], {
      cwd: fx.home,
      env: { ...fx.env, NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => res({ code, stdout, stderr }));
  });
}

const commitReply = (reason: string): FakeReply => ({
  toolCalls: [
    {
      name: 'shell',
      args: { command: `git add -A && git commit -q -m ${JSON.stringify(reason)} -m ${JSON.stringify(TRAILER)}` },
    },
  ],
});
const write = (path: string, description: string, body: string): { name: string; args: unknown } => ({
  name: 'write_file',
  args: { path, content: `---\ndescription: ${description}\n---\n${body}` },
});
/** Splits the notes into a tools file, but forgets the deploy rule. */
const lossySplit = (): FakeReply[] => [
  {
    toolCalls: [
      write('project/tooling.md', 'Tools for scripts', '- We use bun for scripts.\n'),
      write(
        'project/notes.md',
        'Index of the project notes',
        '# Project\n\n## Related files\n- [[project/tooling.md]]\n',
      ),
    ],
  },
  commitReply('Split the project notes by topic'),
  { text: 'Split project/notes.md.' },
];

afterAll(async () => {
  await fake?.close();
  cleanupTmp();
});
beforeAll(async () => {
  fx = await memoryFixture('agent-f');
  fake = await startFakeOpenAI(() => replies.shift() ?? { text: 'done.' });
  writeFileSync(join(fx.home, 'config'), JSON.stringify({ providers: { local: { baseURL: fake.baseURL } } }));
  await fx.memory.tool({
    command: 'create',
    file_path: 'project/notes.md',
    description: 'Everything about the project',
    file_text: '# Project\n- We use bun for scripts.\n- Never deploy on Fridays.\n',
    reason: 'fixture: a multi-topic file',
  });
});

describe('gitmem defrag (CLI, fake OpenAI-compatible server)', { tags: ['sandbox'] }, () => {
  it('--dry-run prints the diff and the line it would drop, and lands nothing', async () => {
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    replies = lossySplit();
    const r = await cli(['--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('+- We use bun for scripts.');
    expect(r.stdout).toContain('Dry run: 1 defragmentation commit(s) would be merged');
    expect(r.stderr).toContain('dropped: project/notes.md:6 - Never deploy on Fridays.');
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(git(fx.dir, ['branch', '--list', 'gitmem/*'], fx.env)).toBe('');
  }, 60_000);

  it('a deletion without a move exits 1 with CONTENT_DROPPED, main untouched and the branch kept', async () => {
    const head = git(fx.dir, ['rev-parse', 'HEAD'], fx.env);
    replies = lossySplit();
    const r = await cli(['--json']);
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { status: string; branchName: string; error: { code: string } };
    expect(out).toMatchObject({ status: 'content_dropped', success: false, branchKept: true });
    expect(out.error.code).toBe('CONTENT_DROPPED');
    expect(r.stderr).toMatch(/^gitmem: CONTENT_DROPPED: the defragmentation deleted 1 line/m);
    expect(git(fx.dir, ['rev-parse', 'HEAD'], fx.env)).toBe(head);
    expect(git(fx.dir, ['branch', '--list', out.branchName], fx.env)).toContain(out.branchName);
  }, 60_000);

  it('a split that keeps every line merges (exit 0)', async () => {
    replies = [
      {
        toolCalls: [
          write('project/tooling.md', 'Tools for scripts', '- We use bun for scripts.\n'),
          write('project/deploys.md', 'When deploys may happen', '- Never deploy on Fridays.\n'),
          write(
            'project/notes.md',
            'Index of the project notes',
            '# Project\n\n## Related files\n- [[project/tooling.md]]\n- [[project/deploys.md]]\n',
          ),
        ],
      },
      commitReply('Split the project notes by topic'),
      { text: 'Split project/notes.md.' },
    ];
    const r = await cli([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Defragmented the memory: merged 1 commit(s).');
    expect(readFileSync(join(fx.dir, 'project/deploys.md'), 'utf8')).toContain('Never deploy on Fridays.');
    expect(git(fx.dir, ['log', '-1', '--format=%s'], fx.env)).toBe(
      'merge(reflection): defrag: Split the project notes by topic',
    );
  }, 60_000);
});
