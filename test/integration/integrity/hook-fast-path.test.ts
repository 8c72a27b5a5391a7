// The pre-commit hook's fast path, end to end with the built CLI: a running daemon answers a raw shell
// commit's hook (perl client, no Node start) with exactly the verdict and the messages the Node hook gives,
// for a corpus of good and bad staged changes, with git's temporary indexes and in a linked worktree; and
// nothing but a complete verdict ever lets a commit through.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookClientPerl, CLIENT_FAIL, CLIENT_PASS } from '../../../src/hooks/hook-client-script.js';
import { parseAnswer, renderHookRequest } from '../../../src/hooks/hook-wire.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const MAIN = join(process.cwd(), 'dist/bin/gitmem.cjs');
const ENTRY = join(process.cwd(), 'dist/bin/pre-commit.cjs');
const uid = process.getuid?.() ?? 0;

let root: string;
let home: string;
let repo: string;
let runtime: string;
let env: Record<string, string>;

function cli(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, [MAIN, ...args], { env: { ...env, ...extra }, encoding: 'utf8' });
}

function hookSocket(): string | undefined {
  const name = existsSync(runtime) ? readdirSync(runtime).find((n) => /^hook-.*\.sock$/.test(n)) : undefined;
  return name ? join(runtime, name) : undefined;
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The verdict through the daemon (the hook's perl client); fails the test when the daemon did not answer. */
function viaDaemon(cwd = repo, extra: Record<string, string> = {}): { code: number; stderr: string } {
  const r = spawnSync('perl', ['-e', hookClientPerl(), '--', ENTRY], {
    cwd,
    env: { ...env, GIT_INDEX_FILE: '.git/index', ...extra },
    encoding: 'utf8',
  });
  expect([CLIENT_PASS, CLIENT_FAIL], `perl client exit ${r.status}: ${r.stderr}`).toContain(r.status);
  return { code: r.status === CLIENT_PASS ? 0 : 1, stderr: r.stderr };
}

/** The verdict of the Node hook, as git runs it today. */
function viaNode(cwd = repo, extra: Record<string, string> = {}): { code: number; stderr: string } {
  const r = spawnSync(process.execPath, [ENTRY], {
    cwd,
    env: { ...env, GIT_INDEX_FILE: '.git/index', ...extra },
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stderr: r.stderr };
}

/** The Node hook's verdict on the snapshot `stage` leaves in the index (then reset). */
function viaNodeOf(stage: () => void): { code: number; stderr: string } {
  stage();
  return viaNode();
}

function write(rel: string, text: string): void {
  mkdirSync(join(repo, rel, '..'), { recursive: true });
  writeFileSync(join(repo, rel), text);
}

const fm = (body: string, head = 'description: d'): string => `---\n${head}\n---\n${body}\n`;

/** Good and bad staged changes, each from a clean HEAD. */
const CORPUS: Record<string, () => void> = {
  'a good new system file': () => write('system/new.md', fm('hello')),
  'a good edit of a note': () => write('notes/n.md', fm('edited')),
  'missing frontmatter': () => write('system/bad.md', 'no frontmatter\n'),
  'frontmatter never closed': () => write('system/bad.md', '---\ndescription: d\n'),
  'an empty description': () => write('reference/r.md', fm('x', 'description:')),
  'an unknown key': () => write('system/k.md', fm('x', 'description: d\nfoo: bar')),
  'read_only set on a new file': () => write('system/ro-new.md', fm('x', 'description: d\nread_only: true')),
  'an edit of a read_only file': () => write('system/ro.md', fm('changed', 'description: ro\nread_only: true')),
  'read_only removed': () => write('system/ro.md', fm('kept')),
  'a flat skill file': () => write('skills/flat.md', fm('x')),
  'a deleted read_only file': () => rmSync(join(repo, 'system/ro.md')),
  'a rename': () => git(repo, ['mv', 'notes/n.md', 'notes/m.md'], env),
  'a symbolic link': () => symlinkSync('/etc/passwd', join(repo, 'system/link.md')),
  'several problems at once': () => {
    write('system/a.md', 'nothing\n');
    write('system/b.md', fm('x', 'description:'));
    write('skills/c.md', 'x\n');
  },
  'a secret in a note': () => write('notes/key.md', fm(`token: ${'ghp_'}Zq3vT8mW1pXk7Rb2Nc9Ls4Hd6Fg0Jy5Ua8Ee`)),
  'a non-ASCII path and text': () => write('system/café-été.md', fm('déjà vu — ✓', 'description: ça va')),
  'system/ over its budget': () => write('system/huge.md', fm('word '.repeat(60_000))),
  'nothing staged': () => undefined,
};

function reset(): void {
  git(repo, ['reset', '-q', '--hard', 'HEAD'], env);
  git(repo, ['clean', '-fdq'], env);
}

beforeAll(async () => {
  root = makeTmpDir('gitmem-hookfast-');
  home = join(root, 'home');
  env = { ...hermeticGitEnv(root), GITMEM_HOME: home, GITMEM_DAEMON: '1', XDG_RUNTIME_DIR: join(root, 'run') };
  runtime = join(root, 'run', `gitmem-${uid}`);
  expect(cli(['init', '--agent', 'a'], { GITMEM_DAEMON: '0' }).status).toBe(0);
  repo = join(home, 'agents', 'a', 'memory');
  write('system/ro.md', fm('frozen', 'description: ro\nread_only: true'));
  write('notes/n.md', fm('note'));
  write('notes/good.md', fm('good'));
  git(repo, ['add', '-A'], env);
  git(repo, ['commit', '-q', '--no-verify', '-m', 'fixture'], env);
  expect(cli(['daemon', 'start']).status).toBe(0);
  await until(() => hookSocket() !== undefined);
});

afterAll(() => {
  cli(['daemon', 'stop']);
  cleanupTmp();
});

describe('the hook answered by the daemon', () => {
  it('gives the verdict and the messages of the Node hook for every change of the corpus', () => {
    const verdicts: number[] = [];
    for (const [name, stage] of Object.entries(CORPUS)) {
      reset();
      stage();
      git(repo, ['add', '-A'], env);
      const daemon = viaDaemon();
      const node = viaNode();
      expect(daemon, name).toEqual(node);
      verdicts.push(daemon.code);
    }
    // The corpus exercises both outcomes: [pass, pass, refusals…, a rename passes, …].
    expect(verdicts).toEqual([0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 0, 1, 0]);
    reset();
  });

  it("refuses and passes real commits exactly as the Node hook does, with git's temporary indexes too", () => {
    // A copy of the hook that cannot start Node: whatever it decides, the daemon decided.
    const hooks = join(root, 'hooks-no-node');
    mkdirSync(hooks, { recursive: true });
    const text = readFileSync(join(repo, '.git/hooks/pre-commit'), 'utf8')
      .replace(/^gitmem_try '[^']*'/m, "gitmem_try '/gone/node'")
      .replace('exec node "$2"', 'exit 99');
    writeFileSync(join(hooks, 'pre-commit'), text);
    chmodSync(join(hooks, 'pre-commit'), 0o755);
    const commit = (args: string[], cwd = repo) =>
      spawnSync('git', ['-c', `core.hooksPath=${hooks}`, 'commit', '-q', ...args], { cwd, env, encoding: 'utf8' });
    reset();
    write('system/ro.md', fm('changed', 'description: ro\nread_only: true')); // not staged: only -a brings it in
    const all = commit(['-a', '-m', 'x']); // git commit -a: the hook sees index.lock
    expect(all.status).toBe(1);
    expect(all.stderr).toBe(viaNodeOf(() => git(repo, ['add', '-A'], env)).stderr);
    reset();
    write('notes/n.md', 'no frontmatter any more\n');
    git(repo, ['add', 'notes/n.md'], env); // staged, but not part of the partial commit below
    write('notes/good.md', fm('better'));
    const partial = commit(['-m', 'x', '--', 'notes/good.md']); // a partial commit: next-index-<pid>.lock
    expect(partial.status, partial.stderr).toBe(0);
    reset();
    write('system/ok.md', fm('fine'));
    git(repo, ['add', '-A'], env);
    expect(commit(['-m', 'fine']).status).toBe(0);
    const wt = join(root, 'linked');
    git(repo, ['worktree', 'add', '-q', wt], env);
    writeFileSync(join(wt, 'system', 'bad.md'), 'no frontmatter\n');
    git(wt, ['add', '-A'], env);
    const linked = commit(['-m', 'x'], wt); // a linked worktree: GIT_DIR set by git
    expect(linked.status).toBe(1);
    expect(linked.stderr).toContain('system/bad.md: missing frontmatter');
    git(repo, ['worktree', 'remove', '--force', wt], env);
  });
});

/** Sends a raw request to the daemon's hook socket and returns its answer. */
function ask(socket: string, request: Buffer): Promise<ReturnType<typeof parseAnswer>> {
  return new Promise((resolve, reject) => {
    const c = connect(socket);
    const chunks: Buffer[] = [];
    c.on('connect', () => c.write(request));
    c.on('data', (d) => chunks.push(d));
    c.on('end', () => resolve(parseAnswer(Buffer.concat(chunks))));
    c.on('error', reject);
  });
}

describe('what the daemon refuses (the hook then starts Node)', () => {
  it('a request from a sandbox, or one that does not prove who sends it', async () => {
    const socket = hookSocket() as string;
    const base = { cwd: repo, env: { GIT_INDEX_FILE: '.git/index' } };
    expect(
      await ask(socket, renderHookRequest({ ...base, env: { ...base.env, GITMEM_SANDBOX: 'bwrap' } })),
    ).toHaveProperty('refused');
    expect(await ask(socket, renderHookRequest(base))).toHaveProperty('refused'); // no ticket
    expect(
      await ask(socket, renderHookRequest({ ...base, ticket: `${socket.split('/').pop()}.1-abc.ticket` })),
    ).toHaveProperty('refused'); // pid 1 holds no such file
  });

  it('a client that runs in a sandbox never asks (exit 75), and GITMEM_DAEMON=0 keeps it off', () => {
    for (const extra of [{ GITMEM_SANDBOX: 'bwrap' }, { GITMEM_DAEMON: 'off' }]) {
      const r = spawnSync('perl', ['-e', hookClientPerl(), '--', ENTRY], {
        cwd: repo,
        env: { ...env, GIT_INDEX_FILE: '.git/index', ...extra },
      });
      expect(r.status).toBe(75);
    }
  });

  it('an index that is not one git writes for a commit in that repository', () => {
    reset();
    const elsewhere = join(root, 'other-index');
    writeFileSync(elsewhere, readFileSync(join(repo, '.git/index')));
    for (const index of [elsewhere, join(repo, '.git/../.git/other'), '/etc/passwd']) {
      const r = spawnSync('perl', ['-e', hookClientPerl(), '--', ENTRY], {
        cwd: repo,
        env: { ...env, GIT_INDEX_FILE: index },
      });
      expect(r.status, index).toBe(75);
    }
  });
});
