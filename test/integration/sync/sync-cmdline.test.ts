/**
 * The sync token never appears on a command line: while `gitmem sync` runs against an authenticated
 * smart-HTTP remote (that holds every response, so the processes live long enough to be seen), every
 * process's /proc/<pid>/cmdline is read over and over — git, git-remote-http and anything else — and no
 * form of the token (raw, URL-encoded, base64 alone or as user:token) may appear; nor in the CLI's
 * output, errors or JSON.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { memoryFixture } from '../../helpers/memory-fixture.js';
import { cleanupTmp, git, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `gmt-${randomBytes(12).toString('hex')}`;
const USER = 'bot-user';
const forms = [
  TOKEN,
  encodeURIComponent(TOKEN),
  Buffer.from(TOKEN).toString('base64'),
  Buffer.from(`${USER}:${TOKEN}`).toString('base64'),
  Buffer.from(`x-access-token:${TOKEN}`).toString('base64'),
];
const root = makeTmpDir('gitmem-cmdline-');
let server: GitHttpServer;
const CLI = join(process.cwd(), 'dist/bin/gitmem.cjs');

beforeAll(async () => {
  server = await startGitHttpServer({ root, token: TOKEN, delayMs: 120 });
});
afterAll(async () => {
  await server.close();
  cleanupTmp();
});

/** Every readable command line on the machine right now. */
function commandLines(): string[] {
  const out: string[] = [];
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      out.push(readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' '));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Runs the CLI while scanning command lines; returns its output and every command line seen. */
async function runWhileScanning(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string; seen: Set<string> }> {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let [stdout, stderr, done] = ['', '', false];
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => ((done = true), resolve(code))));
  const seen = new Set<string>();
  while (!done) {
    for (const line of commandLines()) seen.add(line);
    await new Promise((r) => setTimeout(r, 2));
  }
  return { code: await exited, stdout, stderr, seen };
}

function expectNoToken(label: string, text: string): void {
  for (const f of forms) expect(text.includes(f), `${label} contains a token form`).toBe(false);
}

async function memoryWithRemote(name: string): Promise<{ env: Record<string, string>; dir: string; bare: string }> {
  const fx = await memoryFixture(name);
  const bare = createBareRepo(root, name);
  git(fx.dir, ['remote', 'add', 'origin', `${server.url}/${name}.git`], fx.env);
  writeFileSync(join(fx.dir, 'notes.md'), '---\ndescription: n\n---\nsomething learned\n');
  git(fx.dir, ['add', '-A'], fx.env);
  git(fx.dir, ['commit', '-qm', 'learned'], fx.env);
  return { env: fx.env, dir: fx.dir, bare };
}

describe('the token on command lines', () => {
  for (const scheme of ['bearer', 'basic'] as const) {
    it(`gitmem sync (${scheme}) pushes, and no process ever carries the token in its argv`, async () => {
      const { env, dir, bare } = await memoryWithRemote(`cmd-${scheme}`);
      const tokenEnv = {
        ...env,
        GITMEM_GIT_TOKEN: TOKEN,
        ...(scheme === 'basic' ? { GITMEM_GIT_USERNAME: USER } : {}),
      };
      const r = await runWhileScanning(['sync', '--agent', `cmd-${scheme}`, '--json'], tokenEnv);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ status: 'pushed' });
      expect(git(bare, ['rev-parse', 'main'])).toBe(git(dir, ['rev-parse', 'HEAD'], env));
      const lines = [...r.seen];
      // The scan saw the network helper and the git commands, so it could have caught the token.
      expect(lines.some((l) => l.includes('remote-http') && l.includes(server.url))).toBe(true);
      expect(lines.some((l) => /\bgit\b.* push /.test(l))).toBe(true);
      for (const l of lines) expectNoToken(`cmdline "${l.slice(0, 200)}"`, l);
      expectNoToken('stdout', r.stdout);
      expectNoToken('stderr', r.stderr);
    });
  }

  it('a failing authenticated sync reports without the token in its text, JSON or command lines', async () => {
    const { env } = await memoryWithRemote('cmd-fail');
    git(
      join(env['GITMEM_HOME'] ?? '', 'agents', 'cmd-fail', 'memory'),
      ['remote', 'set-url', 'origin', `${server.url}/missing.git`],
      env,
    );
    for (const json of [true, false]) {
      const r = await runWhileScanning(['sync', '--agent', 'cmd-fail', ...(json ? ['--json'] : [])], {
        ...env,
        GITMEM_GIT_TOKEN: TOKEN,
      });
      expect(r.code).toBe(1);
      expect(`${r.stdout}${r.stderr}`).toMatch(/GIT_FAILED|push_failed/);
      for (const l of r.seen) expectNoToken('cmdline', l);
      expectNoToken('stdout', r.stdout);
      expectNoToken('stderr', r.stderr);
    }
  });
});

describe('a token in a remote URL query string', () => {
  it('remote set refuses it without echoing the secret, and the repo config stays as it was', async () => {
    const fx = await memoryFixture('query-url');
    const secret = `qs-${randomBytes(10).toString('hex')}`;
    const before = readFileSync(join(fx.dir, '.git', 'config'), 'utf8');
    for (const param of ['access_token', 'private_token', 'token', 'sig']) {
      for (const json of [true, false]) {
        const r = await runWhileScanning(
          [
            'remote',
            'set',
            `https://git.example.com/x.git?${param}=${secret}`,
            '--agent',
            'query-url',
            ...(json ? ['--json'] : []),
          ],
          fx.env,
        );
        expect(r.code).toBe(1);
        expect(`${r.stdout}${r.stderr}`).toContain('INVALID_ARGUMENT');
        expect(`${r.stdout}${r.stderr}`).toMatch(/query string/);
        expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
      }
    }
    expect(readFileSync(join(fx.dir, '.git', 'config'), 'utf8')).toBe(before);
  });

  it("a URL with a query token set behind gitmem's back is never printed nor handed to git: remote show, sync text and JSON", async () => {
    const fx = await memoryFixture('query-raw');
    const secret = `qs-${randomBytes(10).toString('hex')}`;
    git(
      fx.dir,
      ['remote', 'add', 'origin', `http://127.0.0.1:${server.port}/nothere.git?access_token=${secret}&x=1`],
      fx.env,
    );
    for (const args of [['remote', 'show'], ['remote', 'show', '--json'], ['sync'], ['sync', '--json']]) {
      const r = await runWhileScanning([...args, '--agent', 'query-raw'], fx.env);
      expect(`${r.stdout}${r.stderr}`, args.join(' ')).not.toContain(secret);
      expect(`${r.stdout}${r.stderr}`, args.join(' ')).toContain('access_token');
      for (const l of r.seen) expect(l.includes(secret), `cmdline during ${args.join(' ')}`).toBe(false);
    }
  });
});
