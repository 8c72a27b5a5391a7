// `gitmem mcp --http` as an operator runs it: a generated token printed once, to stderr only; a token
// file used and never printed (and refused when others can read it); no listener beyond loopback without
// a token file; SIGTERM closes every session and exits 0. Through the official MCP client.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GITMEM_BIN, runGitmem } from '../../helpers/cli.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

let home: string;
let env: Record<string, string>;
const TOKEN = 'operator-chosen-token-0123456789abcdef';

interface Running {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/** Starts `gitmem mcp --http …` and waits until it printed `until` on stderr (or exited). */
async function start(args: string[], until: RegExp): Promise<Running> {
  const child = spawn(process.execPath, [GITMEM_BIN, 'mcp', '--http', '--port', '0', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve) => {
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      if (until.test(err)) resolve();
    });
    void exited.then(() => resolve());
  });
  return { child, stderr: () => err, stdout: () => out, exited };
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'gitmem-cli-http-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

beforeAll(() => {
  home = makeTmpDir('gitmem-mcp-http-cli-');
  env = { ...hermeticGitEnv(home), GITMEM_HOME: home };
  for (const agent of ['ada', 'bob']) expect(runGitmem(env, ['init', '--agent', agent]).code).toBe(0);
});
afterAll(() => cleanupTmp());

describe('gitmem mcp --http', () => {
  it('generates a token, prints it once to stderr, serves --agent at /mcp and every agent at /agents/<id>/mcp, stops on SIGTERM', async () => {
    const run = await start(['--agent', 'ada'], /bearer token .*: \S+\n/);
    const url = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(run.stderr())?.[1] as string;
    const token = /bearer token .*: (\S+)\n/.exec(run.stderr())?.[1] as string;
    expect(url, run.stderr()).toBeTruthy();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(run.stderr()).toContain(`${url.replace(/\/mcp$/, '')}/agents/<id>/mcp (every agent of ${home})`);
    const unauth = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(unauth.status).toBe(401);
    const ada = await connect(url, token);
    const bob = await connect(url.replace(/\/mcp$/, '/agents/bob/mcp'), token);
    await ada.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'ada over http',
        file_path: 'notes/a.md',
        description: 'a',
        file_text: 'a',
      },
    });
    await bob.callTool({
      name: 'memory',
      arguments: {
        command: 'create',
        reason: 'bob over http',
        file_path: 'notes/b.md',
        description: 'b',
        file_text: 'b',
      },
    });
    expect(git(join(home, 'agents/ada/memory'), ['log', '-1', '--format=%s'])).toBe('ada over http');
    expect(git(join(home, 'agents/bob/memory'), ['log', '-1', '--format=%s'])).toBe('bob over http');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toBe('');
    expect(run.stderr().split(token).length - 1, 'the token is printed exactly once').toBe(1);
    expect(run.stderr()).toMatch(/stopped \(SIGTERM\)/);
    await Promise.all([ada.close(), bob.close()]);
  });

  it('uses a 0600 --token-file and never prints it; a token file others can read is refused before listening', async () => {
    const file = join(home, 'token');
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    const run = await start(['--token-file', file], /serving .*\n/);
    const url = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp) /.exec(run.stderr())?.[1] as string;
    const bob = await connect(url.replace(/\/mcp$/, '/agents/bob/mcp'), TOKEN);
    expect((await bob.listTools()).tools.length).toBeGreaterThan(0);
    await bob.close();
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toContain(TOKEN);
    expect(run.stderr()).not.toMatch(/bearer token/);

    chmodSync(file, 0o640);
    const r = runGitmem(env, ['mcp', '--http', '--port', '0', '--token-file', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/CREDENTIALS_INSECURE/);
    expect(r.stderr).not.toContain(TOKEN);
  });

  it('refuses to listen beyond loopback without --token-file (UNSAFE_BIND), and refuses bad options', () => {
    // 192.0.2.1 is on no interface: past the check, listening fails (IO_ERROR), so nothing ever listens beyond loopback.
    const unsafe = runGitmem(env, ['mcp', '--http', '--host', '192.0.2.1', '--port', '0']);
    expect(unsafe.code).toBe(1);
    expect(unsafe.stderr).toMatch(/UNSAFE_BIND/);
    const file = join(home, 'token2');
    writeFileSync(file, TOKEN, { mode: 0o600 });
    const given = runGitmem(env, ['mcp', '--http', '--host', '192.0.2.1', '--port', '0', '--token-file', file]);
    expect(given.code).toBe(1);
    expect(given.stderr).toMatch(/IO_ERROR/);
    for (const args of [
      ['mcp', '--port', '1234'],
      ['mcp', '--http', '--port', 'x'],
      ['mcp', '--http', '--port', '70000'],
      ['mcp', '--http', '--agent', 'nobody'],
    ]) {
      const r = runGitmem(env, [...args, '--home', home]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^gitmem: [A-Z_]+: /);
    }
  });
});
