// A partial clone (`gitmem clone --partial`) from a smart-HTTP remote that requires credentials (git
// http-backend behind node:http on 127.0.0.1, Basic auth only): the blobs it never fetched are fetched later, on
// demand, when gitmem reads them (git's own lazy fetch, and the batched fetch of promisor.ts), and those fetches
// carry the same credentials the clone used: environment config scoped to the remote's origin, never argv, never
// written into .git/config. Without them the server answers 401 and the read fails.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchObjects, missingObjects } from '../../../src/git/promisor.js';
import { createGitRunner } from '../../../src/git/runner.js';
import { handleGit } from '../../../src/internals.js';
import { createMemory } from '../../../src/memory.js';
import { cloneMemory } from '../../../src/sync/clone.js';
import type { GitCredentials } from '../../../src/sync/credentials.js';
import { syncMemory } from '../../../src/sync/sync.js';
import { createBareRepo, startGitHttpServer, type GitHttpServer } from '../../helpers/git-http-server.js';
import { nginxMissing, startNginx } from '../../helpers/git-servers.js';
import { cleanupTmp, git, hermeticGitEnv, makeTmpDir } from '../../helpers/tmp.js';

const TOKEN = `tok-${randomBytes(12).toString('hex')}`;
const root = makeTmpDir('gitmem-partial-auth-');
const env = hermeticGitEnv(root);
const g = (dir: string, args: string[]): string => git(dir, args, env);
const runner = createGitRunner({ env, sleep: async () => undefined });
const credentials: GitCredentials = { token: TOKEN, scheme: 'basic', username: 'ada', source: 'env' };
const tokenEnv = { ...env, GITMEM_GIT_TOKEN: TOKEN, GITMEM_GIT_USERNAME: 'ada' };
let server: GitHttpServer;
let url: string;

beforeAll(async () => {
  const served = makeTmpDir('gitmem-served-');
  const bare = createBareRepo(served, 'mem');
  g(bare, ['config', 'uploadpack.allowFilter', 'true']);
  g(bare, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
  server = await startGitHttpServer({ root: served, token: TOKEN, schemes: ['basic'] });
  url = `${server.url}/mem.git`;
  const home = makeTmpDir('gitmem-home-');
  const r = await cloneMemory({ git: runner, home, url, agentId: 'w', credentials });
  const writer = await createMemory({ home, agentId: 'w', env: tokenEnv, git: runner });
  const create = (file: string, text: string) =>
    writer.tool({ command: 'create', file_path: file, description: 'a note', file_text: text, reason: `add ${file}` });
  await create('notes/plan.md', 'ship the reader');
  await create('other/old.md', 'first version');
  await create('other/extra.md', 'never read, fetched in a batch');
  await writer.tool({
    command: 'str_replace',
    file_path: 'other/old.md',
    old_string: 'first version',
    new_string: 'second version',
    reason: 'update',
  });
  expect((await syncMemory({ git: runner, memoryDir: r.memoryDir, credentials })).status).toBe('pushed');
});

afterAll(async () => {
  await server?.close();
  cleanupTmp();
});

describe('a partial clone over authenticated HTTP', () => {
  it('fetches the blobs it lacks on demand with the clone’s credentials, never stored in .git/config', async () => {
    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url, agentId: 'rd', partial: true, scope: 'notes', credentials });
    const lacking = (rev: string): boolean => {
      const id = g(r.memoryDir, ['rev-parse', rev]);
      return g(r.memoryDir, ['rev-list', '--objects', '--all', '--missing=print']).includes(`?${id}`);
    };
    expect(lacking('HEAD:other/old.md')).toBe(true);
    expect(lacking('HEAD~1:other/old.md')).toBe(true);

    const memory = await createMemory({ home, agentId: 'rd', env: tokenEnv, git: runner });
    const seen = server.requests.length;
    // git's own lazy fetch, inside the read's `cat-file`.
    expect((await memory.read('other/old.md')).body).toContain('second version');
    expect((await memory.read('other/old.md', { at: 'HEAD~1' })).body).toContain('first version');
    expect(lacking('HEAD:other/old.md')).toBe(false);
    const later = server.requests.slice(seen);
    expect(later.length).toBeGreaterThan(0);
    expect(later.filter((q) => q.authorization !== undefined).every((q) => q.authorized)).toBe(true);
    expect(later.some((q) => q.authorized && q.path.includes('git-upload-pack'))).toBe(true);

    // The batched fetch (promisor.ts) through the handle's runner: one round trip, authorised.
    const git = handleGit(memory);
    const extra = g(r.memoryDir, ['rev-parse', 'HEAD:other/extra.md']);
    const rest = await missingObjects(git, r.memoryDir, ['--all']);
    expect(rest.has(extra)).toBe(true);
    const before = server.requests.length;
    await fetchObjects(git, r.memoryDir, [...rest]);
    expect(await missingObjects(git, r.memoryDir, ['--all'])).toEqual(new Set());
    expect(server.requests.slice(before).every((q) => q.authorized)).toBe(true);

    // Nothing of the credential is written into the repository's config.
    const config = readFileSync(join(r.memoryDir, '.git', 'config'), 'utf8');
    const basic = Buffer.from(`ada:${TOKEN}`).toString('base64');
    expect(config).not.toContain(TOKEN);
    expect(config).not.toContain(basic);
    expect(config).not.toMatch(/extraHeader|credential/i);
  });

  it('without credentials the on-demand fetch is refused by the server (what the test above would see)', async () => {
    const home = makeTmpDir('gitmem-home-');
    const r = await cloneMemory({ git: runner, home, url, agentId: 'nc', partial: true, scope: 'notes', credentials });
    const memory = await createMemory({ home, agentId: 'nc', env, git: runner });
    const failed = await memory.read('other/old.md').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(String((failed as Error).message)).not.toContain(TOKEN);
    expect(r.memoryDir).toBeTruthy();
  });
});

const noNginx = nginxMissing();

describe.skipIf(noNginx !== undefined)('a partial clone behind nginx with auth_basic', () => {
  it('reads a blob it never fetched through nginx, with the clone’s credentials', async () => {
    // The backend asks nothing; nginx in front requires Basic auth, as a deployment's front does.
    const served = makeTmpDir('gitmem-served-');
    const bare = createBareRepo(served, 'front');
    g(bare, ['config', 'uploadpack.allowFilter', 'true']);
    g(bare, ['config', 'uploadpack.allowAnySHA1InWant', 'true']);
    const backend = await startGitHttpServer({ root: served });
    const front = await startNginx(makeTmpDir('gitmem-nginx-'), backend.url, { users: { ada: TOKEN } });
    try {
      const frontUrl = `${front.url}/front.git`;
      const wHome = makeTmpDir('gitmem-home-');
      const w = await cloneMemory({ git: runner, home: wHome, url: frontUrl, agentId: 'w', credentials });
      const writer = await createMemory({ home: wHome, agentId: 'w', env: tokenEnv, git: runner });
      await writer.tool({
        command: 'create',
        file_path: 'other/far.md',
        description: 'a note',
        file_text: 'outside the scope',
        reason: 'add',
      });
      expect((await syncMemory({ git: runner, memoryDir: w.memoryDir, credentials })).status).toBe('pushed');

      const home = makeTmpDir('gitmem-home-');
      const r = await cloneMemory({
        git: runner,
        home,
        url: frontUrl,
        agentId: 'rd',
        partial: true,
        scope: 'notes',
        credentials,
      });
      expect(g(r.memoryDir, ['rev-list', '--objects', '--all', '--missing=print'])).toMatch(/^\?/m);
      const denied = await createMemory({ home, agentId: 'rd', env, git: runner });
      expect(await denied.read('other/far.md').catch((e: unknown) => e)).toBeInstanceOf(Error);
      const memory = await createMemory({ home, agentId: 'rd', env: tokenEnv, git: runner });
      expect((await memory.read('other/far.md')).body).toContain('outside the scope');
      expect(readFileSync(join(r.memoryDir, '.git', 'config'), 'utf8')).not.toContain(TOKEN);
    } finally {
      front.stop();
      await backend.close();
    }
  });
});
